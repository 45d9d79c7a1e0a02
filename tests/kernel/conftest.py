"""Helpers for kernel tests: run a kernel on host arrays, and a generic vector harness."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc


class Runner:
    """Copies host arrays to the device, launches, synchronizes, copies every array back."""

    def __call__(self, kern: asc.Kernel, block_dim: int, *arrays: np.ndarray, extra: Sequence[Any] = (),
                 stream: Any = None) -> tuple[asc.KernelLaunch, list[np.ndarray]]:
        bufs = []
        for a in arrays:
            b = aclsim.malloc(max(a.nbytes, 1))
            aclsim.memcpy(b, a.nbytes, np.ascontiguousarray(a), a.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
            bufs.append(b)
        try:
            launch = kern[block_dim, stream](*extra, *bufs)
            aclsim.synchronize_device()
            out = []
            for a, b in zip(arrays, bufs, strict=True):
                r = np.empty_like(a)
                aclsim.memcpy(r, r.nbytes, b, a.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
                out.append(r)
        finally:
            for b in bufs:
                aclsim.free(b)
        return launch, out


@pytest.fixture
def run(rt: None) -> Iterator[Runner]:
    yield Runner()


def _align32(n: int) -> int:
    return max(32, -(-n // 32) * 32)


@asc.kernel
def vec_harness(body: Callable[..., None], specs: Sequence[tuple[Any, int]], n_in: int, *ptrs: Any) -> None:
    """Copies every operand GM -> UB, runs ``body(*outputs, *inputs)`` between full barriers, copies the
    outputs back."""
    pipe = asc.TPipe()
    tensors, gms = [], []
    for (dtype, count), ptr in zip(specs, ptrs, strict=True):
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, _align32(count * np.dtype(dtype).itemsize))
        t = buf.get(dtype)
        g = asc.GlobalTensor(dtype)
        g.set_global_buffer(ptr)
        tensors.append(t)
        gms.append(g)
    n_out = len(specs) - n_in
    for t, g, (dtype, count) in zip(tensors, gms, specs, strict=True):  # outputs too: their initial contents
        asc.data_copy_pad(t, g, asc.DataCopyExtParams(1, count * np.dtype(dtype).itemsize, 0, 0, 0))
    asc.pipe_barrier(asc.PIPE_ALL)
    body(*tensors)
    asc.pipe_barrier(asc.PIPE_ALL)
    for t, g, (dtype, count) in list(zip(tensors, gms, specs, strict=True))[:n_out]:
        asc.data_copy_pad(g, t, asc.DataCopyExtParams(1, count * np.dtype(dtype).itemsize, 0, 0, 0))


class VecRunner:
    def __init__(self, run: Runner) -> None:
        self.run = run

    def __call__(self, body: Callable[..., None], inputs: Sequence[np.ndarray],
                 outputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        """``outputs`` are the initial contents of the output tensors (their dtype and length)."""
        specs = [(o.dtype, o.size) for o in outputs] + [(i.dtype, i.size) for i in inputs]
        _, res = self.run(vec_harness, 1, *outputs, *inputs, extra=(body, specs, len(inputs)))
        return res[:len(outputs)]


@pytest.fixture
def vec(run: Runner) -> VecRunner:
    return VecRunner(run)

