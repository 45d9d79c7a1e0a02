"""Name a C caller from its return address: function, and ``file:line`` where debug info has it.

``dladdr`` gives the object (executable or shared library) and, for exported symbols, the
function; ``addr2line`` (binutils), run once per address and cached, gives the function and
the source line from the object's debug information.  Without either, the object and the
offset are still named (``prog+0x1234``).  Used by the runtime through
:func:`aclsim.runtime.foreign.set_site_resolver`, only when a message or a record needs the
site (allocation sites, leak reports, errors).
"""

from __future__ import annotations

import ctypes
import functools
import os
import shutil
import subprocess

__all__ = ["describe"]

_ELF_SHARED = 3  # e_type ET_DYN: position independent, addresses are offsets from the load base


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


@functools.lru_cache(maxsize=1)
def _dladdr() -> ctypes._CFuncPtr | None:  # type: ignore[name-defined]
    try:
        fn = ctypes.CDLL(None).dladdr
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)]
    fn.restype = ctypes.c_int
    return fn


def _is_position_independent(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(18)
    except OSError:
        return True
    return len(head) == 18 and head[:4] == b"\x7fELF" and int.from_bytes(head[16:18], "little") == _ELF_SHARED


def _addr2line(path: str, offset: int) -> tuple[str | None, str | None]:
    tool = shutil.which("addr2line")
    if tool is None or os.environ.get("ACLSIM_C_LINES", "1") == "0":
        return None, None
    try:
        out = subprocess.run([tool, "-f", "-C", "-e", path, f"0x{offset:x}"], capture_output=True,
                             text=True, timeout=10, check=False).stdout.split("\n")
    except (OSError, subprocess.SubprocessError):
        return None, None
    func = out[0].strip() if out and out[0].strip() not in ("", "??") else None
    if func is not None and "(" in func:  # C++: the name without its parameter list
        func = func[:func.index("(")]
    line = out[1].strip() if len(out) > 1 else ""
    if not line or line.startswith("??") or line.endswith(":0") or line.endswith(":?"):
        return func, None
    where, _, rest = line.partition(" ")  # "file.c:42 (discriminator 1)"
    return func, f"{os.path.basename(where.rsplit(':', 1)[0])}:{where.rsplit(':', 1)[1]}"


@functools.lru_cache(maxsize=4096)
def describe(address: int) -> str:
    """``func (file.c:42)``, ``func (prog+0x1234)`` or ``prog+0x1234`` for a return address."""
    dladdr = _dladdr()
    info = _DlInfo()
    pc = address - 1  # inside the call instruction, so that the line is the call's
    if address <= 0 or dladdr is None or not dladdr(ctypes.c_void_p(pc), ctypes.byref(info)) \
            or not info.dli_fname:
        return f"0x{address:x}"
    path = info.dli_fname.decode(errors="replace")
    if not os.path.exists(path):
        path = "/proc/self/exe"  # the main program can be named as it was started
    base = info.dli_fbase or 0
    offset = pc - base if _is_position_independent(path) else pc
    func, line = _addr2line(path, offset)
    if func is None and info.dli_sname:
        func = info.dli_sname.decode(errors="replace")
    obj = os.path.basename(os.path.realpath(path))
    where = line if line is not None else f"{obj}+0x{pc - base:x}"
    return f"{func} ({where})" if func else where
