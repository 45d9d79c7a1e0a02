"""The one store of recent error messages that both boundaries fill: the pyACL face
(:mod:`aclsim.acl`, whose calls turn exceptions into return codes) and the aclnn compat face
(:mod:`aclsim.aclnn.compat`).  As ``aclGetRecentErrMsg`` on the device reports the failures of
the runtime and of the operator library alike, ``acl.get_recent_err_msg()`` and
``compat.aclGetRecentErrMsg()`` read this one store: per thread, latest first, cleared when read.

>>> record_error("aclnnAddGetWorkspaceSize: [ACLNN_ERR_PARAM_NULLPTR 161001] Add: self is None")
>>> take_recent_errors()
'aclnnAddGetWorkspaceSize: [ACLNN_ERR_PARAM_NULLPTR 161001] Add: self is None'
>>> take_recent_errors() is None
True
"""

from __future__ import annotations

import threading
from collections.abc import Callable

__all__ = ["MAX_MESSAGES", "record_error", "set_message_decorator", "take_recent_errors"]

#: messages kept per thread until they are read (the oldest are dropped beyond it)
MAX_MESSAGES = 64
_tls = threading.local()
_decorator: Callable[[str], str] | None = None


def _messages() -> list[str]:
    messages: list[str] | None = getattr(_tls, "messages", None)
    if messages is None:
        messages = _tls.messages = []
    return messages


def record_error(message: str) -> None:
    """Keep ``message`` (one failed call: ``"<api>: <error>"``) for this thread."""
    if _decorator is not None:
        message = _decorator(message)
    messages = _messages()
    messages.append(message)
    del messages[:-MAX_MESSAGES]


def set_message_decorator(decorator: Callable[[str], str] | None) -> None:
    """Install a function applied to every message as it is recorded (the C face names the
    C function and its caller this way, :mod:`aclsim.capi`); ``None`` removes it."""
    global _decorator
    _decorator = decorator


def take_recent_errors() -> str | None:
    """Return and clear this thread's messages, latest first, one a line (``None`` if none)."""
    messages = _messages()
    if not messages:
        return None
    text = "\n".join(reversed(messages))
    messages.clear()
    return text
