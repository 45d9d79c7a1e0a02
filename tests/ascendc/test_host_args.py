"""ICPU_RUN_KF with an argument that is not GmAlloc memory: the launch names it (bridge.run_kernel)."""

from __future__ import annotations

from pathlib import Path

from ascendc_support import CPP_EXAMPLES, run_program


def test_an_argument_not_from_gmalloc_is_named(host_program) -> None:
    exe = host_program([Path(__file__).parent / "nongm_main.cpp", CPP_EXAMPLES / "add_custom.cpp"], "nongm")
    done = run_program(exe, env={"ACLSIM_CHIP": "tiny"})
    assert "argument 2" in done.stderr and "is not GmAlloc memory" in done.stderr, done.stderr
    assert "argument 1 " not in done.stderr and "argument 3 " not in done.stderr
    assert "failed" in done.stderr  # the kernel's read of it faults
