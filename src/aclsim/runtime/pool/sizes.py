"""Sizes: PyTorch's block and segment sizes, AscendCL's padding, the size class of a request."""

from __future__ import annotations

# PyTorch's CUDACachingAllocator constants (c10/cuda/CUDACachingAllocator.cpp; torch_npu uses
# the same ones, see shared/design/reference/allocator-prior-art.md 1.1 and ascend-api.md 5.1).
MIN_BLOCK = 512  # kMinBlockSize: every block is a multiple of 512 B
SMALL_SIZE = 1 << 20  # kSmallSize: requests up to 1 MiB go to the small pool
SMALL_BUFFER = 2 << 20  # kSmallBuffer: classic segment of the small pool
LARGE_BUFFER = 20 << 20  # kLargeBuffer: classic segment for requests below MIN_LARGE_ALLOC
MIN_LARGE_ALLOC = 10 << 20  # kMinLargeAlloc
ROUND_LARGE = 2 << 20  # kRoundLarge: classic segments of large requests are rounded to 2 MiB
# AscendCL's aclrtMalloc rules (acl_rt.h doc comment; ascend-api.md 1.2 and 5.1): the size is
# rounded up to 32 B and 32 B are added; starts are 64 B aligned (the pool gives 512 B).
ASCEND_SIZE_ALIGN = 32
ASCEND_PADDING = 32

# the two pools of a caching pool: requests up to SMALL_SIZE, and the larger ones
SMALL, LARGE = 0, 1
POOL_NAMES = ("small_pool", "large_pool")


def align_up(value: int, align: int) -> int:
    """``value`` rounded up to a multiple of ``align``.

    >>> align_up(1000, 512), align_up(1024, 512)
    (1024, 1024)
    """
    return (value + align - 1) // align * align


def size_class(nbytes: int, *, ascend_padding: bool, round_divisions: int) -> int:
    """The block size of a request of ``nbytes``: AscendCL's padding (``ascend_padding``),
    then 512 B steps, or above ``512 * round_divisions`` the next of ``round_divisions``
    equal steps between two powers of two (PyTorch's ``roundup_power2_divisions``).

    >>> size_class(1000, ascend_padding=True, round_divisions=0)
    1536
    >>> size_class(5000, ascend_padding=False, round_divisions=4)
    5120
    """
    if ascend_padding:
        nbytes = align_up(nbytes, ASCEND_SIZE_ALIGN) + ASCEND_PADDING
    size = align_up(max(nbytes, 1), MIN_BLOCK)
    div = round_divisions
    if div > 1 and size > MIN_BLOCK * div:
        floor = 1 << (size.bit_length() - 1)
        if floor != size:
            step = floor // div
            size = align_up(size, max(step, MIN_BLOCK))
    return size


def classic_segment_size(size: int) -> int:
    """PyTorch's classic segment for a block of ``size``: 2 MiB for the small pool, 20 MiB
    below 10 MiB, else the size rounded up to 2 MiB."""
    if size <= SMALL_SIZE:
        return SMALL_BUFFER
    if size < MIN_LARGE_ALLOC:
        return LARGE_BUFFER
    return align_up(size, ROUND_LARGE)
