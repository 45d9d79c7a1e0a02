"""The aclsim command: demo (the main job) and chips."""

from __future__ import annotations

import subprocess
import sys

import pytest

import aclsim
from aclsim.cli import main
from aclsim.demo import run_demo


def test_demo_passes_and_reports_every_step(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--chip", "tiny", "--elements", "4096"]) == 0
    out = capsys.readouterr().out
    for word in ("init", "set_device", "create_context", "create_stream", "memcpy_async", "verify",
                 "aclnnAddGetWorkspaceSize: workspace 0 B", "aclnnAdd(workspace", "kernel add<<<4>>>",
                 "PASS", "event_elapsed_time", "finalize: no leaks"):
        assert word in out, word
    assert not aclsim.is_initialized()


def test_demo_timings_follow_the_chip_model() -> None:
    elements = 1 << 16
    result = run_demo(chip="910B", elements=elements, log=lambda s: None)
    chip = aclsim.get_chip("910B")
    nbytes = elements * 4
    assert result.passed and result.leaks == []
    assert result.timings_ms["H2D x"] == pytest.approx(chip.host_copy_seconds(nbytes) * 1e3, rel=1e-9)
    assert result.timings_ms["D2H z"] == pytest.approx(chip.host_copy_seconds(nbytes) * 1e3, rel=1e-9)
    # the compute step is aclnnAdd's kernel: the stream's clock advanced by its modeled time
    assert result.kernel_seconds > 0
    assert result.timings_ms["compute"] == pytest.approx(result.kernel_seconds * 1e3, rel=1e-9)


def test_demo_fails_loudly_when_verification_fails(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import aclsim.kernel as asc

    real_copy = asc.data_copy

    def short_copy(dst, src, count):  # the "device" drops the second half of every copy
        real_copy(dst, src, count // 2 // 8 * 8)

    monkeypatch.setattr(asc, "data_copy", short_copy)
    assert main(["demo", "--chip", "tiny", "--elements", "1024"]) == 1
    assert "FAIL" in capsys.readouterr().out


def test_chips_lists_presets_with_sources(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chips", "--sources"]) == 0
    out = capsys.readouterr().out
    assert "910B" in out and "310P" in out and "tiny" in out and "ASC-2201" in out


def test_bad_arguments() -> None:
    assert main(["demo", "--elements", "0"]) == 2
    assert not aclsim.is_initialized()
    assert main(["demo", "--chip", "tiny", "--elements", "1001"]) == 0  # a tail not a multiple of 32 B
    with pytest.raises(SystemExit):
        main(["no-such-command"])


@pytest.mark.parametrize("module", ["aclsim", "aclsim.cli"])
def test_module_entry_points(module: str) -> None:
    proc = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0 and "aclsim" in proc.stdout
