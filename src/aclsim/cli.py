"""The ``aclsim`` command."""

from __future__ import annotations

import argparse
import importlib
import sys

from aclsim.arch import DEFAULT_CHIP, list_chips


def _cmd_demo(args: argparse.Namespace) -> int:
    from aclsim.demo import main_demo

    return main_demo(args.chip, args.elements)


def _cmd_chips(args: argparse.Namespace) -> int:
    for chip in list_chips():
        print(f"{chip.name:6s} arch {chip.arch_version}  {chip.cube_cores} cube + "
              f"{chip.vector_cores} vector cores  UB {chip.ub_bytes // 1024} KiB  "
              f"L1 {chip.l1_bytes // 1024} KiB  "
              f"{chip.dram_kind} {chip.dram_bytes / 2**30:g} GiB @ {chip.dram_bandwidth / 1e9:g} GB/s  "
              f"clock {chip.clock_hz / 1e9:g} GHz")
        if args.sources:
            for key, src in chip.sources.items():
                print(f"         {key}: {src}")
    return 0


# Packages that add subcommands: each module has ``register(subparsers)`` (one line each).
COMMAND_MODULES: tuple[str, ...] = (
    "aclsim.sim.cli",
    "aclsim.compiler.cli",
    "aclsim.testing.cli",
    "aclsim.capi.cli",
    "aclsim.ascendc.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="aclsim",
                                     description="Ascend-style operator stack on a simulated NPU")
    parser.add_argument("--version", action="version", version=f"aclsim {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="walk the AscendCL host flow on the simulated NPU, verify, time it")
    demo.add_argument("--chip", default=DEFAULT_CHIP, help="chip preset (see `aclsim chips`)")
    demo.add_argument("--elements", type=int, default=1 << 20, help="float32 elements per input")
    demo.set_defaults(func=_cmd_demo)
    chips = sub.add_parser("chips", help="list the chip presets")
    chips.add_argument("--sources", action="store_true", help="print the public source of each figure")
    chips.set_defaults(func=_cmd_chips)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def _version() -> str:
    from aclsim import __version__

    return __version__


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "elements", 1) is not None and getattr(args, "elements", 1) <= 0:
        print("aclsim: --elements must be > 0", file=sys.stderr)
        return 2
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
