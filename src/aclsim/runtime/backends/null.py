"""The null backend: the simulated NPU's memory, launches recorded and checked, never timed.

Kernels run exactly (their results are real) and go through the compiler's passes (the race
sanitizer, auto-sync), but no core model runs: ``launch.report`` stays None and the stream's
clock does not move.  For fast tests of host programs and kernels' results
(``init(backend="null")`` or ``ACLSIM_BACKEND=null``).
"""

from __future__ import annotations

from aclsim.arch import ChipSpec
from aclsim.isa import Instr
from aclsim.runtime.backends.sim import SimBackend


class NullBackend(SimBackend):
    """``sim``'s byte arena; a launch takes no modeled time."""

    name = "null"
    times = False

    def time(self, chip: ChipSpec, streams: list[list[Instr]]) -> None:
        return None
