"""Build ``libaclsim_ascendc.so``, the library C++ Ascend C kernels link (cffi's embedding mode).

The library exports the bridge the headers call (``aclsim_asc_call``, ``aclsim_asc_fail``) and
the CPU-debug host calls of ``tikicpulib.h`` (``aclsim_gm_alloc``, ``aclsim_run_kernel``, ...);
each starts Python once per process with the C face's start-up rules
(:func:`aclsim.capi.build.start_code`: the Python of the environment the library was built for,
or ``ACLSIM_PYTHON``, or the active ``VIRTUAL_ENV``) and forwards to
:mod:`aclsim.ascendc.bridge`.  Built on first use into :func:`library_dir`, rebuilt when the
table, the headers or this generator change.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

from aclsim.ascendc import fastcall
from aclsim.ascendc.gen_cxx import HEADER_PATH
from aclsim.ascendc.table import TABLE_PATH, cdef
from aclsim.capi import build as capi_build
from aclsim.capi.build import START_MAGIC, CapiBuildError, libpython_dir, start_code
from aclsim.capi.prototypes import INCLUDE_DIR as CAPI_INCLUDE

__all__ = ["CMAKE_DIR", "INCLUDE_DIR", "LIBRARY", "build", "build_all", "cflags", "ensure_all",
           "ensure_built", "libs", "library_dir"]

LIBRARY = "libaclsim_ascendc.so"
INCLUDE_DIR = Path(__file__).parent / "include"
CMAKE_DIR = Path(__file__).parent / "cmake"
_MODULE = "_aclsim_ascendc"
#: the build's stamp (its own name: ``--out DIR`` puts the C face's library, stamped
#: ``fingerprint``, in the same directory)
_STAMP = "fingerprint-ascendc"
#: kernel_operator.h's aclsim::detail::Arg; the union is anonymous here (the same layout), so the
#: Python side reads ``arg.i`` with one attribute look-up
_ARG = ("typedef struct { int32_t kind; int32_t sub; union { int64_t i; double f; const void *p; }; } "
        "aclsim_arg;")

#: the embedded (Python) functions: (return type, name, parameters)
_EMBEDDED = [
    ("int", "fail", "const char *what, const char *file, int line"),
    ("uintptr_t", "gm_alloc", "uint64_t size, const char *soc"),
    ("int", "gm_free", "uintptr_t host"),
    ("int", "set_tiling_key", "uint64_t key"),
    ("uint64_t", "tiling_key", "void"),
    ("int", "set_kernel_mode", "int mode"),
    ("int", "run", "const char *name, const char *file, int line, uint32_t block_dim, const char *soc, "
                   "int (*body)(void *), void *ctx, int n, void *const *ptrs, const char *table"),
]

#: the exported functions: (signature, failure statement, forwarded call)
_EXPORTED = [
    ("int aclsim_asc_call(int id, const char *file, int line, int n, const aclsim_arg *args, "
     "aclsim_arg *ret)",
     "return 1;", "return aclsim_asc_fast_call(id, file, line, n, args, ret);"),
    ("int aclsim_asc_fail(const char *what, const char *file, int line)", "return 1;",
     "return _aclsim_py_asc_fail(what, file, line);"),
    ("void *aclsim_gm_alloc(uint64_t size, const char *soc)", "return NULL;",
     "return (void *)_aclsim_py_asc_gm_alloc(size, soc);"),
    ("int aclsim_gm_free(void *p)", "return 0;", "return _aclsim_py_asc_gm_free((uintptr_t)p);"),
    ("void aclsim_set_tiling_key(uint64_t key)", "return;", "_aclsim_py_asc_set_tiling_key(key);"),
    ("uint64_t aclsim_tiling_key(void)", "return 0;", "return _aclsim_py_asc_tiling_key();"),
    ("void aclsim_set_kernel_mode(int mode)", "return;", "_aclsim_py_asc_set_kernel_mode(mode);"),
    ("int aclsim_run_kernel(const char *name, const char *file, int line, uint32_t block_dim, "
     "const char *soc, int (*body)(void *), void *ctx, int n, void *const *ptrs, const char *table)",
     "return 500000;",
     "return _aclsim_py_asc_run(name, file, line, block_dim, soc, body, ctx, n, ptrs, table);"),
]


def library_dir() -> Path:
    """Where this environment's build lives: ``ACLSIM_ASCENDC_DIR`` if set, else next to the C
    face's (``<sys.prefix>/lib/aclsim-ascendc`` when writable, else
    ``~/.cache/aclsim/ascendc/<hash>``)."""
    env = os.environ.get("ACLSIM_ASCENDC_DIR")
    if env:
        return Path(env)
    prefix_dir = Path(sys.prefix) / "lib" / "aclsim-ascendc"
    if os.access(prefix_dir if prefix_dir.exists() else prefix_dir.parent, os.W_OK):
        return prefix_dir
    env_hash = hashlib.sha256(sys.prefix.encode()).hexdigest()[:12]
    return Path.home() / ".cache" / "aclsim" / "ascendc" / env_hash


def _fingerprint() -> str:
    h = hashlib.sha256()
    for path in (TABLE_PATH, HEADER_PATH, Path(__file__), Path(fastcall.__file__)):
        h.update(path.read_bytes())
    h.update(sys.executable.encode())
    h.update(sys.version.encode())
    return h.hexdigest()[:16]


def sources(python: str) -> tuple[str, str]:
    """``(cdef, c_source)`` for cffi."""
    embedded = "\n".join(f"{ret} _aclsim_py_asc_{name}({params});" for ret, name, params in _EMBEDDED)
    declared = f"{_ARG}\n{cdef()}\nint _aclsim_py_asc_start(void);\n{embedded}"
    wrappers = "\n".join(f"{sig}\n{{\n    if (!aclsim_started()) {{ {fail} }}\n    {call}\n}}\n"
                         for sig, fail, call in _EXPORTED)
    python_literal = '"' + python.replace("\\", "\\\\").replace('"', '\\"') + '"'
    source = (f"#include <stdint.h>\n#include <stddef.h>\n{declared}\n"
              f"#define ACLSIM_BUILD_PYTHON {python_literal}\n#define ACLSIM_START_MAGIC {START_MAGIC}\n"
              f"{start_code(LIBRARY, '_aclsim_py_asc_start')}\n{fastcall.C_SOURCE}\n{wrappers}")
    return declared, source


_INIT_CODE = f"""
from {_MODULE} import ffi
import aclsim.ascendc.bridge
aclsim.ascendc.bridge.install(ffi)
import aclsim.ascendc.adapters.mmcb
aclsim.ascendc.adapters.mmcb.bind(aclsim.ascendc.bridge.bridge())  # C++ Matmul callbacks call back into C++

