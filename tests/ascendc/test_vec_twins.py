"""C++ kernels of the vector area and their Python twins: the same results, instruction streams
(every field but the source location) and reports.

- ``examples/cpp/add_hand_flags.cpp`` / ``examples/13_kernel_hand_flags.py``: the CCE intrinsics
  ``set_flag/wait_flag(pipe, pipe, event_t)`` against ``set_flag(HardEvent, id)``;
- ``examples/cpp/tmp_buffer.cpp`` / ``examples/19_port_tmp_buffer.py``: Cast bfloat16 <-> float;
- ``examples/cpp/scale_serial.cpp`` / ``serial_kernel(6, 7)`` of ``examples/20_double_buffering.py``: the
  intrinsics with ``EVENT_ID0``, Muls/Adds with float scalars on half tensors.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import aclsim

ROOT = Path(__file__).resolve().parents[2]
CPP_EXAMPLES = ROOT / "examples" / "cpp"  # as in conftest.py (not `from conftest import`: when
# tests of several folders run together, another folder's conftest may hold that module name)


def _python_twin(name: str) -> object:
    spec = importlib.util.spec_from_file_location(f"vec_twin_{name}", ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _key(ins: object) -> tuple[object, ...]:
    return (ins.pipe, ins.op, ins.reads, ins.writes, ins.src, ins.dst, ins.event_id, ins.logical,  # type: ignore[attr-defined]
            ins.cost)  # type: ignore[attr-defined]


@pytest.fixture
def device() -> Iterator[object]:
    aclsim.init(chip="910B")
    aclsim.set_device(0)
    yield aclsim.create_stream()
    aclsim.reset_device(0)
    aclsim.finalize()


def _twins(kernels: list[object], blocks: int, stream: object, inputs: list[np.ndarray],
           out: np.ndarray) -> tuple[list[np.ndarray], list[object]]:
    """Run each kernel on the same device memory; the output and the launch of each."""
    bufs = [aclsim.malloc(a.nbytes) for a in [*inputs, out]]
    for buf, a in zip(bufs, inputs, strict=False):
        aclsim.memcpy(buf, a.nbytes, a, a.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    results, launches = [], []
    for kernel in kernels:
        aclsim.memset(bufs[-1], out.nbytes, 0, out.nbytes)
        launches.append(kernel[blocks, stream](*bufs))  # type: ignore[index]
        aclsim.synchronize_stream(stream)
        r = np.empty_like(out)
        aclsim.memcpy(r, r.nbytes, bufs[-1], r.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        results.append(r)
    for buf in bufs:
        aclsim.free(buf)
    return results, launches


def _same_launch(cpp: object, py: object, source: str, first_call: str) -> None:
    assert [[_key(i) for i in s] for s in cpp.streams] == [[_key(i) for i in s] for s in py.streams]  # type: ignore[attr-defined]
    assert cpp.report.total_cycles == py.report.total_cycles  # type: ignore[attr-defined]
    assert cpp.report.pipe_busy() == py.report.pipe_busy()  # type: ignore[attr-defined]
    assert cpp.report.utilization() == py.report.utilization()  # type: ignore[attr-defined]
    assert cpp.diagnostics == py.diagnostics == []  # type: ignore[attr-defined]
    text = (CPP_EXAMPLES / source).read_text().splitlines()
    for ins in cpp.streams[0]:  # type: ignore[attr-defined]
        assert ins.file.endswith(source) and ins.line > 0
    assert first_call in text[cpp.streams[0][0].line - 1]  # type: ignore[attr-defined]


def test_hand_flags_cpp_intrinsics_and_python_twin_agree(cpp_kernels, device) -> None:  # type: ignore[no-untyped-def]
    kernels = cpp_kernels([CPP_EXAMPLES / "add_hand_flags.cpp"])
    twin = _python_twin("13_kernel_hand_flags")
    n = twin.N  # type: ignore[attr-defined]
    rng = np.random.default_rng(2)
    x = rng.standard_normal(n).astype(np.float16)
    y = rng.standard_normal(n).astype(np.float16)
    (zc, zp), (cpp, py) = _twins([kernels.add_hand_flags, twin.add_hand_flags],  # type: ignore[attr-defined]
                                 twin.BLOCKS, device, [x, y], np.zeros(n, np.float16))  # type: ignore[attr-defined]
    assert zc.tobytes() == (x + y).tobytes() == zp.tobytes()
    _same_launch(cpp, py, "add_hand_flags.cpp", "DataCopy")
    flags = [i for i in cpp.streams[0] if i.op in ("set_flag", "wait_flag")]
    lines = (CPP_EXAMPLES / "add_hand_flags.cpp").read_text().splitlines()
    assert flags and all("flag(PIPE_" in lines[i.line - 1] for i in flags)  # the intrinsics' lines


def test_tmp_buffer_cpp_cast_and_python_twin_agree(cpp_kernels, device) -> None:  # type: ignore[no-untyped-def]
    kernels = cpp_kernels([CPP_EXAMPLES / "tmp_buffer.cpp"])
    twin = _python_twin("19_port_tmp_buffer")
    bf16 = twin.BF16  # type: ignore[attr-defined]
    n = twin.TOTAL_LENGTH  # type: ignore[attr-defined]
    rng = np.random.default_rng(0)
    x = rng.uniform(-100, 100, n).astype(np.float32).astype(bf16)
    y = rng.uniform(-100, 100, n).astype(np.float32).astype(bf16)
    (zc, zp), (cpp, py) = _twins([kernels.tmp_buffer_custom, twin.tmp_buffer_custom],  # type: ignore[attr-defined]
                                 1, device, [x, y], np.zeros(n, bf16))
    want = (x.astype(np.float32) + y.astype(np.float32)).astype(bf16)
    assert zc.view(np.uint16).tobytes() == want.view(np.uint16).tobytes() == zp.view(np.uint16).tobytes()
    _same_launch(cpp, py, "tmp_buffer.cpp", "DataCopy")


def test_serial_scale_cpp_intrinsics_and_python_twin_agree(cpp_kernels, device) -> None:  # type: ignore[no-untyped-def]
    kernels = cpp_kernels([CPP_EXAMPLES / "scale_serial.cpp"])
    twin = _python_twin("20_double_buffering")
    tile = twin.TILE  # type: ignore[attr-defined]
    x = (np.arange(6 * tile) % 1000).astype(np.float16)
    (yc, yp), (cpp, py) = _twins([kernels.scale_serial, twin.serial_kernel(6, 7)],  # type: ignore[attr-defined]
                                 1, device, [x], np.zeros_like(x))
    assert yc.tobytes() == (x * np.float16(2)).tobytes() == yp.tobytes()
    _same_launch(cpp, py, "scale_serial.cpp", "DataCopy")
