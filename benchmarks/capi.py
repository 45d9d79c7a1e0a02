"""The C face against the Python face, side by side: start-up, a cheap call, malloc + free, and a
64 MiB host-to-device copy, measured from a C program linked with libascendcl.so and from
Python through ``aclsim.acl`` in this process.

- start-up: C, the first AscendCL call of a fresh process (it starts the interpreter and
  imports aclsim), timed inside the program; Python, a fresh ``python -c "import aclsim.acl;
  acl.init()"`` minus a bare ``python -c pass``;
- a cheap call: ``aclrtGetDevice`` / ``acl.rt.get_device()``, per call; and
  ``aclrtGetRunMode`` (no runtime lookup), which is close to the crossing alone;
- ``aclrtMalloc`` + ``aclrtFree`` of 1 KiB, per pair;
- a 64 MiB ``aclrtMemcpy`` host to device from ``malloc``'d memory (C) and from a NumPy
  array (Python), best of five.

    python benchmarks/capi.py            # one JSON line, and a table on stderr
    python benchmarks/capi.py --calls 20000
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import aclsim.acl as acl
from aclsim.capi.build import cflags, ensure_built

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "acl/acl.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int calls = argc > 1 ? atoi(argv[1]) : 10000;
    int pairs = argc > 2 ? atoi(argv[2]) : 2000;
    size_t big = (size_t)64 << 20;
    double t0 = now();
    aclrtRunMode mode;
    if (aclrtGetRunMode(&mode) != ACL_SUCCESS) return 1;
    double startup = now() - t0;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
    int32_t dev = -1;
    double t = now();
    for (int i = 0; i < calls; ++i) aclrtGetDevice(&dev);
    double get_device = (now() - t) / calls;
    t = now();
    for (int i = 0; i < calls; ++i) aclrtGetRunMode(&mode);
    double run_mode = (now() - t) / calls;
    void *p;
    t = now();
    for (int i = 0; i < pairs; ++i) {
        aclrtMalloc(&p, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtFree(p);
    }
    double malloc_free = (now() - t) / pairs;
    char *host = malloc(big);
    memset(host, 1, big);
    void *d;
    if (aclrtMalloc(&d, big, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
    double best = 1e9;
    for (int i = 0; i < 5; ++i) {
        t = now();
        aclrtMemcpy(d, big, host, big, ACL_MEMCPY_HOST_TO_DEVICE);
        double dt = now() - t;
        if (dt < best) best = dt;
    }
    aclrtFree(d);
    free(host);
    aclrtResetDevice(0);
    aclFinalize();
    printf("{\"startup_s\": %.4f, \"get_device_us\": %.3f, \"get_run_mode_us\": %.3f, "
           "\"malloc_free_us\": %.3f, \"h2d_64mib_ms\": %.3f}\n",
           startup, get_device * 1e6, run_mode * 1e6, malloc_free * 1e6, best * 1e3);
    return 0;
}
"""


def measure_c(calls: int, pairs: int) -> dict[str, float]:
    libdir = ensure_built()
    with tempfile.TemporaryDirectory(prefix="aclsim-capi-bench-") as tmp:
        src, exe = Path(tmp) / "bench.c", Path(tmp) / "bench"
        src.write_text(PROGRAM)
        subprocess.run(["cc", "-O2", str(src), *cflags().split(), f"-L{libdir}", f"-Wl,-rpath,{libdir}",
                        "-lascendcl", "-o", str(exe)], check=True, timeout=120)
        out = subprocess.run([str(exe), str(calls), str(pairs)], capture_output=True, text=True,
                             check=True, timeout=600).stdout
    return {k: float(v) for k, v in json.loads(out.strip().splitlines()[-1]).items()}


def _wall(code: str) -> float:
    best = 1e9
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
        best = min(best, time.perf_counter() - t)
    return best


def measure_python(calls: int, pairs: int) -> dict[str, float]:
    startup = _wall("import aclsim.acl as acl; acl.init()") - _wall("pass")
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    t = time.perf_counter()
    for _ in range(calls):
        acl.rt.get_device()
    get_device = (time.perf_counter() - t) / calls
    t = time.perf_counter()
    for _ in range(calls):
        acl.rt.get_run_mode()
    run_mode = (time.perf_counter() - t) / calls
    t = time.perf_counter()
    for _ in range(pairs):
        p, _ = acl.rt.malloc(1024, 0)
        acl.rt.free(p)
    malloc_free = (time.perf_counter() - t) / pairs
    big = 64 << 20
    host = np.ones(big, dtype=np.uint8)
    hp = acl.util.numpy_to_ptr(host)
    d, _ = acl.rt.malloc(big, 0)
    best = 1e9
    for _ in range(5):
        t = time.perf_counter()
        acl.rt.memcpy(d, big, hp, big, acl.ACL_MEMCPY_HOST_TO_DEVICE)
        best = min(best, time.perf_counter() - t)
    acl.rt.free(d)
    acl.rt.reset_device(0)
    acl.finalize()
    return {"startup_s": startup, "get_device_us": get_device * 1e6, "get_run_mode_us": run_mode * 1e6,
            "malloc_free_us": malloc_free * 1e6, "h2d_64mib_ms": best * 1e3}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10000, help="cheap calls timed")
    parser.add_argument("--pairs", type=int, default=2000, help="malloc + free pairs timed")
    args = parser.parse_args(argv)
    c = measure_c(args.calls, args.pairs)
    py = measure_python(args.calls, args.pairs)
    for key in c:
        print(f"{key:18s} C {c[key]:10.3f}   Python {py[key]:10.3f}", file=sys.stderr)
    machine = f"{platform.machine()} CPython {platform.python_version()}"
    print(json.dumps({"benchmark": "capi", "machine": machine,
                      "c": {k: round(v, 4) for k, v in c.items()},
                      "python": {k: round(v, 4) for k, v in py.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