@ffi.def_extern(name="_aclsim_py_asc_start")
def _start():
    return {START_MAGIC}
"""


def build(out_dir: str | os.PathLike[str] | None = None, *, verbose: bool = False) -> Path:
    """Compile the library into ``out_dir`` (default :func:`library_dir`); returns its path.
    :class:`~aclsim.capi.build.CapiBuildError` says what is missing."""
    try:
        import cffi
    except ImportError as exc:
        raise CapiBuildError("building the C++ kernel front needs cffi: pip install 'aclsim[capi]'") from exc
    libdir = libpython_dir()
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        raise CapiBuildError("no C compiler found (cc or gcc on PATH, or CC)")
    out = Path(out_dir) if out_dir is not None else library_dir()
    out.mkdir(parents=True, exist_ok=True)
    declared, source = sources(sys.executable)
    ffi = cffi.FFI()
    ffi.embedding_api(declared)
    ffi.embedding_init_code(_INIT_CODE)
    ffi.set_source(_MODULE, source, library_dirs=[libdir], extra_compile_args=["-O2", "-Wno-unused-function"],
                   extra_link_args=[f"-Wl,-rpath,{libdir}", f"-Wl,-soname,{LIBRARY}"])
    with tempfile.TemporaryDirectory(prefix="aclsim-ascendc-") as tmp:
        try:
            built = ffi.compile(tmpdir=tmp, target=LIBRARY, verbose=verbose)
        except Exception as exc:  # cffi's VerificationError, distutils' CompileError, ...
            raise CapiBuildError(f"compiling {LIBRARY} failed: {exc}") from exc
        partial = out / f"{LIBRARY}.{os.getpid()}.partial"
        shutil.copyfile(built, partial)
        os.chmod(partial, 0o755)
        os.replace(partial, out / LIBRARY)
    (out / _STAMP).write_text(_fingerprint())
    return out / LIBRARY


def ensure_built(out_dir: str | os.PathLike[str] | None = None) -> Path:
    """The directory of an up-to-date build, building it first when missing or stale."""
    out = Path(out_dir) if out_dir is not None else library_dir()
    stamp = out / _STAMP
    if not (out / LIBRARY).exists() or not stamp.exists() or stamp.read_text() != _fingerprint():
        build(out)
    return out


def _dirs(out_dir: str | os.PathLike[str] | None) -> tuple[Path, Path]:
    """Where this library and the C face's live: both in ``out_dir`` when given, else each in
    its environment's directory (:func:`library_dir`, :func:`aclsim.capi.build.library_dir`)."""
    if out_dir is not None:
        return Path(out_dir), Path(out_dir)
    return library_dir(), capi_build.library_dir()


