"""The C face of aclsim: AscendCL headers and ``libascendcl.so`` over the same runtime as
:mod:`aclsim.acl` (``docs/capi.md``).

>>> from aclsim.capi import cflags
>>> cflags().startswith("-I") and cflags().endswith("include")
True
"""

from __future__ import annotations

from aclsim.capi.build import CapiBuildError, cflags, ensure_built, library_dir, libs

# (``build`` stays a module name: aclsim.capi.build.build builds the library explicitly)
__all__ = ["CapiBuildError", "cflags", "ensure_built", "library_dir", "libs"]
