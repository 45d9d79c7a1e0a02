"""The bridged call's C path (``aclsim_asc_call``, aclsim/ascendc/fastcall.py): values of each kind
cross both ways, call sites keep their lines however many a kernel has, a row's Python error
names the C++ line, rows are called without the table's lambda, and (slow) a bridged call costs
well under a microsecond more than the same call from a Python kernel."""

from __future__ import annotations

import ctypes
import time
from pathlib import Path

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.errors import TaskError

KERNELS = Path(__file__).parent / "kernels" / "speed_bridge.cpp"


def _line(marker: str) -> int:
    return next(i for i, text in enumerate(KERNELS.read_text().splitlines(), 1) if marker in text)


def _to_device(host: np.ndarray) -> object:
    dev = aclsim.malloc(host.nbytes)
    aclsim.memcpy(dev, host.nbytes, host, host.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    return dev


def _to_host(dev: object, like: np.ndarray) -> np.ndarray:
    out = np.zeros_like(like)
    aclsim.memcpy(out, out.nbytes, dev, out.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    return out


def test_scalar_values_of_each_type_cross_both_ways(cpp_kernels, rt) -> None:
    k = cpp_kernels([KERNELS])
    u = np.array([2**64 - 16, 0, 0, 0], dtype=np.uint64)
    i = np.zeros(32, dtype=np.int8)
    i[0] = -100
    h = np.zeros(16, dtype=np.float16)
    h[0] = np.float16(-1.5)
    du, di, dh = _to_device(u), _to_device(i), _to_device(h)
    launch = k.scalar_kinds[3, None](du, di, dh)
    aclsim.synchronize_stream(None)
    u, i, h = _to_host(du, u), _to_host(di, i), _to_host(dh, h)
    assert int(u[1]) == 2**64 - 15  # GetValue's uint64 above 2**63 came back as its bits, and went out again
    assert int(u[2]) == 2**63 + 3
    assert int(i[1]) == -101
    assert h[1] == np.float16(-3.0)
    ops = [ins.op for ins in launch.streams[0]]
    assert ops.count("get_value") == 3 and ops.count("set_value") == 4


def test_many_call_sites_keep_their_lines(cpp_kernels, rt, tmp_path: Path) -> None:
    # more sites than the C side's first table holds: it grows, every instruction keeps its line
    sites = 300
    body = "\n".join(f"    Duplicate(t, {j}.0f, 8);" for j in range(sites))
    source = tmp_path / "many_sites.cpp"
    source.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                      'extern "C" __global__ __aicore__ void many_sites()\n{\n    TPipe pipe;\n'
                      "    TBuf<TPosition::VECCALC> buf;\n    pipe.InitBuffer(buf, 32);\n"
                      f"    LocalTensor<float> t = buf.Get<float>();\n{body}\n}}\n")
    first = 9  # the line of the first Duplicate
    launch = cpp_kernels([source]).many_sites[1, None]()
    aclsim.synchronize_stream(None)
    dups = [ins for ins in launch.streams[0] if ins.op == "duplicate"]
    assert len(dups) == sites
    assert [ins.line for ins in dups] == list(range(first, first + sites))
    assert all(ins.file == str(source) for ins in dups)
    assert launch.streams[0][-1] is dups[-1]


def test_a_rows_python_error_names_the_cpp_line(cpp_kernels, rt) -> None:
    k = cpp_kernels([KERNELS])
    stream = aclsim.create_stream()
    k.unset_tensor[1, stream](aclsim.malloc(64))
    with pytest.raises(TaskError) as info:
        aclsim.synchronize_stream(stream)
    err = info.value.cause
    assert isinstance(err, asc.KernelPythonError) and isinstance(err.error, AttributeError)
    assert err.op == "LocalTensor.GetValue" and err.file == str(KERNELS) and err.line == _line("UNSET-LINE")
    assert err.block == 0


def test_rows_are_called_without_the_tables_lambda(cpp_kernels) -> None:
    cpp_kernels([KERNELS])  # the library is loaded: its bridge is installed
    from aclsim.ascendc.bridge import bridge
    from aclsim.ascendc.fastcall import ENCODERS

    b = bridge()
    by_name = {}
    for row, call in zip(b.rows, b.calls, strict=True):
        by_name.setdefault(row.name, call)
    assert by_name["GetBlockIdx"] == (asc.get_block_idx, ENCODERS["integer"])
    assert by_name["LocalTensor.GetValue"] == ("get_value", ENCODERS["value"])  # a method: called by its name
    assert by_name["TQue.AllocTensor"][1] == ENCODERS["handle"]


@pytest.mark.slow
def test_a_bridged_call_costs_under_a_microsecond_more(cpp_kernels) -> None:
    """GetBlockIdx() from C++ against get_block_idx() from a Python kernel, in this process (the
    cffi callback this replaced cost about 2.7 us more)."""
    k = cpp_kernels([KERNELS])
    calls = ctypes.c_int.in_dll(k._lib, "g_probe_calls")
    took = ctypes.c_double.in_dll(k._lib, "g_probe_us")
    calls.value = 20000
    times: list[float] = []

    @asc.kernel
    def probe() -> None:
        s = time.perf_counter()
        for _ in range(20000):
            asc.get_block_idx()
        times.append((time.perf_counter() - s) / 20000 * 1e6)

    aclsim.init(chip="910B")
    aclsim.set_device(0)
    try:
        cxx = []
        for _ in range(5):
            k.probe_block_idx[1, None]()
            probe[1, None]()
            aclsim.synchronize_stream(None)
            cxx.append(took.value)
    finally:
        aclsim.reset_device(0)
        aclsim.finalize()
    assert min(cxx) - min(times) < 1.0, (cxx, times)
