"""C++ Ascend C kernels (``aclsim ascendc``) against the same kernels in Python, side by side.

- per call, inside a running kernel (one block, timed with a monotonic clock in the kernel's
  own language): ``GetBlockIdx()`` / ``asc.get_block_idx()``, a ``LocalTensor<float>::GetValue``
  / ``t.get_value(0)``, and ``Adds`` of 16 floats / ``asc.adds(t, t, 1.0, 16)``: the C++ figure is
  the bridged call (C++ -> the library -> the Python call), the Python figure the call alone;
- the Add kernel of ``examples/10_kernel_add.py`` (float16, 8 blocks, 8 tiles, double buffer) as
  a whole: ``ICPU_RUN_KF`` in a C++ program (a C++ rendering of that example, below) against a
  launch + synchronize of the Python kernel in this process, best of ``--repeat`` each, both
  results checked against NumPy.  Same chip (910B), same race check (on).

    python benchmarks/ascendc.py              # one JSON line, and a table on stderr
    python benchmarks/ascendc.py --calls 5000 --repeat 7
    # before/after: another tree's figures beside these, the runs interleaved, best of 3 rounds
    git archive <commit> | tar -x -C /tmp/base && python benchmarks/ascendc.py --against /tmp/base --rounds 3
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.ascendc.build import cflags, libs

ROOT = Path(__file__).resolve().parents[1]

PROGRAM = r"""
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "tikicpulib.h"

using namespace AscendC;

static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static int g_calls = 2000;
static double g_block_idx, g_get_value, g_adds;

extern "C" __global__ __aicore__ void probe()
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 0.0f, 16);
    PipeBarrier<PIPE_ALL>();  // the vector pipe's write before the scalar reads
    volatile int64_t sink = 0;
    double s = now();
    for (int i = 0; i < g_calls; ++i) sink += GetBlockIdx();
    g_block_idx = (now() - s) / g_calls;
    s = now();
    for (int i = 0; i < g_calls; ++i) sink += static_cast<int64_t>(t.GetValue(0));
    g_get_value = (now() - s) / g_calls;
    PipeBarrier<PIPE_ALL>();  // the scalar reads before the vector pipe's writes
    s = now();
    for (int i = 0; i < g_calls; ++i) Adds(t, t, 1.0f, 16);
    g_adds = (now() - s) / g_calls;
}

// examples/10_kernel_add.py in C++: z = x + y, float16, 8 blocks, 8 tiles, double buffer
constexpr int32_t kTotal = 8 * 2048, kBlocks = 8, kPerBlock = kTotal / kBlocks, kTiles = 8, kBuffers = 2;
constexpr int32_t kTile = kPerBlock / kTiles / kBuffers;

class AddOp {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z)
    {
        const int64_t offset = kPerBlock * GetBlockIdx();
        x_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + offset, kPerBlock);
        y_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + offset, kPerBlock);
        z_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z) + offset, kPerBlock);
        pipe_.InitBuffer(qx_, kBuffers, kTile * sizeof(half));
        pipe_.InitBuffer(qy_, kBuffers, kTile * sizeof(half));
        pipe_.InitBuffer(qz_, kBuffers, kTile * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < kTiles * kBuffers; ++i) {
            LocalTensor<half> a = qx_.AllocTensor<half>();
            LocalTensor<half> b = qy_.AllocTensor<half>();
            DataCopy(a, x_[i * kTile], kTile);
            DataCopy(b, y_[i * kTile], kTile);
            qx_.EnQue(a);
            qy_.EnQue(b);
            LocalTensor<half> xa = qx_.DeQue<half>();
            LocalTensor<half> yb = qy_.DeQue<half>();
            LocalTensor<half> c = qz_.AllocTensor<half>();
            Add(c, xa, yb, kTile);
            qz_.EnQue<half>(c);
            qx_.FreeTensor(xa);
            qy_.FreeTensor(yb);
            LocalTensor<half> zc = qz_.DeQue<half>();
            DataCopy(z_[i * kTile], zc, kTile);
            qz_.FreeTensor(zc);
        }
    }
private:
    TPipe pipe_;
    TQue<TPosition::VECIN, kBuffers> qx_, qy_;
    TQue<TPosition::VECOUT, kBuffers> qz_;
    GlobalTensor<half> x_, y_, z_;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    AddOp op;
    op.Init(x, y, z);
    op.Process();
}

