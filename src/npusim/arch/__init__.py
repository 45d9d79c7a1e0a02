"""Chip descriptions: the only source of hardware numbers in npusim."""

from npusim.arch.presets import ASCEND_310P, ASCEND_910B, DEFAULT_CHIP, PRESETS, TINY, get_chip, list_chips
from npusim.arch.spec import ChipSpec, GiB, KiB, MiB

__all__ = [
    "ASCEND_310P",
    "ASCEND_910B",
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
