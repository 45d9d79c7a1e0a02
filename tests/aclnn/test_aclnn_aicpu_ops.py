"""The dtypes the AI Core kernels do not hold (float64, int64, unsigned 16/32/64, complex) run as AI
CPU tasks (``aclnn/aicpu.py``): every op that lists them against NumPy, exactly for integers and
for complex arithmetic; views, broadcasting, promotion, casts, inplace forms; the executor's
AI CPU steps, their modeled time and the workspace."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest
from aclnn_support import run_op

import aclsim
from aclsim import aclnn
from aclsim.aclnn import aicpu
from aclsim.aclnn.executor import OpBuilder
from aclsim.aclnn.ops.reduction import (
    amax,
    amax_get_workspace_size,
    log_softmax,
    log_softmax_get_workspace_size,
    mean,
    mean_get_workspace_size,
    reduce_sum,
    reduce_sum_get_workspace_size,
    softmax,
    softmax_get_workspace_size,
)
from aclsim.arch import get_chip
from aclsim.errors import AclError, AclnnError, AclnnParamInvalidError

D = aclnn.DataType
F64, I64, C64, C128 = (np.dtype(t) for t in (np.float64, np.int64, np.complex64, np.complex128))
RNG = np.random.default_rng(12)


def _data(shape: tuple[int, ...], dt: np.dtype) -> np.ndarray:
    if dt.kind == "c":
        return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dt)
    if dt.kind == "f":
        return RNG.standard_normal(shape).astype(dt)
    if dt.kind == "b":
        return RNG.integers(0, 2, shape).astype(dt)
    lo, hi = (0, 1 << 40) if dt.kind == "u" else (-(1 << 40), 1 << 40)
    return RNG.integers(lo, hi, shape, dtype=np.int64).astype(dt)


def _equal_or_close(got: np.ndarray, want: np.ndarray, exact: bool) -> None:
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if exact:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-6 if want.dtype.itemsize >= 8 else 2e-5, atol=1e-12)


# --- binary and tensor-scalar ops ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("a_dt", "b_dt", "out_dt"),
    [(I64, I64, I64), (F64, F64, F64), (C64, C64, C64), (C128, C128, C128), (np.dtype(np.int32), I64, I64),
     (np.dtype(np.float32), F64, F64), (np.dtype(np.float32), C64, C64), (F64, F64, np.dtype(np.float32)),
     (I64, np.dtype(np.bool_), I64)],
)
def test_add_sub_mul_with_alpha_and_broadcast(dev: Any, a_dt: np.dtype, b_dt: np.dtype,
                                              out_dt: np.dtype) -> None:
    a, b = _data((3, 4), a_dt), _data((4,), b_dt)
    res = np.result_type(a_dt, b_dt)
    exact = res.kind in "iuc" and out_dt.kind != "f" or res.kind in "iu"
    x, y = dev(a), dev(b)
    for p1, p2, fn in ((aclnn.add_get_workspace_size, aclnn.add, lambda p, q, al: p + al * q),
                       (aclnn.sub_get_workspace_size, aclnn.sub, lambda p, q, al: p - al * q)):
        z = dev(np.zeros((3, 4), out_dt))
        run_op(p1, p2, x, y, 3, z)
        want = fn(a.astype(res), b.astype(res), res.type(3)).astype(out_dt)
        _equal_or_close(z.numpy(), want, exact)
    z = dev(np.zeros((3, 4), out_dt))
    run_op(aclnn.mul_get_workspace_size, aclnn.mul, x, y, z)
    _equal_or_close(z.numpy(), (a.astype(res) * b.astype(res)).astype(out_dt), exact)


def test_int64_arithmetic_wraps_and_is_exact(dev: Any) -> None:
    a = np.array([2**62, -(2**62), 2**53 + 1, 7], I64)
    b = np.array([2**62, -(2**62) - 1, 1, -3], I64)
    x, y, z = dev(a), dev(b), dev(np.zeros(4, I64))
    run_op(aclnn.add_get_workspace_size, aclnn.add, x, y, 1, z)
    np.testing.assert_array_equal(z.numpy(), a + b)  # 2**63 wraps as the device's int64 does
    run_op(aclnn.mul_get_workspace_size, aclnn.mul, x, y, z)
    np.testing.assert_array_equal(z.numpy(), a * b)


@pytest.mark.parametrize(("a_dt", "out_dt"), [(I64, np.dtype(np.float32)), (F64, F64), (C128, C128)])
def test_div_is_true_division(dev: Any, a_dt: np.dtype, out_dt: np.dtype) -> None:
    a, b = _data((2, 5), a_dt), _data((2, 5), a_dt)
    b[b == 0] = 3
    z = dev(np.zeros((2, 5), out_dt))
    run_op(aclnn.div_get_workspace_size, aclnn.div, dev(a), dev(b), z)
    compute = np.float32 if a_dt.kind == "i" else a_dt  # integers: Cast to float32, then Div
    _equal_or_close(z.numpy(), (a.astype(compute) / b.astype(compute)).astype(out_dt), a_dt.kind == "c")


def test_strided_inputs_and_out_use_the_workspace(dev: Any) -> None:
    base = _data((4, 6), F64)
    other = _data((6, 4), I64)
    store = dev(np.zeros((4, 8), F64))
    x = dev(base).view((4, 3), (6, 2), 1)  # every other column
    y = dev(other).view((4, 3), (1, 4))  # transposed
    z = store.view((4, 3), (8, 2), 1)
    ws, ex = aclnn.add_get_workspace_size(x.desc, y.desc, 2, z.desc)
    assert ws > 0
    names = [getattr(s, "name", type(s).__name__) for s in ex.steps]
    assert names.count("view_copy") == 3 and "Add" in names and "Cast" in names
    buf = aclsim.malloc(ws)
    aclnn.add(buf, ws, ex, None)
    aclsim.synchronize_device()
    aclsim.free(buf)
    want = np.zeros((4, 8))
    want[:, 1::2][:, :3] = base[:, 1::2] + 2 * other.T[:, :3]
    np.testing.assert_array_equal(store.numpy(), want)


def test_inplace_forms_read_the_old_values(dev: Any) -> None:
    a = _data((8,), I64)
    x = dev(a)
    shifted = x.view((7,), (1,), 1)  # partly overlaps selfRef
    head = x.view((7,), (1,), 0)
    run_op(aclnn.inplace_add_get_workspace_size, aclnn.inplace_add, head, shifted, 1)
    np.testing.assert_array_equal(x.numpy(), np.concatenate([a[:-1] + a[1:], a[-1:]]))
    c = _data((2, 3), C64)
    y = dev(c)
    run_op(aclnn.inplace_mul_get_workspace_size, aclnn.inplace_mul, y, y)
    np.testing.assert_array_equal(y.numpy(), c * c)


@pytest.mark.parametrize(("dt", "scalar", "sdt"), [(I64, 5, D.ACL_INT64), (F64, 0.25, D.ACL_DOUBLE),
                                                   (np.dtype(np.float32), 1j, D.ACL_COMPLEX64)])
def test_tensor_scalar_ops(dev: Any, dt: np.dtype, scalar: Any, sdt: D) -> None:
    a = _data((2, 3), dt)
    s, alpha = aclnn.create_scalar(scalar, sdt), aclnn.create_scalar(2, D.ACL_INT64)
    # A2 keeps a floating tensor's dtype (a complex scalar's real part)
    out_dt = np.dtype(np.float32) if dt.kind == "f" and sdt == D.ACL_COMPLEX64 else dt
    res = dt
    x, z = dev(a), dev(np.zeros((2, 3), out_dt))
    value = np.asarray(scalar).real.astype(res) if res.kind != "c" else np.asarray(scalar).astype(res)
    run_op(aclnn.adds_get_workspace_size, aclnn.adds, x, s, alpha, z)
    _equal_or_close(z.numpy(), (a + value * 2).astype(out_dt), dt.kind == "i")
    run_op(aclnn.muls_get_workspace_size, aclnn.muls, x, s, z)
    _equal_or_close(z.numpy(), (a * value).astype(out_dt), dt.kind == "i")
    run_op(aclnn.inplace_subs_get_workspace_size, aclnn.inplace_subs, x, s, alpha)
    _equal_or_close(x.numpy(), (a - value * 2).astype(dt), dt.kind == "i")


# --- unary ops and Cast --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "dt", "out_dt", "fn", "exact"),
    [("abs", I64, I64, np.abs, True), ("abs", F64, F64, np.abs, True),
     ("abs", C64, np.float32, np.abs, False),
     ("neg", I64, I64, np.negative, True), ("neg", C128, C128, np.negative, True),
     ("exp", F64, F64, np.exp, False), ("exp", C64, C64, np.exp, False),
     ("exp", I64, np.float32, lambda v: np.exp(v.astype(np.float32)), False),
     ("log", F64, F64, np.log, False), ("log", C128, C128, np.log, False),
     ("sqrt", F64, F64, np.sqrt, False), ("sqrt", C64, C64, np.sqrt, False),
     ("rsqrt", F64, F64, lambda v: 1 / np.sqrt(v), False),
     ("relu", I64, I64, lambda v: np.maximum(v, 0), True)],
)
def test_unary_ops(dev: Any, name: str, dt: np.dtype, out_dt: np.dtype, fn: Any, exact: bool) -> None:
    a = _data((3, 5), dt)
    if dt.kind == "i" and name == "exp":
        a = RNG.integers(-5, 5, (3, 5)).astype(dt)
    z = dev(np.zeros((3, 5), out_dt))
    run_op(getattr(aclnn, f"{name}_get_workspace_size"), getattr(aclnn, name), dev(a), z)
    with np.errstate(all="ignore"):
        want = np.asarray(fn(a)).astype(out_dt)
    _equal_or_close(z.numpy(), want, exact)


def test_inplace_unary_ops(dev: Any) -> None:
    a = _data((4,), F64)
    x = dev(a)
    run_op(aclnn.inplace_sigmoid_get_workspace_size, aclnn.inplace_sigmoid, x)
    np.testing.assert_allclose(x.numpy(), 1 / (1 + np.exp(-a)), rtol=1e-12)
    c = _data((4,), C64)
    y = dev(c)
    run_op(aclnn.inplace_exp_get_workspace_size, aclnn.inplace_exp, y)
    np.testing.assert_allclose(y.numpy(), np.exp(c), rtol=1e-5)


@pytest.mark.parametrize(
    ("name", "dt", "fn"),
    [("neg", C64, np.negative), ("log", F64, np.log), ("sqrt", C128, np.sqrt),
     ("rsqrt", F64, lambda v: 1 / np.sqrt(v)), ("exp", F64, np.exp),
     ("relu", I64, lambda v: np.maximum(v, 0))],
)
def test_more_inplace_forms(dev: Any, name: str, dt: np.dtype, fn: Any) -> None:
    a = np.abs(_data((2, 3), dt)) if name in ("log", "rsqrt") else _data((2, 3), dt)
    x = dev(a)
    run_op(getattr(aclnn, f"inplace_{name}_get_workspace_size"), getattr(aclnn, f"inplace_{name}"), x)
    _equal_or_close(x.numpy(), np.asarray(fn(a)).astype(dt), dt.kind == "i" or name == "neg")
    y = dev(_data((2, 3), dt))
    other = _data((3,), dt)
    other[other == 0] = 1
    want = (y.numpy() / other).astype(dt) if dt.kind != "i" else None
    if want is not None:  # InplaceDiv keeps selfRef's floating or complex dtype
        run_op(aclnn.inplace_div_get_workspace_size, aclnn.inplace_div, y, dev(other))
        _equal_or_close(y.numpy(), want, dt.kind == "c")


def test_amax_float64_keeps_nan(dev: Any) -> None:
    a = _data((3, 4), F64)
    a[1, 2] = np.nan
    z = dev(np.zeros(3, F64))
    run_op(amax_get_workspace_size, amax, dev(a), [1], False, z)
    np.testing.assert_array_equal(z.numpy(), a.max(1))  # NaN propagates in its row


def test_complex_input_needs_a_complex_out(dev: Any) -> None:
    with pytest.raises(AclnnParamInvalidError, match="complex dtype is needed") as info:
        aclnn.exp_get_workspace_size(dev(_data((2,), C64)).desc, dev(np.zeros(2, np.float32)).desc)
    assert info.value.code == 161002


def _converted(a: np.ndarray, dst: np.dtype) -> np.ndarray:
    """Reference 5.3 / Cast, written out: bool is != 0; complex -> real keeps the real part;
    float -> integer truncates toward zero, NaN -> 0."""
    if dst == np.bool_:
        return a != 0
    v = a.real if a.dtype.kind == "c" and dst.kind != "c" else a
    if v.dtype.kind == "f" and dst.kind in "iu":
        v = np.where(np.isnan(v), 0, np.trunc(v))
    return v.astype(dst)


CAST = [np.dtype(t) for t in (np.float64, np.float32, np.int64, np.uint64, np.uint32, np.uint16, np.int32,
                              np.uint8, np.bool_, np.complex64, np.complex128)]


@pytest.mark.parametrize("src", CAST)
def test_cast_between_the_listed_dtypes(dev: Any, src: np.dtype) -> None:
    a = _data((2, 6), src)
    if src.kind == "f":
        a = (a * 300).astype(src)
        a[0, 0], a[0, 1] = np.nan, -0.9  # NaN -> 0, truncation toward zero
    elif src.kind == "c":
        a = (np.abs(a.real) * 200 + 1j * a.imag).astype(src)  # non-negative real parts: exact into unsigned
    x = dev(a)
    for dst in CAST:
        if src == dst or (src.kind == "f" and dst.kind == "u"):  # negative floats: undefined on the device
            continue
        with np.errstate(all="ignore"):
            want = _converted(a, dst)
        z = dev(np.zeros((2, 6), dst))
        run_op(aclnn.cast_get_workspace_size, aclnn.cast, x, aclnn.data_type_of(dst), z)
        np.testing.assert_array_equal(z.numpy(), want, err_msg=f"{src} -> {dst}")


def test_inplace_copy_converts_on_the_ai_cpu(dev: Any) -> None:
    src = np.array([1.9, -2.5, 3.0], F64)
    store = dev(np.zeros((2, 6), np.int32))
    self_ref = store.view((2, 3), (6, 2))  # strided selfRef, src broadcast over its rows
    run_op(aclnn.inplace_copy_get_workspace_size, aclnn.inplace_copy, self_ref, dev(src))
    want = np.zeros((2, 6), np.int32)
    want[:, ::2] = np.trunc(src).astype(np.int32)
    np.testing.assert_array_equal(store.numpy(), want)
    c = dev(np.zeros(3, C128))
    run_op(aclnn.inplace_copy_get_workspace_size, aclnn.inplace_copy, c, dev(np.array([1, -2, 3], I64)))
    np.testing.assert_array_equal(c.numpy(), np.array([1, -2, 3], C128))


# --- reductions and softmax ----------------------------------------------------------------------


@pytest.mark.parametrize("dt", [I64, F64, C64, C128])
def test_reduce_sum_and_mean(dev: Any, dt: np.dtype) -> None:
    a = _data((3, 4, 5), dt)
    x = dev(a)
    adt = aclnn.data_type_of(dt)
    for dims, keep in (([1], False), ([0, 2], True), ([], False)):
        axes = tuple(dims) or (0, 1, 2)
        want = a.sum(axis=axes, keepdims=keep)
        z = dev(np.zeros(np.shape(want), dt))
        run_op(reduce_sum_get_workspace_size, reduce_sum, x, dims, keep, adt, z)
        _equal_or_close(z.numpy(), np.asarray(want, dt), dt.kind == "i")
        if dt.kind == "i":  # an integer mean: the exact sum, divided toward zero
            s = a.sum(axis=axes, keepdims=keep)
            wmean = np.sign(s) * (np.abs(s) // int(np.prod([a.shape[i] for i in axes])))
        else:
            wmean = a.mean(axis=axes, keepdims=keep)
        run_op(mean_get_workspace_size, mean, x, dims, keep, adt, z)
        _equal_or_close(z.numpy(), np.asarray(wmean, dt), dt.kind == "i")


def test_reductions_cast_view_and_amax(dev: Any) -> None:
    a = _data((4, 6), I64)
    x = dev(a).view((4, 3), (6, 2), 1)
    view = a[:, 1::2]
    z = dev(np.zeros(3, I64))
    run_op(amax_get_workspace_size, amax, x, [0], False, z)
    np.testing.assert_array_equal(z.numpy(), view.max(0))
    zf = dev(np.zeros(4, np.float32))  # int64 self, float32 dtype: Cast on the AI CPU, reduce, deliver
    run_op(mean_get_workspace_size, mean, x, [1], False, D.ACL_FLOAT, zf)
    np.testing.assert_allclose(zf.numpy(), view.astype(np.float32).mean(1), rtol=1e-6)
    empty = dev(np.zeros((0, 3), F64))
    filled = dev(np.ones(3, F64))
    run_op(reduce_sum_get_workspace_size, reduce_sum, empty, [0], False, D.ACL_DOUBLE, filled)
    np.testing.assert_array_equal(filled.numpy(), np.zeros(3))
    run_op(mean_get_workspace_size, mean, empty, [0], False, D.ACL_DOUBLE, filled)
    assert np.isnan(filled.numpy()).all()
    cfilled = dev(np.ones(3, C64))  # the mean of nothing is NaN in a complex out too
    run_op(mean_get_workspace_size, mean, dev(np.zeros((0, 3), C64)), [0], False, D.ACL_COMPLEX64, cfilled)
    got = cfilled.numpy()
    assert np.isnan(got.real).all() and np.isnan(got.imag).all()


def test_complex_alpha(dev: Any) -> None:
    """A complex alpha is cast to the promoted dtype (reference 5.3: complex -> float keeps the
    real part), refused for a bool result like a floating one."""
    a, b = _data((5,), np.dtype(np.float32)), _data((5,), np.dtype(np.float32))
    z = dev(np.zeros(5, np.float32))
    alpha = aclnn.create_scalar(2 + 5j, D.ACL_COMPLEX64)
    run_op(aclnn.add_get_workspace_size, aclnn.add, dev(a), dev(b), alpha, z)
    np.testing.assert_allclose(z.numpy(), a + 2 * b, rtol=1e-6)
    c = _data((5,), C64)
    zc = dev(np.zeros(5, C64))
    run_op(aclnn.sub_get_workspace_size, aclnn.sub, dev(c), dev(c), alpha, zc)
    np.testing.assert_allclose(zc.numpy(), c - np.complex64(2 + 5j) * c, rtol=1e-6)
    t = dev(np.ones(5, np.bool_))
    with pytest.raises(AclnnParamInvalidError, match="cannot be cast to the bool result"):
        aclnn.add_get_workspace_size(t.desc, t.desc, alpha, t.desc)


def test_softmax_float64(dev: Any) -> None:
    a = _data((3, 7), F64) * 30
    x = dev(a)
    z = dev(np.zeros((3, 7), F64))
    run_op(softmax_get_workspace_size, softmax, x, -1, z)
    e = np.exp(a - a.max(1, keepdims=True))
    np.testing.assert_allclose(z.numpy(), e / e.sum(1, keepdims=True), rtol=1e-12)
    run_op(log_softmax_get_workspace_size, log_softmax, x, 0, z)
    shifted = a - a.max(0, keepdims=True)
    np.testing.assert_allclose(z.numpy(), shifted - np.log(np.exp(shifted).sum(0, keepdims=True)), rtol=1e-12)
    z32 = dev(np.zeros((3, 7), np.float32))
    run_op(softmax_get_workspace_size, softmax, x, 1, z32)  # float64 in, float32 out
    np.testing.assert_allclose(z32.numpy(), (e / e.sum(1, keepdims=True)).astype(np.float32), rtol=1e-6)


# --- the executor's AI CPU steps: time, workspace, life cycle ------------------------------------


def test_modeled_time_is_the_ai_cpu_model(dev: Any) -> None:
    chip = get_chip("tiny")
    n = 1 << 16  # 512 KiB of float64 output: split over the AI CPUs
    x, z = dev(np.ones(n, F64)), dev(np.zeros(n, F64))
    ev = [aclsim.create_event() for _ in range(2)]
    ws, ex = aclnn.neg_get_workspace_size(x.desc, z.desc)
    aclsim.record_event(ev[0])
    aclnn.neg(None, ws, ex, None)
    aclsim.record_event(ev[1])
    aclsim.synchronize_device()
    (run,) = ex.aicpu_runs
    cores = min(chip.aicpu_count, -(-n * 8 // aicpu.SHARD_BYTES))
    assert run.seconds == pytest.approx(chip.aicpu_launch_s + n / (cores * chip.aicpu_elements_per_s))
    assert aclsim.event_elapsed_time(ev[0], ev[1]) == pytest.approx(run.seconds * 1e3)
    small = aicpu.aicpu_seconds(chip, 100, 800)  # below 192 KiB: one AI CPU
    assert small == pytest.approx(chip.aicpu_launch_s + 100 / chip.aicpu_elements_per_s)
    for e in ev:
        aclsim.destroy_event(e)


def test_a_chip_without_ai_cpu_is_refused_at_phase_one() -> None:
    chip = get_chip("tiny").with_changes(aicpu_count=0)
    with pytest.raises(AclnnError, match="no AI CPU") as info:
        aicpu.aicpu_seconds(chip, 10, 80)
    assert info.value.code == 561000


def test_task_memory_joins_the_workspace(rt: None) -> None:
    assert aicpu.task_memory([512, 512], aicpu.CC_ALIGN) == 0  # fits the task's argument block
    assert aicpu.task_memory([1000, 30], aicpu.TF_ALIGN) == 1024 + 64
    b = OpBuilder("T", chip=get_chip("tiny"))
    ws_ref = b.workspace(100)
    b.aicpu("t", [ws_ref], lambda addrs: 0.0, task_memory=1088)
    b.aicpu("u", [ws_ref], lambda addrs: 0.0, task_memory=300)
    size, _ = b.finish()
    assert size == 512 + 1088  # the buckets, then the largest AI CPU task memory (OPBASE)


def test_repeatable_executor_rebinds_ai_cpu_operands(dev: Any) -> None:
    a, b = np.arange(6, dtype=I64), np.arange(6, dtype=I64) * 10
    x, z = dev(a), dev(np.zeros(6, I64))
    ws, ex = aclnn.neg_get_workspace_size(x.desc, z.desc)
    aclnn.set_executor_repeatable(ex)
    aclnn.neg(None, ws, ex, None)
    np.testing.assert_array_equal(z.numpy(), -a)
    y = dev(b)
    aclnn.set_input_tensor_addr(ex, 0, x.desc, y.desc.device_addr)
    aclnn.neg(None, ws, ex, None)
    np.testing.assert_array_equal(z.numpy(), -b)
    aclnn.destroy_executor(ex)


def test_an_ai_cpu_task_on_freed_memory_fails_at_synchronize(dev: Any) -> None:
    x = aclnn.Tensor.from_numpy(np.ones(4, F64))
    z = dev(np.zeros(4, F64))
    ws, ex = aclnn.neg_get_workspace_size(x.desc, z.desc)
    gate = aclsim.create_event()
    stream = aclsim.create_stream()
    blocker = aclsim.create_stream()
    done = threading.Event()
    blocker.launch(lambda: (done.wait(5), 0.0)[1])
    aclsim.record_event(gate, blocker)
    aclsim.stream_wait_event(stream, gate)
    aclnn.neg(None, ws, ex, stream)
    x.free()  # freed while the queued AI CPU task still reads it
    done.set()
    with pytest.raises(AclError, match="freed"):
        aclsim.synchronize_stream(stream)
    aclsim.synchronize_stream(blocker)
    aclsim.destroy_event(gate)
    aclsim.destroy_stream(stream)
    aclsim.destroy_stream(blocker)


def test_the_c_names_and_the_single_op_api_take_float64() -> None:
    """pyACL-style callers reach the AI CPU path too: ``aclnnAdd`` by its C name, and
    ``acl.op.execute_v2("Add", ...)`` with ACL_DOUBLE descriptors."""
    import aclsim.acl as acl
    from aclsim.aclnn import compat as nn

    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    a = np.arange(4, dtype=F64)
    bufs = [acl.rt.malloc(32, 0)[0] for _ in range(3)]
    for b in bufs[:2]:
        acl.rt.memcpy(b, 32, acl.util.numpy_to_ptr(a), 32, 1)
    ts = [nn.aclCreateTensor([4], nn.ACL_DOUBLE, [1], 0, nn.ACL_FORMAT_ND, [4], b) for b in bufs]
    alpha = nn.aclCreateScalar(2.0, nn.ACL_DOUBLE)
    ws, ex, ret = nn.aclnnAddGetWorkspaceSize(ts[0], ts[1], alpha, ts[2])
    assert (ws, ret) == (0, 0) and nn.aclnnAdd(None, ws, ex, 0) == 0
    assert acl.rt.synchronize_device() == 0
    out = np.zeros(4)
    acl.rt.memcpy(acl.util.numpy_to_ptr(out), 32, bufs[2], 32, 2)
    np.testing.assert_array_equal(out, a + 2 * a)
    desc = acl.create_tensor_desc(nn.ACL_DOUBLE, [4], nn.ACL_FORMAT_ND)
    dbs = [acl.create_data_buffer(b, 32) for b in bufs]
    attr = acl.op.create_attr()
    assert acl.op.execute_v2("Add", [desc, desc], dbs[:2], [desc], dbs[2:], attr, 0) == 0
    assert acl.rt.synchronize_device() == 0
    acl.rt.memcpy(acl.util.numpy_to_ptr(out), 32, bufs[2], 32, 2)
    np.testing.assert_array_equal(out, a + a)
    acl.op.destroy_attr(attr)
    for d in dbs:
        acl.destroy_data_buffer(d)
    acl.destroy_tensor_desc(desc)
    for t in ts:
        nn.aclDestroyTensor(t)
    nn.aclDestroyScalar(alpha)
    for b in bufs:
        acl.rt.free(b)
    acl.rt.reset_device(0)
    acl.finalize()
