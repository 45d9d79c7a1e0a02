"""Chip descriptions: the only source of hardware numbers in aclsim."""

from aclsim.arch.presets import (
    ASCEND_310P,
    ASCEND_910B,
    ASCEND_910B1,
    ASCEND_910B2,
    ASCEND_910B3,
    ASCEND_910B4,
    DEFAULT_CHIP,
    PRESETS,
    TINY,
    get_chip,
    list_chips,
)
from aclsim.arch.spec import ChipSpec, GiB, KiB, MiB

__all__ = [
    "ASCEND_310P",
    "ASCEND_910B",
    "ASCEND_910B1",
    "ASCEND_910B2",
    "ASCEND_910B3",
    "ASCEND_910B4",
    "DEFAULT_CHIP",
    "PRESETS",
    "TINY",
    "ChipSpec",
    "GiB",
    "KiB",
    "MiB",
    "get_chip",
    "list_chips",
]
