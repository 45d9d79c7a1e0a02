"""The pool's two exceptions; the runtime turns them into ACL errors."""

from __future__ import annotations


class AllocatorFull(Exception):
    """Raised by an upstream or an allocator that has no room; the runtime turns it into OOM.

    ``stats`` (when the pool raises it) holds the numbers for the message.
    """

    def __init__(self, size: int = 0, **stats: int) -> None:
        super().__init__(size)
        self.size = size
        self.stats = stats


class InvalidRelease(ValueError):
    """``release`` of an address that is not a live block of the pool."""
