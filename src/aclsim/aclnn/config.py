"""``aclnnInit`` / ``aclnnFinalize``: the aclnn library's process-wide set-up and its one switch,
``enable_debug_kernel`` (reference section 1; OPBASE ``src/nnopbase/common/api/aclnn_init.cpp``).

What OPBASE does, and aclsim with it: ``aclnnInit(configPath)`` reads the environment
variable ``NPU_COLLECT_PATH`` (set and non-empty: debug kernels on) and otherwise the JSON
file ``{"op_debug_config": {"enable_debug_kernel": "on"}}`` (any other value: off).  It
returns success in every case: a ``None``/empty path, a path that does not exist, a file that
is not JSON or lacks the keys all leave the switch off (the device logs them at info/warning
level; aclsim logs them at WARNING on logger ``"aclsim.aclnn"``).  A second ``aclnnInit`` is
documented as not allowed ("once per process") but is not refused by OPBASE: it succeeds and
reads the configuration again; aclsim does the same and logs a warning.  ``aclnnFinalize``
returns success, initialised or not (a warning when nothing was initialised).  ``aclInit``
does what ``aclnnInit`` does on the device.

What the switch changes in aclsim: nothing in how kernels run.  On the device "on" turns on
checks of global-memory overruns and of the pipeline synchronisation inside the kernels;
aclsim's kernels always run with both (bounds checks on every access and the race sanitizer),
whatever the switch says.  :func:`debug_kernel_enabled` reports the switch.

>>> import aclsim.aclnn as aclnn
>>> aclnn.init(None); aclnn.debug_kernel_enabled()
False
>>> aclnn.finalize()
"""

from __future__ import annotations

import json
import logging
import os
import threading
from typing import Any

from aclsim.errors import AclnnParamInvalidError

__all__ = ["debug_kernel_enabled", "finalize", "init", "is_initialized"]

LOGGER = logging.getLogger("aclsim.aclnn")
LOGGER.addHandler(logging.NullHandler())

#: the environment variable that turns the debug kernels on whatever the file says (OPBASE)
COLLECT_ENV = "NPU_COLLECT_PATH"

_lock = threading.Lock()
_state = {"initialized": False, "debug_kernel": False}


def _debug_switch(config_path: str) -> bool:
    """``enable_debug_kernel == "on"`` in the file; ``False`` (with a warning) for anything else."""
    if os.environ.get(COLLECT_ENV):
        return True
    if not config_path:
        return False
    try:
        with open(config_path, encoding="utf-8") as f:
            config: Any = json.load(f)
    except OSError as exc:
        LOGGER.warning("aclnnInit: config %r cannot be read (%s): debug kernels stay off", config_path, exc)
        return False
    except ValueError as exc:
        LOGGER.warning("aclnnInit: config %r is not JSON (%s): debug kernels stay off", config_path, exc)
        return False
    debug = config.get("op_debug_config") if isinstance(config, dict) else None
    value = debug.get("enable_debug_kernel") if isinstance(debug, dict) else None
    if value is None:
        LOGGER.warning("aclnnInit: %r has no op_debug_config.enable_debug_kernel: debug kernels stay off",
                       config_path)
    return value == "on"


def init(config_path: str | os.PathLike[str] | None = None) -> None:
    """``aclnnInit(configPath)``: set the library up and read ``enable_debug_kernel``.

    Succeeds for a missing, unreadable or malformed file (the switch stays off, a warning is
    logged) and for a second call (it reads the file again, a warning is logged), as OPBASE
    does.  161002 only for a ``config_path`` that is not a path at all (not ``str``/``PathLike``).

    >>> import aclsim.aclnn as aclnn
    >>> aclnn.init("/no/such/acl.json"); aclnn.debug_kernel_enabled(), aclnn.is_initialized()
    (False, True)
    >>> aclnn.finalize()
    """
    if config_path is not None and not isinstance(config_path, (str, os.PathLike)):
        raise AclnnParamInvalidError(
            f"configPath must be a path (str) or None, got {type(config_path).__name__}",
            hint='pass the path of a JSON file like {"op_debug_config": {"enable_debug_kernel": "on"}}',
        )
    debug = _debug_switch(os.fspath(config_path) if config_path is not None else "")
    with _lock:
        if _state["initialized"]:
            LOGGER.warning("aclnnInit called again before aclnnFinalize (documented as once per process; "
                           "accepted as OPBASE does, the configuration is read again)")
        _state["initialized"], _state["debug_kernel"] = True, debug


def finalize() -> None:
    """``aclnnFinalize()``: release the library's resources; succeeds initialised or not."""
    with _lock:
        if not _state["initialized"]:
            LOGGER.warning("aclnnFinalize called without aclnnInit (accepted, as OPBASE does)")
        _state["initialized"], _state["debug_kernel"] = False, False


def is_initialized() -> bool:
    """Whether :func:`init` ran and :func:`finalize` has not since."""
    return _state["initialized"]


def debug_kernel_enabled() -> bool:
    """The ``enable_debug_kernel`` switch (aclsim's checks are on either way: see the module doc)."""
    return _state["debug_kernel"]
