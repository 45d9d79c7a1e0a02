"""``aclsim ascendc``: the compile flags, usage errors, and the start-up rules it shares with
``aclsim capi`` (no cffi, no shared libpython: a message, nothing built)."""

from __future__ import annotations

import builtins
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from aclsim.ascendc import build as asc_build
from aclsim.cli import main


def test_cflags_name_both_header_dirs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ascendc", "--cflags"]) == 0
    words = capsys.readouterr().out.split()
    includes = [Path(w[2:]) for w in words if w.startswith("-I")]
    assert any((d / "kernel_operator.h").is_file() and (d / "tikicpulib.h").is_file() for d in includes)
    assert any((d / "acl" / "acl.h").is_file() for d in includes)
    assert "-D__CCE_KT_TEST__" in words and "-std=c++17" in words
    assert not any(w.startswith("-DACLSIM_SOC") for w in words)


def test_cflags_with_a_soc(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ascendc", "--cflags", "--soc", "Ascend310P3"]) == 0
    # the word as $(...) hands it to the compiler: the macro's value is a string literal
    assert '-DACLSIM_SOC="Ascend310P3"' in capsys.readouterr().out.split()


@pytest.mark.parametrize("soc", ["Ascend 910", 'x"y', "a;b", ""])
def test_a_bad_soc_is_refused(soc: str, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["ascendc", "--cflags", "--soc", soc])
    err = capsys.readouterr().err
    if soc == "":  # empty: no define, as without --soc
        assert rc == 0
        return
    assert rc == 1 and "SoC name" in err


def test_soc_without_cflags_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ascendc", "--libdir", "--soc", "Ascend910B1"]) == 2
    assert "--soc goes with --cflags" in capsys.readouterr().err


def test_nothing_to_print_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ascendc"]) == 2
    err = capsys.readouterr().err
    assert "--cflags" in err and "--cmake-prefix" in err


def test_no_shared_libpython_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("cffi")  # without it, the message is about cffi
    real = sysconfig.get_config_var
    monkeypatch.setattr(sysconfig, "get_config_var",
                        lambda name: 0 if name == "Py_ENABLE_SHARED" else real(name))
    for argv in (["build"], ["--libs"], ["--cmake-prefix"]):
        assert main(["ascendc", *argv, "--out", str(tmp_path)]) == 1
        err = capsys.readouterr().err
        assert err.startswith("aclsim ascendc: ") and "no shared libpython" in err
        assert "--enable-shared" in err
    assert list(tmp_path.iterdir()) == []  # nothing built, no tree


def test_no_cffi_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                         capsys: pytest.CaptureFixture[str]) -> None:
    real_import = builtins.__import__

    def no_cffi(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "cffi":
            raise ImportError("no cffi here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_cffi)
    assert main(["ascendc", "--libs", "--out", str(tmp_path)]) == 1
    assert "needs cffi" in capsys.readouterr().err
    assert not (tmp_path / asc_build.LIBRARY).exists()


def test_no_compiler_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("cffi")
    if not sysconfig.get_config_var("Py_ENABLE_SHARED"):
        pytest.skip("no shared libpython: that message comes first")
    monkeypatch.setenv("CC", "no-such-cc")
    monkeypatch.setenv("PATH", str(tmp_path))  # no gcc either
    assert main(["ascendc", "build", "--out", str(tmp_path)]) == 1
    assert "no C compiler" in capsys.readouterr().err
