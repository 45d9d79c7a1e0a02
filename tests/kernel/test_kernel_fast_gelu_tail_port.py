"""Example 25 (FastGelu with a scalar tail, written from the pattern): odd lengths across cores against
NumPy, the split covering every element once, the tail moved by scalar GetValue/SetValue on the last
core only, and its flags needed (without the S -> V one the race check reports the tail)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

import aclsim
from aclsim.errors import TaskError
from aclsim.isa import HardEvent, Pipe

PATH = Path(__file__).resolve().parents[2] / "examples" / "25_fast_gelu_scalar_tail.py"


@pytest.fixture(scope="module")
def port():
    spec = importlib.util.spec_from_file_location("aclsim_fast_gelu_scalar_tail", PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def stream():
    aclsim.init(chip="tiny")
    aclsim.set_device(0)
    s = aclsim.create_stream()
    yield s
    aclsim.destroy_stream(s)
    aclsim.reset_device(0)
    aclsim.finalize()


@pytest.mark.parametrize("n, dtype", [(1000003, np.float32), (100003, np.float16), (17, np.float16),
                                      (5, np.float32), (8 * 4 * 3, np.float32)])
def test_odd_lengths_against_numpy(port, stream, n, dtype) -> None:
    ok, line, y, want = port.run_case(n, dtype, stream, chip="tiny")
    assert ok, line
    t, _ = port.tiling_func("tiny", n, dtype)
    tail = t.tail_length
    assert tail == n % (32 // np.dtype(dtype).itemsize)
    if tail:  # the tail elements went the scalar way: they match NumPy too
        tol = 1e-5 if np.dtype(dtype) == np.float32 else 4e-3
        assert np.allclose(y[-tail:].astype(np.float64), want[-tail:], rtol=tol, atol=tol)


@pytest.mark.parametrize("n", [1000003, 7, 64, 4 * 8 + 1])
def test_split_covers_each_element_once(port, n) -> None:
    t, cores = port.tiling_func("tiny", n, np.float32)
    covered = np.zeros(n, int)
    for i in range(cores):
        blocks = t.small_core_blocks + (1 if i < t.big_core_num else 0)
        start = (i * t.small_core_blocks + min(i, t.big_core_num)) * t.block_elems
        length = blocks * t.block_elems + (t.tail_length if i == cores - 1 else 0)
        covered[start:start + length] += 1
    assert (covered == 1).all()
    assert t.tile_length % t.block_elems == 0 and cores <= 4


def test_tail_is_scalar_on_the_last_core(port, stream) -> None:
    n = 4 * 8 * 10 + 5
    x = np.linspace(-4, 4, n).astype(np.float32)
    t, cores = port.tiling_func("tiny", n, np.float32)
    dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(x.nbytes)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = port.fast_gelu_tail[cores, None, stream](dx, dy, None, t, np.dtype(np.float32))
    aclsim.synchronize_stream(stream)
    aclsim.free(dx)
    aclsim.free(dy)
    scalar = [[ins.op for ins in s if ins.pipe is Pipe.S and ins.op in ("get_value", "set_value")]
              for s in launch.streams]
    assert [len(s) for s in scalar[:-1]] == [0] * (cores - 1)
    assert scalar[-1].count("get_value") == 2 * t.tail_length == scalar[-1].count("set_value") == 10


def test_tail_needs_its_flags(port, stream, monkeypatch) -> None:
    class NoSV:  # the kernel language without the S -> V hand-off
        def __getattr__(self, name):
            return getattr(port.aclsim.kernel, name)

        @staticmethod
        def set_flag(event, ident):
            if event is not HardEvent.S_V:
                port.aclsim.kernel.set_flag(event, ident)

        @staticmethod
        def wait_flag(event, ident):
            if event is not HardEvent.S_V:
                port.aclsim.kernel.wait_flag(event, ident)

    monkeypatch.setattr(port, "asc", NoSV())
    with pytest.raises(TaskError, match="RAW race on UB.*set_value"):
        port.run_case(4 * 8 + 3, np.float32, stream, chip="tiny")
