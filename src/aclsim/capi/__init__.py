"""The C face of aclsim: AscendCL headers and ``libascendcl.so`` over the same runtime as
:mod:`aclsim.acl` (``docs/capi.md``).

>>> from aclsim.capi import cflags
>>> cflags().startswith("-I") and cflags().endswith("include")
True
"""

from __future__ import annotations

from aclsim.capi.build import CapiBuildError, build, cflags, ensure_built, library_dir, libs

__all__ = ["CapiBuildError", "build", "cflags", "ensure_built", "library_dir", "libs"]
