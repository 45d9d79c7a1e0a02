"""Build ``libascendcl.so``: cffi's embedding mode, generated from the prototype table.

For each prototype of :func:`aclsim.capi.prototypes.load` the build generates

- an embedded Python entry point ``_aclsim_py_<name>(uintptr_t caller, <params as they
  cross>)`` (:func:`aclsim.capi.prototypes.transport`: pointers as addresses),
  bound at start-up to the implementation of the same name (:mod:`aclsim.capi.embedded`);
- the exported C function ``<name>`` with the header's exact signature, which makes sure
  the interpreter started (:data:`START_CODE`: once per process, the Python of the
  environment the library was built for, or ``ACLSIM_PYTHON``, or the active
  ``VIRTUAL_ENV``), returns the prototype's failure value if it did not, and otherwise
  forwards with its return address, so errors and leak reports name the C caller.

cffi returns 0 from an embedded function whose Python side could not run, and 0 is
``ACL_SUCCESS``: the wrappers never trust that.  The start is checked once through
``_aclsim_py_start``, whose Python side returns a magic number, and every entry point is
registered with the prototype's failure value (``ACL_ERROR_INTERNAL_ERROR`` for an
``aclError``) for a Python exception that escapes.

The libraries land in :func:`library_dir` (per environment, reused): ``libascendcl.so`` and
the other names AscendCL programs link (``libacl_dvpp.so``, ``libnnopbase.so``,
``libopapi.so``) as links to it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

from aclsim.capi.prototypes import HEADERS, INCLUDE_DIR, Prototype, load

__all__ = [
    "ALIASES", "CapiBuildError", "LIBRARY", "START_MAGIC", "build", "cflags", "ensure_built", "libs",
    "library_dir", "libpython_dir", "start_code",
]

LIBRARY = "libascendcl.so"
#: other library names AscendCL and aclnn programs link, served by the same library
ALIASES: tuple[str, ...] = ("libacl_dvpp.so", "libnnopbase.so", "libopapi.so")
#: what ``_aclsim_py_start`` returns once the Python side is up ("ACLS")
START_MAGIC = 0x41434C53
_MODULE = "_aclsim_capi"
_PREFIX = "_aclsim_py_"


class CapiBuildError(RuntimeError):
    """The C face cannot be built here (no compiler, no cffi, no shared libpython)."""


def libpython_dir() -> str:
    """The directory of this Python's shared libpython; :class:`CapiBuildError` without one."""
    if not sysconfig.get_config_var("Py_ENABLE_SHARED"):
        raise CapiBuildError(
            f"this Python ({sys.executable}) has no shared libpython (it was built without "
            "--enable-shared), so a C program cannot load it: use a Python built with --enable-shared "
            "(pyenv: PYTHON_CONFIGURE_OPTS=--enable-shared; most distribution Pythons are)")
    libdir = sysconfig.get_config_var("LIBDIR")
    if not libdir:
        raise CapiBuildError("sysconfig gives no LIBDIR for this Python's libpython")
    return str(libdir)


def _fingerprint() -> str:
    """Changes whenever what the library is built from changes (headers, this generator,
    the Python it starts)."""
    h = hashlib.sha256()
    for header in HEADERS:
        h.update((INCLUDE_DIR / header).read_bytes())
    h.update(Path(__file__).read_bytes())
    h.update((Path(__file__).parent / "prototypes.py").read_bytes())  # the generator's rules
    h.update(sys.executable.encode())
    h.update(sys.version.encode())
    return h.hexdigest()[:16]


def library_dir() -> Path:
    """Where this environment's build lives: ``ACLSIM_CAPI_DIR`` if set, else
    ``<sys.prefix>/lib/aclsim-capi`` when writable, else ``~/.cache/aclsim/capi/<env hash>``."""
    env = os.environ.get("ACLSIM_CAPI_DIR")
    if env:
        return Path(env)
    prefix_dir = Path(sys.prefix) / "lib" / "aclsim-capi"
    if os.access(prefix_dir if prefix_dir.exists() else prefix_dir.parent, os.W_OK):
        return prefix_dir
    env_hash = hashlib.sha256(sys.prefix.encode()).hexdigest()[:12]
    return Path.home() / ".cache" / "aclsim" / "capi" / env_hash


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


