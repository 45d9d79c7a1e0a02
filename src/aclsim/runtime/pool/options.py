"""The pool's options: :class:`PoolOptions`, also parsed from an alloc-conf string."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from aclsim.runtime.pool.sizes import MIN_BLOCK, SMALL_SIZE


@dataclass(frozen=True, kw_only=True)
class PoolOptions:
    """How the pool behaves.  Validated at construction.

    Attributes
    ----------
    expandable_segments
        Reserve an address range per pool (small, large) and map pages on demand (default), or
        use PyTorch-style classic segments.
    reuse_before_grow
        Before asking the upstream for more memory, take other streams' free memory whose work
        is done where it is, else give back cached memory that is free and whose stream work
        is done: pages wholly inside free blocks (expandable) or wholly free segments
        (classic), oldest first.  Keeps reserved close to allocated.  (Without it, both happen
        only once the upstream refuses.)
    page_size
        Mapping granularity of expandable segments (a multiple of the upstream's
        ``granularity``); ``None`` takes the upstream's (2 MiB on the simulated NPU).
    max_split_size
        Classic segments only: blocks of at least this size are never split, and requests
        below it never use them (PyTorch's ``max_split_size_mb``).  ``None``: no limit.
    round_divisions
        PyTorch's ``roundup_power2_divisions``: above 512 * divisions, round requests up to
        the next of ``divisions`` equal steps between two powers of two.  0: 512 B steps.
    ascend_padding
        Apply AscendCL's ``ALIGN_UP(size, 32) + 32`` to every request (the runtime's rule).
    fast_cache
        Keep freed blocks in exact-size free lists per stream (the hit path).
    limit
        Cap on reserved bytes (``None``: the upstream's capacity).
    """

    expandable_segments: bool = True
    reuse_before_grow: bool = True
    page_size: int | None = None
    max_split_size: int | None = None
    round_divisions: int = 0
    ascend_padding: bool = True
    fast_cache: bool = True
    limit: int | None = None

    @classmethod
    def parse(cls, conf: str) -> PoolOptions:
        """Options from a ``PYTORCH_NPU_ALLOC_CONF``-style string (``ACLSIM_ALLOC_CONF``).

        Keys: ``expandable_segments``, ``reuse_before_grow``, ``fast_cache``, ``ascend_padding``
        (True/False), ``page_size_mb``, ``max_split_size_mb``, ``limit_mb`` (numbers of MiB),
        ``roundup_power2_divisions`` (int).

        >>> PoolOptions.parse("expandable_segments:False,max_split_size_mb:128").max_split_size
        134217728
        """
        flags = {"expandable_segments", "reuse_before_grow", "fast_cache", "ascend_padding"}
        sizes = {"page_size_mb": "page_size", "max_split_size_mb": "max_split_size", "limit_mb": "limit"}
        kwargs: dict[str, Any] = {}
        for item in filter(None, (part.strip() for part in conf.split(","))):
            key, sep, value = item.partition(":")
            key, value = key.strip(), value.strip()
            if not sep:
                raise ValueError(f"alloc conf item {item!r} is not key:value")
            if key in flags:
                if value not in ("True", "False", "true", "false", "1", "0"):
                    raise ValueError(f"{key} must be True or False, got {value!r}")
                kwargs[key] = value in ("True", "true", "1")
            elif key in sizes:
                kwargs[sizes[key]] = int(float(value) * (1 << 20))
            elif key == "roundup_power2_divisions":
                kwargs["round_divisions"] = int(value)
            else:
                known = sorted(flags | set(sizes) | {"roundup_power2_divisions"})
                raise ValueError(f"unknown alloc conf key {key!r}; known: {known}")
        return cls(**kwargs)

    def __post_init__(self) -> None:
        if self.page_size is not None and (self.page_size <= 0 or self.page_size % MIN_BLOCK):
            raise ValueError(f"page_size must be a positive multiple of {MIN_BLOCK}, got {self.page_size}")
        if self.max_split_size is not None and self.max_split_size <= SMALL_SIZE:
            raise ValueError(f"max_split_size must be above {SMALL_SIZE} B, got {self.max_split_size}")
        if self.round_divisions < 0 or (self.round_divisions & (self.round_divisions - 1)):
            raise ValueError(f"round_divisions must be 0 or a power of two, got {self.round_divisions}")
        if self.limit is not None and self.limit <= 0:
            raise ValueError(f"limit must be > 0, got {self.limit}")
