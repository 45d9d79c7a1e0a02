"""Every kernel of ``examples/``: its recorded work, synced by ``auto_sync``, verifies and runs
under randomized pipe latencies (one test per example file)."""

from __future__ import annotations

import contextlib
import io
import runpy
from pathlib import Path

import pytest

from aclsim.compiler import SyncStats, auto_sync, strip_syncs
from aclsim.compiler.coretest import stress_in_core_model
from aclsim.compiler.executor import stress

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
KERNEL_EXAMPLES = sorted(p for p in EXAMPLES.glob("*.py") if "aclsim.kernel" in p.read_text(encoding="utf-8"))


def launches_of(path: Path) -> list:
    from aclsim.kernel.launch import capture_launches

    with capture_launches() as launches, contextlib.redirect_stdout(io.StringIO()):
        try:
            runpy.run_path(str(path), run_name="__main__")
        except BaseException:  # noqa: BLE001 - some examples fail on purpose (14_kernel_broken)
            pass
    return [launch for launch in launches if launch.streams]


@pytest.mark.parametrize("path", KERNEL_EXAMPLES, ids=[p.stem for p in KERNEL_EXAMPLES])
def test_auto_sync_verifies_every_example_kernel(path: Path) -> None:
    launches = launches_of(path)
    assert launches, f"{path.name} launched no kernel"
    for launch in launches:
        pool = launch.chip.events_per_pipe_pair
        for stream in launch.streams[:4]:
            stats = SyncStats()
            out = auto_sync(strip_syncs(stream), launch.chip, stats=stats)  # raises if it does not verify
            assert stats.report is not None and stats.report.ok
            assert all(n <= pool for n in stats.alloc.ids_used.values())
            assert stress(out, runs=3).ok
            # and in the core model itself, under randomized latencies (the SyncTester idea)
            assert stress_in_core_model(out, launch.chip, trials=3) == []
            if launch.error is None:  # the kernel's own synchronization holds there too
                assert stress_in_core_model(stream, launch.chip, trials=3) == []
