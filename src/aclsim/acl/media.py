"""``acl.media``: the memory calls of the media-processing (DVPP) module."""

from __future__ import annotations

from aclsim.acl._boundary import returns_code, returns_value
from aclsim.acl._convert import as_int
from aclsim.runtime import api as _rt

__all__ = ["dvpp_free", "dvpp_malloc"]


@returns_value(None)
def dvpp_malloc(size: int) -> int:
    """Device memory for media processing (``acldvppMalloc``).

    Parameters
    ----------
    size
        Bytes, > 0.

    Returns
    -------
    tuple
        ``(dev_ptr, ret)``; ``dev_ptr`` is ``None`` on failure.

    Examples
    --------
    >>> import aclsim.acl as acl
    >>> acl.init(); acl.rt.set_device(0)
    0
    0
    >>> ptr, ret = acl.media.dvpp_malloc(1024)
    >>> ret, acl.media.dvpp_free(ptr), acl.rt.reset_device(0), acl.finalize()
    (0, 0, 0, 0)
    """
    return _rt.dvpp_malloc(as_int("size", size)).ptr


@returns_code
def dvpp_free(dev_ptr: int) -> None:
    """Release memory from :func:`dvpp_malloc` (``acldvppFree``); ``ret`` is
    ``ACL_ERROR_RT_MEMORY_FREE`` (207002) for a double free or a pointer from ``acl.rt.malloc``."""
    _rt.dvpp_free(as_int("dev_ptr", dev_ptr))
