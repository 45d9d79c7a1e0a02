"""System values and checker hooks a kernel calls: ``GetSystemCycle``, ``OOMCheckAddrRange``,
and the ``DataFormat`` enum of the data-copy structures.

- ``get_system_cycle()`` reads the system counter on the device (50 MHz on the Atlas A2/A3
  series).  aclsim runs a kernel's Python first and times its recorded instructions afterwards
  (the core model, with every block's traffic), so the modelled cycle of a statement is not known
  while the statement runs.  It therefore returns what Ascend C's CPU-debug build returns, the
  host's clock in nanoseconds (``CLOCK_REALTIME``), and records a ``get_system_cycle``
  instruction on the scalar pipe: the launch's timeline shows it at its modelled time (in the
  trace's SCALAR row), which is where to read simulated durations: after the launch,
  ``system_cycle_readings(launch, block)`` gives what each call would have returned on the device,
  its modelled start in ticks of the system counter from the launch's start.  Supported on the
  A2/A3 series (arch 2201) only, as documented.
- ``oom_check_addr_range(gm_addr, gm_size)`` registers a global range for Ascend C's out-of-memory
  check (the ``ASCENDC_OOM`` build), which then accepts accesses inside the kernel's arguments and
  the registered ranges (kernels register constant tables they reach by address).  aclsim's
  memory checker is always on and already accepts every live device allocation (up to its padded
  size, with the padding noted by the sanitizer) and faults on anything else, so a registration
  widens nothing: the call checks its arguments and records nothing (in the device's ordinary
  build it compiles to nothing as well).
"""

from __future__ import annotations

import enum
import time
from typing import Any

from aclsim.isa import NO_COST, Pipe
from aclsim.kernel._core import UnsupportedFault, current
from aclsim.kernel.gm import GmAddr

#: The system counter's frequency by arch (the GetSystemCycle page: 50 MHz on the Atlas A2/A3
#: series, "time = cycles / 50 us").
SYSTEM_COUNTER_HZ = {"2201": 50_000_000}


class DataFormat(enum.IntEnum):
    """``AscendC::DataFormat`` (kernel_struct_data_copy.h): the layout of a tensor's data."""

    ND = 0
    NZ = 1
    NCHW = 2
    NC1HWC0 = 3
    NHWC = 4
    NCDHW = 5
    NDC1HWC0 = 6
    FRACTAL_Z_3D = 7


def get_system_cycle() -> int:
    """``GetSystemCycle()``: the system counter (here the host clock in ns, as in Ascend C's
    CPU-debug build: module docstring), recorded as ``get_system_cycle`` on the scalar pipe."""
    core = current()
    if core.chip.arch_version not in SYSTEM_COUNTER_HZ:
        core.fault(UnsupportedFault, f"GetSystemCycle is not supported on the {core.chip.name} (arch "
                   f"{core.chip.arch_version}): its page lists the Atlas A2/A3 series only")
    core.emit(Pipe.S, "get_system_cycle", (), (), NO_COST)
    return time.time_ns()


def system_cycle_readings(launch: Any, block: int = 0) -> list[int]:
    """After a launch: the values each ``get_system_cycle()`` of ``block`` would have returned on
    the device, in the order the block called it: the modelled start of its ``get_system_cycle``
    instruction, in ticks of the system counter (``SYSTEM_COUNTER_HZ``) from the launch's start.
    ``launch`` is the ``KernelLaunch`` (its timing report must be there: a timing backend)."""
    report = getattr(launch, "report", None)
    if report is None:
        raise ValueError("the launch has no timing report (a backend that does not time, or not finished)")
    timeline = next((t for t in report.timelines if t.block == block), None)
    if timeline is None:
        raise ValueError(f"block {block} is not among the launch's {report.block_dim} blocks")
    hz = SYSTEM_COUNTER_HZ.get(report.chip.arch_version)
    if hz is None:
        raise ValueError(f"the {report.chip.name} has no system counter GetSystemCycle reads")
    scale = hz / report.chip.clock_hz
    starts = timeline.start
    return [int(starts[i] * scale) for i, ins in enumerate(timeline.instrs) if ins.op == "get_system_cycle"]


def oom_check_addr_range(gm_addr: Any, gm_size: int) -> None:
    """``OOMCheckAddrRange(gmAddr, gmSize)``: register ``gm_size`` bytes at ``gm_addr`` for the
    out-of-memory check; aclsim's checker already covers all live device memory (module
    docstring), so this checks its arguments and records nothing."""
    current()
    if not isinstance(gm_addr, (GmAddr, int)) or isinstance(gm_addr, bool):
        raise TypeError(f"OOMCheckAddrRange takes a global pointer (GmAddr or address), not "
                        f"{type(gm_addr).__name__}")
    if int(gm_size) < 0 or int(gm_addr) < 0:
        raise ValueError(f"OOMCheckAddrRange(0x{int(gm_addr):x}, {int(gm_size)}): the address and size are "
                         "unsigned")