START_CODE = r"""
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t aclsim_once = PTHREAD_ONCE_INIT;
static int aclsim_ok = 0;
static char aclsim_python[4096] = ACLSIM_BUILD_PYTHON;
static const char *aclsim_which = "of this process"; /* the Python the library runs in */

/* Start the interpreter of the environment recorded at build time (or ACLSIM_PYTHON, or the
   active VIRTUAL_ENV) unless the process already runs one (a Python program that loaded the
   library with ctypes shares its runtime). */
static int aclsim_init_python(void)
{
    const char *py = getenv("ACLSIM_PYTHON");
    const char *venv = getenv("VIRTUAL_ENV");
    if (py != NULL && py[0] != '\0') {
        snprintf(aclsim_python, sizeof aclsim_python, "%s", py);
    } else if (venv != NULL && venv[0] != '\0') {
        snprintf(aclsim_python, sizeof aclsim_python, "%s/bin/python", venv);
    }
    py = aclsim_python;
    aclsim_which = aclsim_python;
    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    config.install_signal_handlers = 0; /* the C program keeps its signal handlers */
    config.parse_argv = 0;
    PyStatus status = PyConfig_SetBytesString(&config, &config.program_name, py);
    if (!PyStatus_Exception(status)) {
        status = Py_InitializeFromConfig(&config);
    }
    PyConfig_Clear(&config);
    if (PyStatus_Exception(status)) {
        fprintf(stderr, "aclsim: cannot start Python %s for libascendcl.so: %s\n", py,
                status.err_msg ? status.err_msg : "unknown error");
        return 0;
    }
    PyEval_SaveThread();
    return 1;
}

static void aclsim_start(void)
{
    if (!Py_IsInitialized() && !aclsim_init_python()) {
        return;
    }
    aclsim_ok = _aclsim_py_start() == ACLSIM_START_MAGIC;
    if (!aclsim_ok) {
        fprintf(stderr, "aclsim: libascendcl.so could not start aclsim in Python %s (see the "
                "traceback above; is aclsim installed there? set ACLSIM_PYTHON to a Python that has "
                "it): every AscendCL call returns an error\n",
                aclsim_which);
    }
}

static int aclsim_started(void)
{
    pthread_once(&aclsim_once, aclsim_start);
    return aclsim_ok;
}
"""


def start_code(library: str, start: str) -> str:
    """:data:`START_CODE` for another embedded library of aclsim (the C++ kernel front,
    :mod:`aclsim.ascendc`): its messages name ``library`` and it checks the start through the
    embedded function ``start``."""
    return (START_CODE.replace("libascendcl.so", library).replace("_aclsim_py_start", start)
            .replace("every AscendCL call returns an error", "every call of it fails"))


def _failure_literal(proto: Prototype) -> str:
    value = proto.failure
    if proto.ret_canonical.endswith("*"):
        return "NULL"
    return f"({proto.ret}){value}"


def _wrapper(proto: Prototype) -> str:
    """The exported C function of ``proto``."""
    args = ", ".join(["(uintptr_t)__builtin_return_address(0)"]
                     + [f"({p.transport}){p.name}" for p in proto.params])
    call = f"{_PREFIX}{proto.name}({args})"
    signature = proto.c_declaration(proto.name, embedded=False)
    if proto.ret_canonical == "void":
        return f"{signature}\n{{\n    if (!aclsim_started()) return;\n    {call};\n}}\n"
    return (f"{signature}\n{{\n    if (!aclsim_started()) return {_failure_literal(proto)};\n"
            f"    return ({proto.ret}){call};\n}}\n")


