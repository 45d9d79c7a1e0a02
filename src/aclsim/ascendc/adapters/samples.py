"""Adapters of the samples sweep's rows (``## Samples sweep`` of api_cxx.txt): the figures
``platform_ascendc::PlatformAscendC`` gives a CPU-debug host program."""

from __future__ import annotations

import sys

from aclsim.arch.spec import ChipSpec
from aclsim.ascendc.adapters import cube
from aclsim.kernel.multicore import sys_workspace_size

__all__ = ["SOC_VERSIONS", "platform_info"]

#: ``SocVersion`` of platform_ascendc.h (its enumerators' values) by aclsim's arch versions
SOC_VERSIONS = {"1001": 0, "2201": 1, "2002": 2, "3002": 3}
_RESERVED_VERSION = 99999
#: ``CoreMemType`` -> the ChipSpec field of that memory's size (FB: no figure in the presets)
_MEMORIES = {0: "l0a_bytes", 1: "l0b_bytes", 2: "l0c_bytes", 3: "l1_bytes", 4: "l2_bytes", 5: "ub_bytes",
             6: "dram_bytes", 8: "bt_bytes"}
_MEM_NAMES = ("L0_A", "L0_B", "L0_C", "L1", "L2", "UB", "HBM", "FB", "BT")


def _chip(soc: str) -> ChipSpec:
    """The chip of a host program's platform: aclsim started as a first GmAlloc would (``soc`` names
    the preset unless ``ACLSIM_CHIP`` does), then the current device's."""
    from aclsim.runtime.lookup import current_device_or_first

    for start in cube._start:
        start(soc)
    return current_device_or_first().chip


def platform_info(soc: str, what: int) -> int:
    """Figure ``what`` of the platform (the row's comment lists them)."""
    chip = _chip(soc)
    what = int(what)
    if what in (0, 2):  # a coupled preset's cube_cores and vector_cores are both its AI Cores
        return chip.vector_cores
    if what == 1:
        return chip.cube_cores
    if what == 3:
        return sys_workspace_size(chip)
    if what == 4:
        return SOC_VERSIONS.get(chip.arch_version, _RESERVED_VERSION)
    if 16 <= what < 16 + len(_MEM_NAMES):
        field = _MEMORIES.get(what - 16)
        value = int(getattr(chip, field)) if field else 0
        if not value:
            print(f"aclsim: PlatformAscendC::GetCoreMemSize({_MEM_NAMES[what - 16]}): the {chip.name} preset "
                  "has no figure of that memory; size 0", file=sys.stderr)
            return -1
        return value
    raise ValueError(f"AclsimPlatformInfo: no platform figure {what}")
