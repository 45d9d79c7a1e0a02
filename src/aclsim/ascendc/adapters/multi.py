"""Adapters of the ``## Blocks, cores, atomics, tiling`` rows of ``api_cxx.txt``."""

from __future__ import annotations

__all__ = ["set_tiling_key", "tiling_key"]

_key: list[int | None] = [None]  # the launch's tiling key (the bridge keeps it here)


def set_tiling_key(key: int | None) -> None:
    """``ICPU_SET_TILING_KEY(key)`` (the bridge; None after a launch)."""
    _key[0] = None if key is None else int(key)


def tiling_key() -> int | None:
    """The launch's tiling key (``ICPU_SET_TILING_KEY`` before ``ICPU_RUN_KF``; None: none set), which
    ``KERNEL_TASK_TYPE(key, type)`` compares its key with."""
    return _key[0]