def sources(protos: tuple[Prototype, ...], python: str) -> tuple[str, str]:
    """``(cdef, c_source)`` for cffi: the embedded entry points, and the headers, start code and
    wrappers."""
    embedded = [f"int {_PREFIX}start(void);"]
    embedded += [proto.c_declaration(_PREFIX + proto.name, embedded=True, extra="uintptr_t caller") + ";"
                 for proto in protos]
    cdef = "\n".join(embedded)
    includes = "\n".join(f'#include "{h}"' for h in HEADERS)
    forward = "\n".join(embedded)
    wrappers = "\n".join(_wrapper(p) for p in protos)
    source = (f"{includes}\n#define ACLSIM_BUILD_PYTHON {_c_string(python)}\n"
              f"#define ACLSIM_START_MAGIC {START_MAGIC}\n{forward}\n{START_CODE}\n{wrappers}")
    return cdef, source


_INIT_CODE = f"""
from {_MODULE} import ffi
import aclsim.capi.embedded
aclsim.capi.embedded.install(ffi)
"""


def build(out_dir: str | os.PathLike[str] | None = None, *, verbose: bool = False) -> Path:
    """Compile the libraries into ``out_dir`` (default :func:`library_dir`); returns the path of
    ``libascendcl.so``.  :class:`CapiBuildError` says what is missing."""
    try:
        import cffi
    except ImportError as exc:
        raise CapiBuildError("building the C face needs cffi: pip install 'aclsim[capi]'") from exc
    libdir = libpython_dir()
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        raise CapiBuildError("no C compiler found (cc or gcc on PATH, or CC)")
    out = Path(out_dir) if out_dir is not None else library_dir()
    out.mkdir(parents=True, exist_ok=True)
    cdef, source = sources(load(), sys.executable)
    ffi = cffi.FFI()
    ffi.embedding_api(cdef)
    ffi.embedding_init_code(_INIT_CODE)
    ffi.set_source(_MODULE, source, include_dirs=[str(INCLUDE_DIR)], library_dirs=[libdir],
                   extra_compile_args=["-O2", "-Wno-unused-function"],
                   extra_link_args=[f"-Wl,-rpath,{libdir}", f"-Wl,-soname,{LIBRARY}"])
    with tempfile.TemporaryDirectory(prefix="aclsim-capi-") as tmp:
        try:
            built = ffi.compile(tmpdir=tmp, target=LIBRARY, verbose=verbose)
        except Exception as exc:  # cffi's VerificationError, distutils' CompileError, ...
            raise CapiBuildError(f"compiling {LIBRARY} failed: {exc}") from exc
        target = out / LIBRARY
        partial = out / f"{LIBRARY}.{os.getpid()}.partial"  # per process: two builds may race
        shutil.copyfile(built, partial)
        os.chmod(partial, 0o755)
        os.replace(partial, target)  # atomic: a program never loads half a library
    for alias in ALIASES:
        link = out / alias
        if link.is_symlink() and os.readlink(link) == LIBRARY:
            continue
        if link.is_symlink() or link.exists():
            link.unlink()
        try:
            link.symlink_to(LIBRARY)
        except FileExistsError:  # another build made it meanwhile
            pass
    (out / "fingerprint").write_text(_fingerprint())
    return out / LIBRARY


def ensure_built(out_dir: str | os.PathLike[str] | None = None) -> Path:
    """The directory of an up-to-date build, building it first when missing or stale."""
    out = Path(out_dir) if out_dir is not None else library_dir()
    stamp = out / "fingerprint"
    if not (out / LIBRARY).exists() or not stamp.exists() or stamp.read_text() != _fingerprint():
        build(out)
    return out


def cflags() -> str:
    """The compiler flags of a program that includes ``acl/acl.h``."""
    return f"-I{INCLUDE_DIR}"


def libs(out_dir: str | os.PathLike[str] | None = None) -> str:
    """The linker flags of a program that uses AscendCL (builds the library if needed)."""
    out = ensure_built(out_dir)
    return f"-L{out} -Wl,-rpath,{out} -lascendcl"
