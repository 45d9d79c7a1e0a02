"""C++ kernels launched from a Python host program, like ``@asc.kernel`` ones.

>>> kernels = CppKernels(["add_custom.cpp"])            # doctest: +SKIP
>>> launch = kernels.add_custom[8, stream](dx, dy, dz)  # doctest: +SKIP

:class:`CppKernels` compiles C++ Ascend C sources (with ``kernel_operator.h``) into a shared
library, loads it into this process, and gives each ``extern "C"`` kernel function as an
:class:`aclsim.kernel.Kernel`: launched with ``[block_dim, stream]`` on device pointers, every
block calls the C++ function on aclsim's block scheduler, and the launch is the same
:class:`~aclsim.kernel.KernelLaunch` a Python kernel gives (instruction streams, report, race
check, diagnostics), each instruction naming its C++ line.  Device pointers reach the C++ code
as the host addresses of the device memory's bytes, so a kernel may also read them directly
(tiling data).  Kernel arguments are pointers and integers (a struct passed by value is not
supported here: ``ICPU_RUN_KF`` in a C++ host program takes those).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aclsim.kernel as asc
from aclsim.ascendc import bridge as _bridge_module
from aclsim.ascendc.build import INCLUDE_DIR, ensure_built, library_dir
from aclsim.capi.build import CapiBuildError
from aclsim.capi.prototypes import INCLUDE_DIR as CAPI_INCLUDE
from aclsim.errors import KernelFault

__all__ = ["CppKernels", "MAX_KERNEL_ARGS"]

MAX_KERNEL_ARGS = 16

_INVOKE = r"""
#include "kernel_operator.h"
typedef uint64_t u;
extern "C" int aclsim_invoke(void *fn, int n, const u *a)
{
    try {
        switch (n) {
""" + "".join(
    f"        case {n}: reinterpret_cast<void (*)({', '.join(['u'] * n)})>(fn)"
    f"({', '.join(f'a[{i}]' for i in range(n))}); break;\n" for n in range(17)) + r"""
        default: return aclsim_asc_fail("aclsim: a kernel takes at most 16 arguments", "aclsim", 0);
        }
        return 0;
    } catch (const ::aclsim::detail::Abort &) {
        return 1;
    } catch (...) {
        return aclsim_asc_fail("the kernel threw a C++ exception", "aclsim", 0);
    }
}
"""


class CppKernels:
    """The ``extern "C"`` kernels of C++ sources, as launchable :class:`~aclsim.kernel.Kernel` objects.

    Parameters
    ----------
    sources
        The C++ files (they include ``kernel_operator.h``).
    flags
        More compiler flags (``-DTILE=64``, ``-I...``).
    options
        :class:`~aclsim.kernel.KernelOptions` changes for every kernel (``detect_races=False``).
    """

    def __init__(self, sources: Sequence[str | os.PathLike[str]], *, flags: Sequence[str] = (),
                 **options: Any) -> None:
        self.sources = [Path(s).resolve() for s in sources]
        self.options = options
        self.path = _compile(self.sources, list(flags))
        # PyDLL: calls keep the GIL, so the kernel's bridged calls find it held (see bridge.py)
        self._lib = ctypes.PyDLL(str(self.path))
        self._invoke = self._lib.aclsim_invoke
        self._invoke.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_uint64)]
        self._invoke.restype = ctypes.c_int
        self._lib.aclsim_tiling_key()  # starts the bridge in this interpreter
        self._kernels: dict[str, asc.Kernel] = {}

    def __getattr__(self, name: str) -> asc.Kernel:
        if name.startswith("_"):
            raise AttributeError(name)
        return self.kernel(name)

    def kernel(self, name: str) -> asc.Kernel:
        """The kernel function ``name`` (an ``extern "C"`` symbol of the sources)."""
        if name not in self._kernels:
            try:
                fn = getattr(self._lib, name)
            except AttributeError:
                where = ", ".join(map(str, self.sources))
                raise AttributeError(f'{name} is not an extern "C" function of {where}') from None
            address = ctypes.cast(fn, ctypes.c_void_p).value or 0
            self._kernels[name] = asc.kernel(self._block_body(name, address), **self.options)
        return self._kernels[name]

    def _block_body(self, name: str, address: int) -> Any:
        invoke = self._invoke
        source = str(self.sources[0])

        def block(*args: Any) -> None:
            b = _bridge_module.bridge()
            if len(args) > MAX_KERNEL_ARGS:
                raise TypeError(f"a C++ kernel takes at most {MAX_KERNEL_ARGS} arguments, got {len(args)}")
            words = (ctypes.c_uint64 * max(len(args), 1))(*[_word(b, a) for a in args])
            rc = invoke(address, len(args), words)
            asc.source_location(None)
            if rc != 0:
                exc = b.take_error()
                raise exc if exc is not None else KernelFault(f"the C++ kernel {name} failed",
                                                              file=source)

        code = block.__code__.replace(co_filename=source, co_name=name)
        return types.FunctionType(code, block.__globals__, name, None, block.__closure__)


def _word(b: Any, arg: Any) -> int:
    """A kernel argument as the 64-bit word the C++ function receives."""
    if arg is None:
        return 0
    if isinstance(arg, asc.GmAddr):
        return b.to_host(int(arg))
    if isinstance(arg, bool):
        return int(arg)
    if isinstance(arg, int):
        return arg & 0xFFFFFFFFFFFFFFFF
    raise TypeError(f"a C++ kernel argument must be a device pointer or an int, got {type(arg).__name__}")


def _compile(sources: list[Path], flags: list[str]) -> Path:
    """Compile ``sources`` with the launcher into a shared library (cached by content)."""
    ascendc = ensure_built()
    compiler = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        raise CapiBuildError("no C++ compiler found (c++ or g++ on PATH, or CXX)")
    h = hashlib.sha256()
    for s in sources:
        h.update(str(s).encode())
        h.update(s.read_bytes())
    for header in sorted(INCLUDE_DIR.glob("*.h")):
        h.update(header.read_bytes())
    h.update(" ".join(flags).encode())
    h.update(_INVOKE.encode())
    out_dir = library_dir() / "kernels"
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"k_{h.hexdigest()[:16]}.so"
    if target.exists():
        return target
    launcher = out_dir / f"invoke_{h.hexdigest()[:16]}.cpp"
    launcher.write_text(_INVOKE)
    cmd = [compiler, "-shared", "-fPIC", "-g", "-O1", "-std=c++17", "-D__CCE_KT_TEST__", f"-I{INCLUDE_DIR}",
           f"-I{CAPI_INCLUDE}", *flags, *map(str, sources), str(launcher), f"-L{ascendc}",
           f"-Wl,-rpath,{ascendc}", "-laclsim_ascendc", "-o", f"{target}.{os.getpid()}.partial"]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise CapiBuildError(f"compiling {', '.join(map(str, sources))} failed:\n{done.stderr[-4000:]}")
    os.replace(f"{target}.{os.getpid()}.partial", target)
    return target
