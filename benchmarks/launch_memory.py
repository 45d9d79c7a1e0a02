"""Host memory of one kernel launch against its number of blocks; prints one JSON line.

Each block of a launch runs on a fresh simulated AI Core whose local memories (UB, L1, L0A,
L0B, L0C: about 0.94 MiB on the 910B preset) are NumPy arrays.  A launch must keep its
memory flat in the number of blocks: only the recorded instructions grow with it.

For each block count the launch runs in a fresh Python process (peak RSS only grows), with
``fill_nan=True`` so that every block really touches its local memory, and reports:

- ``peak_rss_growth_mib``: peak resident memory during the launch minus before it;
- ``traced_peak_mib``: tracemalloc's peak over the launch (NumPy reports its arrays to it);
- ``traced_per_block_kib``, ``traced_per_instruction_b``: ``traced_peak`` per block and per
  recorded instruction.  What a launch keeps is its recorded instructions (``launch.streams``,
  which the core model schedules); a block's local memory goes when the block ends.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import subprocess
import sys
import tracemalloc

import numpy as np


def _rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def measure(blocks: int) -> dict[str, float]:
    """One launch of ``blocks`` blocks of a small double-buffered add, in this process."""
    import aclsim
    import aclsim.kernel as asc
    from aclsim.kernel.samples import add_kernel

    aclsim.init(chip="910B")
    aclsim.set_device(0)
    per_block, tile = 256, 128
    n = per_block * blocks
    x = np.arange(n, dtype=np.float32)
    dx, dy, dz = (aclsim.malloc(x.nbytes) for _ in range(3))
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    aclsim.memcpy(dy, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    kern = add_kernel(asc.float32, per_block, tile).with_options(fill_nan=True, detect_races=False)
    kern[1](dx, dy, dz)  # warm up: imports, caches
    aclsim.synchronize_stream()
    before = _rss_mib()
    launch = kern[blocks](dx, dy, dz)
    aclsim.synchronize_stream()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    tracemalloc.start()  # a second launch, traced (tracemalloc's own bookkeeping would count in RSS)
    kern[blocks](dx, dy, dz)
    aclsim.synchronize_stream()
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    z = np.empty_like(x)
    aclsim.memcpy(z, z.nbytes, dz, z.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    assert np.array_equal(z, x + x)
    for d in (dx, dy, dz):
        aclsim.free(d)
    aclsim.reset_device(0)
    aclsim.finalize()
    return {
        "blocks": blocks,
        "instructions": launch.instructions,
        "peak_rss_growth_mib": round(peak - before, 1),
        "traced_peak_mib": round(traced_peak / 2**20, 2),
        "traced_per_block_kib": round(traced_peak / 1024 / blocks, 2),
        "traced_per_instruction_b": round(traced_peak / launch.instructions),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--blocks", type=int, nargs="*", default=[48, 480, 1920])
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(measure(args.one)))
        return
    rows = []
    for b in args.blocks:
        out = subprocess.run([sys.executable, __file__, "--one", str(b)], check=True, capture_output=True,
                             text=True).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
    print(json.dumps({
        "benchmark": "launch_memory",
        "machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
        "chip": "910B",
        "launches": rows,
    }))


if __name__ == "__main__":
    main()
