"""Helpers real kernels call: ``CeilDivision`` and the memory-size constants of the chip.

Ascend C defines ``TOTAL_UB_SIZE``, ``TOTAL_L1_SIZE``, ``TOTAL_L0A_SIZE``... as compile-time
constants of the chip the kernel is built for; in aclsim they are read from the chip the block
runs on (``ChipSpec``), through functions of the same names in snake case, callable inside a
kernel: ``total_ub_size()`` is the chip's UB, ``total_vec_local_size()`` the UB a kernel may use
(``ub_bytes - ub_reserved_bytes``, as Ascend C's ``TOTAL_VEC_LOCAL_SIZE`` is the UB less what the
toolkit keeps), ``total_l1_size()``, ``total_l0a_size()``, ``total_l0b_size()``,
``total_l0c_size()``.  ``DEFAULT_C0_SIZE`` (32: bytes of a C0 row), ``ONE_BLK_SIZE`` (32) and
``BLOCK_CUBE`` (16) are the same on every chip, so they are plain constants.
"""

from __future__ import annotations

from aclsim.kernel._core import current

DEFAULT_C0_SIZE = 32  # bytes in one C0 row of a fractal (kernel_utils_constants.h)
ONE_BLK_SIZE = 32  # bytes in one data block
BLOCK_CUBE = 16  # rows (and 16-bit columns) of a cube fractal


def ceil_division(num: int, factor: int) -> int:
    """``CeilDivision(num, factor)``: ``ceil(num / factor)``; 0 when ``factor`` is 0, as Ascend C returns.

    >>> ceil_division(33, 16), ceil_division(32, 16), ceil_division(5, 0)
    (3, 2, 0)
    """
    num, factor = int(num), int(factor)
    if factor == 0:
        return 0
    return (num + factor - 1) // factor


def total_ub_size() -> int:
    """``TOTAL_UB_SIZE``: bytes of UB on the running chip."""
    return current().chip.ub_bytes


def total_vec_local_size() -> int:
    """``TOTAL_VEC_LOCAL_SIZE``: bytes of UB a kernel may use on the running chip."""
    return current().chip.ub_usable_bytes


def total_l1_size() -> int:
    """``TOTAL_L1_SIZE``: bytes of L1 on the running chip."""
    return current().chip.l1_bytes


def total_l0a_size() -> int:
    """``TOTAL_L0A_SIZE``: bytes of L0A on the running chip."""
    return current().chip.l0a_bytes


def total_l0b_size() -> int:
    """``TOTAL_L0B_SIZE``: bytes of L0B on the running chip."""
    return current().chip.l0b_bytes


def total_l0c_size() -> int:
    """``TOTAL_L0C_SIZE``: bytes of L0C on the running chip."""
    return current().chip.l0c_bytes
