"""Adapters of the ``## Blocks, cores, atomics, tiling`` rows of ``api_cxx.txt``."""

from __future__ import annotations

__all__ = ["tiling_key"]


def tiling_key() -> int | None:
    """The launch's tiling key (``ICPU_SET_TILING_KEY`` before ``ICPU_RUN_KF``; None: none set), which
    ``KERNEL_TASK_TYPE(key, type)`` compares its key with."""
    from aclsim.ascendc.bridge import bridge  # the bridge imports the table, which imports this package

    return bridge().tiling_key
