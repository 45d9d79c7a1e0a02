"""A directory laid out like a CANN toolkit, for the CPU-debug mode: ``aclsim ascendc --cmake-prefix``.

The Ascend samples' kernel-invocation programs find what they build with through the toolkit's
layout (their ``run.sh -i <toolkit>``, ``ASCEND_INSTALL_PATH`` / ``ASCEND_CANN_PACKAGE_PATH``):
``bin/setenv.bash``, the ``tikicpulib`` CMake package under ``tools/tikicpulib/lib/cmake``, the
headers under ``include``, ``runtime/include`` and ``acllib/include``, the libraries in ``lib64``.
:func:`ensure_tree` makes that directory (by default ``<library dir>/cann``) out of aclsim's
headers (links to them), its two libraries (links to the builds) and the files of ``cmake/``:

- ``tools/tikicpulib/lib/cmake/tikicpulibConfig.cmake``: the ``tikicpulib::<soc>`` targets;
- ``bin/setenv.bash``: prepends the tree's directories to ``PATH``, ``LD_LIBRARY_PATH`` (and
  ``CMAKE_PREFIX_PATH`` where it is set), nothing else;
- ``compiler/ccec_compiler/bin/ccec``: the host C++ compiler in CPU-debug mode, for the samples
  whose top-level CMake enables the CCE language (it refuses an NPU build, saying so);
- ``lib64``: ``libaclsim_ascendc.so``, ``libascendcl.so`` (and the C face's other names), and
  :data:`LINK_ONLY` as aliases of ``libascendcl.so``: the Neo samples' CMake links those names
  whatever the run mode, and the linker needs a file for each ``-l``; they add no symbols (a
  program that calls into them, e.g. ``memcpy_s`` of ``c_sec``, fails to link, naming it);
  ``libtiling_api.so`` as an alias of ``libaclsim_ascendc.so``, where the host tiling
  (``tiling_api.h``) is: a stand-alone tiling program links only that name.

The tree is regenerated on every call (links, small files; each replaced atomically), so it
follows rebuilt libraries and new headers.
"""

from __future__ import annotations

import os
from pathlib import Path

from aclsim.ascendc.build import CMAKE_DIR, INCLUDE_DIR, LIBRARY, ensure_all, library_dir
from aclsim.capi import build as capi_build
from aclsim.capi.prototypes import INCLUDE_DIR as CAPI_INCLUDE

__all__ = ["CMAKE_PACKAGE", "LINK_ONLY", "SETENV", "TILING_LIBRARY", "ensure_tree", "tree_dir"]

#: where the CMake package lies, relative to the tree (a sample's default CMAKE_PREFIX_PATH)
CMAKE_PACKAGE = Path("tools") / "tikicpulib" / "lib" / "cmake"
SETENV = Path("bin") / "setenv.bash"
CCEC = Path("compiler") / "ccec_compiler" / "bin" / "ccec"
#: library names the samples link that aclsim has nothing for: aliases of libascendcl.so
LINK_ONLY: tuple[str, ...] = ("libc_sec.so", "libregister.so", "libplatform.so", "libascendalog.so",
                              "libgraph.so")
#: the host tiling's library (a stand-alone tiling program links only it): an alias of the bridge
TILING_LIBRARY = "libtiling_api.so"
#: the header directories the samples add (``-I``); each is a link to ``include``
_INCLUDE_ALIASES = (Path("runtime") / "include", Path("acllib") / "include")


def tree_dir(out_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where the tree lives: ``<out_dir>/cann``, else ``<library dir>/cann``."""
    return (Path(out_dir) if out_dir is not None else library_dir()) / "cann"


def _link(path: Path, target: str | Path) -> None:
    """``path`` -> ``target``, replaced atomically when it points elsewhere."""
    target = str(target)
    if path.is_symlink() and os.readlink(path) == target:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    tmp.symlink_to(target)
    os.replace(tmp, path)


def _copy(source: Path, path: Path, mode: int) -> None:
    """A copy of ``source`` at ``path`` (mode ``mode``), replaced atomically when it differs."""
    data = source.read_bytes()
    if (path.is_file() and not path.is_symlink() and path.read_bytes() == data
            and (path.stat().st_mode & 0o777) == mode):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.chmod(tmp, mode)
    os.replace(tmp, path)


def _headers(root: Path) -> None:
    include = root / "include"
    wanted: dict[str, Path] = {}
    for base in (INCLUDE_DIR, CAPI_INCLUDE):
        for entry in sorted(base.iterdir()):
            if entry.name.startswith(".") or entry.name == "__pycache__":
                continue
            if entry.name in wanted:
                raise capi_build.CapiBuildError(
                    f"header {entry.name} is in both {wanted[entry.name].parent} and {base}: the tree's "
                    "include/ can hold one")
            wanted[entry.name] = entry
    include.mkdir(parents=True, exist_ok=True)
    for stale in include.iterdir():
        if stale.is_symlink() and stale.name not in wanted:
            stale.unlink()
    for name, entry in wanted.items():
        _link(include / name, entry)
    for alias in _INCLUDE_ALIASES:
        _link(root / alias, os.path.relpath(include, (root / alias).parent))


def _libraries(root: Path, here: Path, capi: Path) -> None:
    lib64 = root / "lib64"
    _link(lib64 / LIBRARY, here / LIBRARY)
    _link(lib64 / capi_build.LIBRARY, capi / capi_build.LIBRARY)
    for alias in (*capi_build.ALIASES, *LINK_ONLY):
        _link(lib64 / alias, capi_build.LIBRARY)
    _link(lib64 / TILING_LIBRARY, LIBRARY)


def ensure_tree(out_dir: str | os.PathLike[str] | None = None) -> Path:
    """The tree's root, up to date (the libraries built first if missing or stale).

    With ``out_dir``, the libraries and the tree go there (``<out_dir>/cann``); else the libraries
    are this environment's builds and the tree is ``<library dir>/cann``.
    :class:`~aclsim.capi.build.CapiBuildError` when the libraries cannot be built here."""
    here, capi = ensure_all(out_dir)
    root = tree_dir(out_dir)
    _headers(root)
    _libraries(root, here, capi)
    _copy(CMAKE_DIR / "tikicpulibConfig.cmake", root / CMAKE_PACKAGE / "tikicpulibConfig.cmake", 0o644)
    _copy(CMAKE_DIR / "setenv.bash", root / SETENV, 0o644)
    _copy(CMAKE_DIR / "ccec", root / CCEC, 0o755)
    return root
