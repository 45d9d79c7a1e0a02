"""``aclsim capi``: the flags, the explicit build, and the message without a shared libpython."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest

from aclsim.capi import build as capi_build
from aclsim.cli import main


def test_cflags_name_the_headers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["capi", "--cflags"]) == 0
    flag = capsys.readouterr().out.split()[0]
    assert flag.startswith("-I") and (Path(flag[2:]) / "acl" / "acl.h").is_file()
    assert (Path(flag[2:]) / "acl" / "ops" / "acl_dvpp.h").is_file()


def test_libs_use_an_up_to_date_build(capi_lib: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = (capi_lib / "libascendcl.so").stat().st_mtime_ns
    assert main(["capi", "--libs", "--libdir", "--out", str(capi_lib)]) == 0
    words = capsys.readouterr().out.split()
    assert words == [f"-L{capi_lib}", f"-Wl,-rpath,{capi_lib}", "-lascendcl", str(capi_lib)]
    assert (capi_lib / "libascendcl.so").stat().st_mtime_ns == before  # reused, not rebuilt
    for alias in capi_build.ALIASES:
        assert (capi_lib / alias).resolve() == (capi_lib / "libascendcl.so").resolve()


def test_nothing_to_print_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["capi"]) == 2
    assert "--cflags" in capsys.readouterr().err


def test_no_shared_libpython_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("cffi")  # without it, the message is about cffi
    real = sysconfig.get_config_var
    monkeypatch.setattr(sysconfig, "get_config_var",
                        lambda name: 0 if name == "Py_ENABLE_SHARED" else real(name))
    assert main(["capi", "build", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "no shared libpython" in err and "--enable-shared" in err
    assert not (tmp_path / "libascendcl.so").exists()
