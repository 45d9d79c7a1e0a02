"""``aclsim ascendc``: build the libraries a C++ Ascend C kernel program links, print its flags.

``aclsim ascendc --cflags --libs`` prints, pkg-config style, what a CPU-debug build of a kernel
and its host program needs: the include flags of ``kernel_operator.h`` / ``tikicpulib.h`` and of
AscendCL's headers, ``-D__CCE_KT_TEST__ -DASCENDC_CPU_DEBUG``, ``-std=c++17`` (``--soc Ascend910B1``
adds the chip define the CMake package gives), and ``-L``/``-rpath``/``-l`` of ``libaclsim_ascendc.so`` and
``libascendcl.so``, building both on first use (:mod:`aclsim.ascendc.build`).
``aclsim ascendc build`` builds them now (again); ``--libdir`` prints where
``libaclsim_ascendc.so`` is; ``--cmake-prefix`` prints a directory laid out like a CANN toolkit
(:mod:`aclsim.ascendc.install_tree`) for the samples' CMake files and ``run.sh -i``.
Same start-up rules and messages as ``aclsim capi`` (docs/capi.md).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from aclsim.ascendc.build import build_all, cflags, ensure_all, libs
from aclsim.ascendc.install_tree import ensure_tree
from aclsim.capi.build import CapiBuildError

__all__ = ["register", "run_ascendc"]


def register(sub: Any) -> None:
    p = sub.add_parser("ascendc", help="build the C++ Ascend C kernel libraries and print their flags",
                       description="C++ Ascend C kernels (CPU-debug programs) on aclsim: "
                       "g++ main.cpp kernel.cpp $(aclsim ascendc --cflags --libs); CMake: "
                       "-DCMAKE_PREFIX_PATH=$(aclsim ascendc --cmake-prefix)/tools/tikicpulib/lib/cmake, "
                       "or the samples' run.sh -r cpu -i $(aclsim ascendc --cmake-prefix)")
    p.add_argument("action", nargs="?", choices=("build",), help="build the libraries now (again)")
    p.add_argument("--cflags", action="store_true", help="print the compiler flags")
    p.add_argument("--soc", metavar="SOC", help="with --cflags: the SoC the build targets (Ascend910B1, ...)")
    p.add_argument("--libs", action="store_true", help="print the link flags (builds on first use)")
    p.add_argument("--libdir", action="store_true", help="print the directory of libaclsim_ascendc.so")
    p.add_argument("--cmake-prefix", action="store_true",
                   help="print the root of a CANN-like toolkit tree with the tikicpulib CMake package")
    p.add_argument("--out", metavar="DIR", help="build into / use DIR instead of this environment's")
    p.add_argument("--verbose", action="store_true", help="show the compiler's commands")
    p.set_defaults(func=run_ascendc)


def run_ascendc(args: argparse.Namespace) -> int:
    if args.soc is not None and not args.cflags:
        print("aclsim ascendc: --soc goes with --cflags", file=sys.stderr)
        return 2
    try:
        if args.action == "build":
            for path in build_all(args.out, verbose=args.verbose):
                print(f"built {path}", file=sys.stderr)
        words = []
        if args.cflags:
            words.append(cflags(args.soc))
        if args.libs:
            words.append(libs(args.out))
        if args.libdir:
            words.append(str(ensure_all(args.out)[0]))
        if args.cmake_prefix:
            words.append(str(ensure_tree(args.out)))
        if not words and args.action != "build":
            print("aclsim ascendc: say what to print (--cflags, --libs, --libdir, --cmake-prefix) or `build`",
                  file=sys.stderr)
            return 2
    except (CapiBuildError, ValueError) as exc:
        print(f"aclsim ascendc: {exc}", file=sys.stderr)
        return 1
    if words:
        print(" ".join(words))
    return 0
