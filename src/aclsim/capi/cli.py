"""``aclsim capi``: build the C face and print the flags of a program that uses it.

``aclsim capi --cflags --libs`` prints, pkg-config style, the include and link flags of a
C or C++ program that includes ``acl/acl.h`` (building the libraries on first use into this
environment, :func:`aclsim.capi.build.library_dir`); ``aclsim capi build`` builds them
explicitly (again, even if up to date); ``aclsim capi --libdir`` prints where they are.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from aclsim.capi.build import CapiBuildError, build, cflags, ensure_built, libs

__all__ = ["register", "run_capi"]


def register(sub: Any) -> None:
    p = sub.add_parser("capi", help="build libascendcl.so (the C face) and print its compiler flags",
                       description="C and C++ AscendCL programs against aclsim: "
                       "cc prog.c $(aclsim capi --cflags --libs)")
    p.add_argument("action", nargs="?", choices=("build",), help="build the libraries now (again)")
    p.add_argument("--cflags", action="store_true", help="print the include flags")
    p.add_argument("--libs", action="store_true", help="print the link flags (builds on first use)")
    p.add_argument("--libdir", action="store_true", help="print the directory of the libraries")
    p.add_argument("--out", metavar="DIR", help="build into / use DIR instead of this environment's")
    p.add_argument("--verbose", action="store_true", help="show the compiler's commands")
    p.set_defaults(func=run_capi)


def run_capi(args: argparse.Namespace) -> int:
    try:
        if args.action == "build":
            path = build(args.out, verbose=args.verbose)
            print(f"built {path}", file=sys.stderr)
        words = []
        if args.cflags:
            words.append(cflags())
        if args.libs:
            words.append(libs(args.out))
        if args.libdir:
            words.append(str(ensure_built(args.out)))
        if not words and args.action != "build":
            print("aclsim capi: say what to print (--cflags, --libs, --libdir) or `build`", file=sys.stderr)
            return 2
    except CapiBuildError as exc:
        print(f"aclsim capi: {exc}", file=sys.stderr)
        return 1
    if words:
        print(" ".join(words))
    return 0
