"""``acl.init`` and ``acl.finalize``."""

from __future__ import annotations

import os

from aclsim import aclnn
from aclsim.acl._boundary import returns_code
from aclsim.errors import InvalidParamError
from aclsim.runtime import api as _rt

__all__ = ["finalize", "init"]


@returns_code
def init(config_path: str | os.PathLike[str] | None = None) -> None:
    """Initialize pyACL (``aclInit``): once per process until :func:`finalize`.

    Parameters
    ----------
    config_path
        Optional JSON file.  Its ``"aclsim"`` object may set ``devices``, ``chip`` and
        ``memory``; the other keys of real AscendCL configs (dump, profiling, ...) are
        ignored.  ``None`` or ``""`` uses the environment (``ACLSIM_DEVICES``,
        ``ACLSIM_CHIP``, ``ACLSIM_MEMORY``) and the defaults.  As on the device, ``aclInit``
        also initialises aclnn (:func:`aclsim.aclnn.init` with the same file: its
        ``op_debug_config``).

    Returns
    -------
    int
        ``ret``: 0, ``ACL_ERROR_REPEAT_INITIALIZE`` (100002) on a second call,
        ``ACL_ERROR_INVALID_FILE`` (100003) / ``ACL_ERROR_PARSE_FILE`` (100006) for a bad file.

    Examples
    --------
    >>> import aclsim.acl as acl
    >>> acl.init(), acl.init()
    (0, 100002)
    >>> acl.finalize()
    0
    """
    if config_path is not None and not isinstance(config_path, (str, os.PathLike)):
        raise InvalidParamError(f"config_path must be a str path or None, got {type(config_path).__name__}")
    _rt.init(config_path or None)
    aclnn.init(config_path or None)


@returns_code
def finalize() -> None:
    """Release everything (``aclFinalize``).

    Resources still alive are released too and reported by a
    :class:`~aclsim.errors.LeakWarning`; aclnn is finalised too (:func:`aclsim.aclnn.finalize`).

    Returns
    -------
    int
        ``ret``: 0, ``ACL_ERROR_UNINITIALIZE`` (100001) before any init,
        ``ACL_ERROR_REPEAT_FINALIZE`` (100037) on a second call.
    """
    _rt.finalize()
    aclnn.finalize()
