"""Faults, ASSERTs and scalar access in C++ kernels: each error names the C++ file and line, the
launch fails as a Python kernel's would, and the state stays usable."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import aclsim
from aclsim.errors import KernelFault, LocalMemoryOverflowError, TaskError

KERNELS = Path(__file__).parent / "kernels" / "faults.cpp"


def _line(marker: str) -> int:
    return next(i for i, text in enumerate(KERNELS.read_text().splitlines(), 1) if marker in text)


def _launch(kernel: object, blocks: int, *args: object) -> BaseException:
    """The error the launch failed with (a stream reports it at its synchronize as a TaskError)."""
    stream = aclsim.create_stream()
    kernel[blocks, stream](*args)  # type: ignore[index]
    with pytest.raises(TaskError) as info:
        aclsim.synchronize_stream(stream)
    return info.value.cause


def test_fault_names_the_cpp_line(cpp_kernels, rt) -> None:
    k = cpp_kernels([KERNELS])
    x, y = aclsim.malloc(256), aclsim.malloc(256)
    err = _launch(k.copy_past_end, 1, x, y)
    assert isinstance(err, KernelFault)
    assert err.file.endswith("faults.cpp") and err.line == _line("FAULT-LINE"), err
    # the runtime is usable after the failed launch
    k.scalar_values[1, None](x, y)
    aclsim.synchronize_stream(None)


def test_assert_fails_at_its_line(cpp_kernels, rt) -> None:
    k = cpp_kernels([KERNELS])
    err = _launch(k.assert_fails, 2, aclsim.malloc(64), aclsim.malloc(64))
    assert isinstance(err, KernelFault) and "block dim must be 1000" in str(err)
    assert err.line == _line("ASSERT-LINE") and err.block == 0


def test_local_memory_overflow_is_the_python_error(cpp_kernels, rt) -> None:
    k = cpp_kernels([KERNELS])
    err = _launch(k.ub_overflow, 1, aclsim.malloc(64), aclsim.malloc(64))
    assert isinstance(err, LocalMemoryOverflowError) and err.line == _line("OVERFLOW-LINE")


def test_scalar_get_and_set_value_per_block(cpp_kernels, rt) -> None:
    k = cpp_kernels([KERNELS])
    blocks = 4
    x = np.arange(8 * blocks, dtype=np.float32) - 5.5
    dx, dy = aclsim.malloc(x.nbytes), aclsim.malloc(x.nbytes)
    aclsim.memcpy(dx, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    launch = k.scalar_values[blocks, None](dx, dy)
    aclsim.synchronize_stream(None)
    y = np.zeros_like(x)
    aclsim.memcpy(y, y.nbytes, dy, y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    expected = x * 2 + np.repeat(np.arange(blocks, dtype=np.float32), 8)
    assert np.array_equal(y, expected)
    assert launch.streams is not None and all(len(s) > 0 for s in launch.streams)
