"""The aclsim command: demo (the main job) and chips."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

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


def test_memcheck_builtin_prints_the_graded_table(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["memcheck", "--chip", "tiny", "--elements", "1024", "--iterations", "4", "--json"]) == 0
    out = capsys.readouterr().out
    for word in ("allocation latency", "fragmentation", "pool hit rate", "zero-copy share",
                 "excellent / warning / danger"):
        assert word in out, word
    data = json.loads(out.strip().splitlines()[-1])
    # 4 iterations x (3 buffers + the workspace), all from the pool on one stream
    assert data["allocations"] == 16 and data["hits"] + data["misses"] == 16
    assert data["zero_copy_share"] == 0.0 and data["grades"]["zero_copy_share"] == "danger"
    assert not aclsim.is_initialized()


def test_memcheck_zero_copy_and_script(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["memcheck", "--chip", "tiny", "--workload", "add-zero-copy", "--elements", "1024",
                 "--iterations", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert data["zero_copy_share"] == 1.0 and data["allocations"] == 0
    script = tmp_path / "work.py"
    script.write_text("import aclsim\n\ndef workload():\n    for _ in range(5):\n"
                      "        aclsim.free(aclsim.malloc(4096))\n")
    assert main(["memcheck", "--chip", "tiny", "--script", str(script), "--json"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert data["allocations"] == 5 and data["hit_rate"] == 0.8
    bad = tmp_path / "bad.py"
    bad.write_text("x = 1\n")
    assert main(["memcheck", "--script", str(bad)]) == 2
    assert "defines no workload()" in capsys.readouterr().out
    assert main(["memcheck", "--elements", "7"]) == 2
    assert not aclsim.is_initialized()