def build_all(out_dir: str | os.PathLike[str] | None = None, *, verbose: bool = False) -> tuple[Path, Path]:
    """Build ``libaclsim_ascendc.so`` and the C face's ``libascendcl.so`` now (again); their paths."""
    here, capi = _dirs(out_dir)
    return build(here, verbose=verbose), capi_build.build(capi, verbose=verbose)


def ensure_all(out_dir: str | os.PathLike[str] | None = None) -> tuple[Path, Path]:
    """The directories of up-to-date builds of both libraries a C++ kernel program links
    (``libaclsim_ascendc.so``, then ``libascendcl.so``), building what is missing or stale."""
    here, capi = _dirs(out_dir)
    return ensure_built(here), capi_build.ensure_built(capi)


def cflags(soc: str | None = None) -> str:
    """What a CPU-debug build of a kernel and its host program compiles with (AscendCL's headers
    too: the samples' data helpers include ``acl/acl.h``; both CPU-mode defines, ``__CCE_KT_TEST__``
    and the newer samples' ``ASCENDC_CPU_DEBUG``, as ``tikicpulib::<soc>`` gives them); ``soc``
    (``Ascend910B1``, ...) adds the ``ACLSIM_SOC`` define the CMake package's ``tikicpulib::<soc>``
    gives: the chip preset aclsim runs the kernel on (``ACLSIM_CHIP`` overrides it at run time)."""
    flags = f"-I{INCLUDE_DIR} -I{CAPI_INCLUDE} -D__CCE_KT_TEST__ -DASCENDC_CPU_DEBUG -std=c++17"
    if soc:
        if not re.fullmatch(r"[A-Za-z0-9_]+", soc):
            raise ValueError(f"--soc {soc!r}: a SoC name is letters and digits "
                             "(Ascend910B1, Ascend310P3, ...)")
        flags += f' -DACLSIM_SOC="{soc}"'  # $(...) keeps the quotes: the macro is a string literal
    return flags


def libs(out_dir: str | os.PathLike[str] | None = None) -> str:
    """What it links with: ``libaclsim_ascendc.so`` (the kernel's Ascend C calls, ``ICPU_RUN_KF``)
    and ``libascendcl.so`` (the host's AscendCL calls), building either if needed."""
    here, capi = ensure_all(out_dir)
    words = []
    for d in dict.fromkeys((here, capi)):  # one -L/-rpath per directory
        words += [f"-L{d}", f"-Wl,-rpath,{d}"]
    return " ".join([*words, "-laclsim_ascendc", "-lascendcl"])
