"""``ListTensorDesc`` / ``TensorDesc``: tensor lists passed to a kernel as a descriptor in GM."""

from __future__ import annotations

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc
from aclsim.errors import KernelFault, TaskError
from aclsim.isa import Pipe, Space

F32 = asc.float32
E = asc.HardEvent


@asc.kernel
def scale_list(xs, ys):
    """ys[i] = 3 * xs[i] for every tensor of the lists, sizes read from the descriptors."""
    xl = asc.ListTensorDesc(xs)
    yl = asc.ListTensorDesc()
    yl.init(ys)
    shape = np.zeros(4, np.uint64)
    desc = asc.TensorDesc(F32)
    desc.set_shape_addr(shape)
    ub = asc.LocalMemAllocator()
    buf = ub.alloc(F32, 1024)
    for i in range(xl.get_size()):
        xl.get_desc(desc, i)
        assert desc.get_index() == i and desc.get_dim() == 2
        n = desc.get_shape(0) * desc.get_shape(1)
        gx, gy = asc.GlobalTensor(F32), asc.GlobalTensor(F32)
        gx.set_global_buffer(desc.get_data_ptr(), n)
        gy.set_global_buffer(yl.get_data_ptr(F32, i), n)
        asc.data_copy(buf, gx, n)
        asc.set_flag(E.MTE2_V, 0)
        asc.wait_flag(E.MTE2_V, 0)
        asc.muls(buf, buf, 3.0, n)
        asc.set_flag(E.V_MTE3, 0)
        asc.wait_flag(E.V_MTE3, 0)
        asc.data_copy(gy, buf, n)
        asc.set_flag(E.MTE3_MTE2, 0)
        asc.wait_flag(E.MTE3_MTE2, 0)


def test_a_kernel_walks_tensor_lists_built_on_the_host(rt) -> None:
    shapes = [(2, 8), (4, 16), (1, 24)]
    rng = np.random.default_rng(5)
    xs = [rng.standard_normal(s, dtype=np.float32) for s in shapes]
    dx = [aclsim.malloc(x.nbytes) for x in xs]
    dy = [aclsim.malloc(x.nbytes) for x in xs]
    for b, x in zip(dx, xs, strict=True):
        aclsim.memcpy(b, x.nbytes, x, x.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    lx = asc.make_list_tensor_desc(dx, shapes)
    ly = asc.make_list_tensor_desc(dy)  # no shapes: the pointers only
    launch = scale_list[1, None](lx, ly)
    aclsim.synchronize_device()
    for b, x in zip(dy, xs, strict=True):
        y = np.empty_like(x)
        aclsim.memcpy(y, y.nbytes, b, y.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
        np.testing.assert_array_equal(y, x * np.float32(3))
    reads = [i for i in launch.streams[0] if i.op == "list_tensor_desc"]
    assert reads and all(i.pipe is Pipe.S and not i.writes for i in reads)
    spans = {(a.space, a.offset, a.length) for i in reads for a in i.reads}
    # the first record of lx: its header word and its two extents, read by get_desc(desc, 0)
    assert (Space.GM, int(lx) + 16, 16) in spans
    assert launch.diagnostics == []
    for b in (*dx, *dy, lx, ly):
        aclsim.free(b)


def test_the_host_layout_is_the_documented_one() -> None:
    w = asc.list_tensor_desc_words([0x100, 0x200, 0x300], [(1, 2, 3), (4, 5, 6), (7, 8, 9)])
    dim, count = 3, 3
    assert w[0] == 8 + count * (dim + 1) * 8 and len(w) == w[0] // 8 + count
    for i in range(count):
        rec = w[1 + i * (dim + 1): 1 + (i + 1) * (dim + 1)]
        assert rec[0] & 0xFFFFFFFF == dim and rec[0] >> 32 == i
        assert rec[1:].tolist() == [3 * i + 1, 3 * i + 2, 3 * i + 3]
    assert w[w[0] // 8:].tolist() == [0x100, 0x200, 0x300]
    with pytest.raises(ValueError, match="one rank"):
        asc.list_tensor_desc_words([1, 2], [(1,), (1, 2)])


@asc.kernel
def check_list(d, length, shape_size, case):
    lst = asc.ListTensorDesc()
    if case == "init":
        lst.init(d, length, shape_size)
    elif case == "index":
        lst.init(d)
        lst.get_data_ptr(F32, lst.get_size())
    elif case == "noshape":
        lst.init(d)
        lst.get_desc(asc.TensorDesc(F32), 0)
    elif case == "after_fault":
        lst.init(d)
        try:
            lst.init(d, 999, 999)
        except KernelFault:
            pass
        assert lst.get_size() == 2  # the failed init left the decoded list as it was
    elif case == "misaligned":
        lst.init(d + 4)


def _put(words: np.ndarray):
    b = aclsim.malloc(words.nbytes)
    aclsim.memcpy(b, words.nbytes, words, words.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
    return b


def _fault(*args):
    with pytest.raises(TaskError) as info:
        check_list[1, None](*args)
        aclsim.synchronize_device()
    return info.value.cause


def test_lengths_indexes_and_malformed_descriptors_fault_at_the_line(rt) -> None:
    good = asc.list_tensor_desc_words([0x1000, 0x2000], [(8,), (16,)])
    d = _put(good)
    check_list[1, None](d, good.nbytes, 2, "init")  # the right checks pass
    check_list[1, None](d, 0, 0, "after_fault")
    aclsim.synchronize_device()
    fault = _fault(d, good.nbytes, 3, "init")
    assert "shapeSize 3" in str(fault) and fault.file.endswith("test_kernel_listtensor.py")
    assert "GetDataPtr(2) of a list of 2" in str(_fault(d, 0, 0, "index"))
    assert "shape array" in str(_fault(d, 0, 0, "noshape"))
    assert _fault(d, 0, 0, "misaligned").code == 507035
    bad = good.copy()
    bad[0] += 8  # the data offset no longer matches the records
    b = _put(bad)
    assert "malformed" in str(_fault(b, 0, 0, "init"))
    for x in (d, b):
        aclsim.free(x)


def test_a_list_with_no_shapes_has_no_desc(rt) -> None:
    d = _put(asc.list_tensor_desc_words([0x1000]))
    assert "no shapes" in str(_fault(d, 0, 0, "noshape"))
    aclsim.free(d)