int main(int argc, char** argv)
{
    g_calls = argc > 1 ? std::atoi(argv[1]) : 2000;
    const int repeat = argc > 2 ? std::atoi(argv[2]) : 5;
    const size_t bytes = kTotal * 2;
    auto* x = static_cast<uint16_t*>(GmAlloc(bytes));
    auto* y = static_cast<uint16_t*>(GmAlloc(bytes));
    auto* z = static_cast<uint16_t*>(GmAlloc(bytes));
    FILE* f = std::fopen(argv[3], "rb");
    if (f == nullptr || std::fread(x, 1, bytes, f) != bytes || std::fread(y, 1, bytes, f) != bytes) return 2;
    std::fclose(f);
    SetKernelMode(KernelMode::AIV_MODE);  // as the samples do: a vector kernel (CANN's default is MIX_MODE)
    ICPU_RUN_KF(probe, 1);
    double best = 1e9;
    for (int r = 0; r < repeat; ++r) {
        std::memset(z, 0, bytes);
        const double s = now();
        ICPU_RUN_KF(add_custom, kBlocks, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
                    reinterpret_cast<uint8_t*>(z));
        const double dt = now() - s;
        best = dt < best ? dt : best;
    }
    f = std::fopen(argv[4], "wb");
    if (f == nullptr || std::fwrite(z, 1, bytes, f) != bytes) return 3;
    std::fclose(f);
    std::printf("{\"block_idx_us\": %.3f, \"get_value_us\": %.3f, \"adds16_us\": %.3f, "
                "\"add_kernel_ms\": %.3f}\n",
                g_block_idx * 1e6, g_get_value * 1e6, g_adds * 1e6, best * 1e3);
    GmFree(x);
    GmFree(y);
    GmFree(z);
    return 0;
}
"""


def _inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.uniform(-100, 100, 8 * 2048).astype(np.float16)
    y = rng.uniform(-100, 100, 8 * 2048).astype(np.float16)
    return x, y


def measure_cxx(calls: int, repeat: int) -> dict[str, float]:
    cxx = next((shutil.which(n) for n in ("c++", "g++", "clang++") if shutil.which(n)), None)
    if cxx is None:
        raise SystemExit("benchmarks/ascendc.py: no C++ compiler")
    x, y = _inputs()
    with tempfile.TemporaryDirectory(prefix="aclsim-ascendc-bench-") as tmp:
        src, exe = Path(tmp) / "bench.cpp", Path(tmp) / "bench"
        data, out = Path(tmp) / "xy.bin", Path(tmp) / "z.bin"
        src.write_text(PROGRAM)
        data.write_bytes(x.tobytes() + y.tobytes())
        subprocess.run([cxx, "-O2", str(src), *cflags("Ascend910B").split(), *libs().split(), "-o", str(exe)],
                       check=True, timeout=600)
        env = {**os.environ, "ACLSIM_QUIET": "1", "ACLSIM_CHIP": "910B"}
        proc = subprocess.run([str(exe), str(calls), str(repeat), str(data), str(out)], capture_output=True,
                              text=True, timeout=600, env=env)
        if proc.returncode != 0:
            raise SystemExit(f"benchmarks/ascendc.py: the C++ program failed:\n{proc.stdout}{proc.stderr}")
        z = np.frombuffer(out.read_bytes(), dtype=np.float16)
    if not np.array_equal(z.view(np.uint16), (x + y).view(np.uint16)):
        raise SystemExit("benchmarks/ascendc.py: the C++ Add kernel's z != x + y")
    return {k: float(v) for k, v in json.loads(proc.stdout.strip().splitlines()[-1]).items()}


_TIMES: dict[str, float] = {}


def _probe(calls: int) -> Any:
    @asc.kernel
    def probe() -> None:
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, 64)
        t = buf.get(asc.float32)
        asc.duplicate(t, 0.0, 16)
        asc.pipe_barrier(asc.Pipe.ALL)
        s = time.perf_counter()
        for _ in range(calls):
            asc.get_block_idx()
        _TIMES["block_idx_us"] = (time.perf_counter() - s) / calls * 1e6
        s = time.perf_counter()
        for _ in range(calls):
            t.get_value(0)
        _TIMES["get_value_us"] = (time.perf_counter() - s) / calls * 1e6
        asc.pipe_barrier(asc.Pipe.ALL)
        s = time.perf_counter()
        for _ in range(calls):
            asc.adds(t, t, 1.0, 16)
        _TIMES["adds16_us"] = (time.perf_counter() - s) / calls * 1e6

    return probe


def _example() -> Any:
    spec = importlib.util.spec_from_file_location("aclsim_example_10", ROOT / "examples" / "10_kernel_add.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure_python(calls: int, repeat: int) -> dict[str, float]:
    example = _example()
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    stream = aclsim.create_stream()
    try:
        _probe(calls)[1, stream]()
        aclsim.synchronize_stream(stream)
        x, y = _inputs()
        nbytes = x.nbytes
        dx, dy, dz = aclsim.malloc(nbytes), aclsim.malloc(nbytes), aclsim.malloc(nbytes)
        aclsim.memcpy(dx, nbytes, x, nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
        aclsim.memcpy(dy, nbytes, y, nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
        best = 1e9
        for _ in range(repeat):
            s = time.perf_counter()
            example.add_custom[example.USE_CORE_NUM, stream](dx, dy, dz)
            aclsim.synchronize_stream(stream)
            best = min(best, time.perf_counter() - s)
        z = np.zeros_like(x)
        aclsim.memcpy(z, nbytes, dz, nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        if not np.array_equal(z.view(np.uint16), (x + y).view(np.uint16)):
            raise SystemExit("benchmarks/ascendc.py: the Python Add kernel's z != x + y")
        for d in (dx, dy, dz):
            aclsim.free(d)
    finally:
        aclsim.destroy_stream(stream)
        aclsim.reset_device(0)
        aclsim.finalize()
    return {**_TIMES, "add_kernel_ms": best * 1e3}


def measure_against(tree: Path, calls: int, repeat: int) -> dict[str, dict[str, float]]:
    """The figures of another aclsim tree (``git archive`` of a commit): its own benchmark, its
    library built apart, in a process of this Python."""
    with tempfile.TemporaryDirectory(prefix="aclsim-ascendc-against-") as tmp:
        env = {**os.environ, "PYTHONPATH": str(tree / "src"),
               "ACLSIM_ASCENDC_DIR": str(Path(tmp) / "ascendc"), "ACLSIM_CAPI_DIR": str(Path(tmp) / "capi")}
        cmd = [sys.executable, str(tree / "benchmarks" / "ascendc.py"), "--calls", str(calls),
               "--repeat", str(repeat)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1200, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"benchmarks/ascendc.py --against {tree}: its benchmark failed:\n"
                         f"{proc.stderr[-4000:]}")
    figures = json.loads(proc.stdout.strip().splitlines()[-1])
    return {"cxx": figures["cxx"], "python": figures["python"]}


def _best(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: min(r[k] for r in runs) for k in runs[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls timed per API inside the kernel")
    parser.add_argument("--repeat", type=int, default=5, help="Add kernel runs (best of)")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="another aclsim tree (git archive of a commit): its figures beside these")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each, interleaved (best of)")
    args = parser.parse_args(argv)
    kinds = ("cxx", "python", "against_cxx", "against_python")
    runs: dict[str, list[dict[str, float]]] = {k: [] for k in kinds}
    for _ in range(max(args.rounds, 1)):
        if args.against is not None:
            other = measure_against(args.against, args.calls, args.repeat)
            runs["against_cxx"].append(other["cxx"])
            runs["against_python"].append(other["python"])
        runs["cxx"].append(measure_cxx(args.calls, args.repeat))
        runs["python"].append(measure_python(args.calls, args.repeat))
    cxx, py = _best(runs["cxx"]), _best(runs["python"])
    for key in cxx:
        line = (f"{key:14s} C++ {cxx[key]:9.3f}   Python {py[key]:9.3f}   "
                f"C++ - Python {cxx[key] - py[key]:+8.3f}")
        if args.against is not None:
            before, before_py = _best(runs["against_cxx"])[key], _best(runs["against_python"])[key]
            line += f"   | {args.against}: C++ {before:9.3f}   Python {before_py:9.3f}"
        print(line, file=sys.stderr)
    machine = f"{platform.machine()} {os.cpu_count()} cores CPython {platform.python_version()}"
    out: dict[str, Any] = {"benchmark": "ascendc", "machine": machine, "calls": args.calls,
                           "repeat": args.repeat, "rounds": max(args.rounds, 1),
                           "cxx": {k: round(v, 4) for k, v in cxx.items()},
                           "python": {k: round(v, 4) for k, v in py.items()}}
    if args.against is not None:
        out["against"] = {"tree": str(args.against),
                          "cxx": {k: round(v, 4) for k, v in _best(runs["against_cxx"]).items()},
                          "python": {k: round(v, 4) for k, v in _best(runs["against_python"]).items()}}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
