"""Every elementwise op against NumPy: dtypes, broadcasting, views, empty, odd sizes, rank 0, inplace."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from aclnn_support import BF16, run_op

from aclsim import aclnn
from aclsim.aclnn import DataType as D
from aclsim.aclnn import Tensor, create_scalar
from aclsim.errors import AclnnParamInvalidError

F32, F16 = np.dtype(np.float32), np.dtype(np.float16)
TOL = {F32: 1e-6, F16: 1e-3, BF16: 8e-3}


def _ref(fn: Any, *xs: np.ndarray, dt: np.dtype) -> np.ndarray:
    """NumPy in float64, rounded once to ``dt``."""
    return np.asarray(fn(*(x.astype(np.float64) for x in xs))).astype(dt)


def _close(got: np.ndarray, want: np.ndarray, dt: np.dtype, rel: float = 1.0) -> None:
    if dt.kind in "iub":
        np.testing.assert_array_equal(got, want)
    else:
        tol = TOL[dt] * rel
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol)


def _rand(shape: tuple[int, ...], dt: np.dtype, lo: float = -4, hi: float = 4, seed: int = 0) -> np.ndarray:
    r = np.random.default_rng(seed).uniform(lo, hi, shape)
    return r.astype(dt) if dt.kind == "f" or dt == BF16 else np.rint(r).astype(dt)


@pytest.mark.parametrize(
    "dt", [F32, F16, BF16, np.dtype(np.int32), np.dtype(np.int16), np.dtype(np.int8), np.dtype(np.uint8)]
)
def test_add_with_alpha_over_dtypes(dev: Any, dt: np.dtype) -> None:
    a, b = _rand((3, 37), dt, 0, 9, 1), _rand((3, 37), dt, 0, 9, 2)
    z = dev(np.zeros_like(a))
    alpha = 2 if dt.kind in "iu" else 1.5
    run_op(aclnn.add_get_workspace_size, aclnn.add, dev(a), dev(b), alpha, z)
    if dt.kind in "iu":
        want = (a.astype(np.int64) + alpha * b.astype(np.int64)).astype(dt)
    else:
        want = _ref(lambda x, y: x + alpha * y, a, b, dt=dt)
    _close(z.numpy(), want, dt, rel=2)


@pytest.mark.parametrize(
    ("name", "fn"), [("add", np.add), ("sub", np.subtract), ("mul", np.multiply), ("div", np.divide)]
)
@pytest.mark.parametrize("dt", [F32, F16, BF16])
def test_binary_ops_broadcast(dev: Any, name: str, fn: Any, dt: np.dtype) -> None:
    a, b = _rand((4, 1, 5), dt, 1, 3, 3), _rand((3, 1), dt, 1, 3, 4)
    z = dev(np.zeros((4, 3, 5), dt))
    args = [dev(a), dev(b)] + ([1.0] if name in ("add", "sub") else []) + [z]
    run_op(getattr(aclnn, f"{name}_get_workspace_size"), getattr(aclnn, name), *args)
    _close(z.numpy(), _ref(fn, a, b, dt=dt), dt, rel=2)


def test_mixed_dtypes_promote_and_convert_into_out(dev: Any) -> None:
    a = _rand((2, 9), F16, seed=5)
    b = _rand((2, 9), np.dtype(np.int32), seed=6)
    z = dev(np.zeros((2, 9), F32))  # f16 + s32 -> f16, written into an f32 out
    run_op(aclnn.add_get_workspace_size, aclnn.add, dev(a), dev(b), 1, z)
    np.testing.assert_array_equal(z.numpy(), (a + b.astype(F16)).astype(F32))
    bb = _rand((2, 9), BF16, seed=7)
    z2 = dev(np.zeros((2, 9), F32))  # f16 * bf16 -> f32
    run_op(aclnn.mul_get_workspace_size, aclnn.mul, dev(a), dev(bb), z2)
    np.testing.assert_array_equal(z2.numpy(), a.astype(F32) * bb.astype(F32))


def test_integer_div_is_true_division(dev: Any) -> None:
    a, b = np.array([7, -7, 9, 1], np.int32), np.array([2, 2, 3, 3], np.int32)
    z = dev(np.zeros(4, F32))
    run_op(aclnn.div_get_workspace_size, aclnn.div, dev(a), dev(b), z)
    np.testing.assert_allclose(z.numpy(), a / b, rtol=1e-6)


@pytest.mark.parametrize("shape", [(), (1,), (7,), (33,), (2, 0, 3), (0,)])
def test_sizes_empty_odd_and_rank0(dev: Any, shape: tuple[int, ...]) -> None:
    a, b = _rand(shape, F16, seed=8), _rand(shape, F16, seed=9)
    z = dev(np.zeros(shape, F16))
    assert z.desc.rank == len(shape)
    ex = run_op(aclnn.mul_get_workspace_size, aclnn.mul, dev(a), dev(b), z)
    _close(z.numpy(), _ref(np.multiply, a, b, dt=F16), F16)
    assert (len(ex.launches) == 0) == (a.size == 0)


def test_work_spreads_over_all_vector_cores(dev: Any) -> None:
    a = _rand((4096,), F32, seed=10)
    z = dev(np.zeros_like(a))
    ex = run_op(aclnn.neg_get_workspace_size, aclnn.neg, dev(a), z)
    np.testing.assert_array_equal(z.numpy(), -a)
    assert ex.launches[0].block_dim == ex.chip.cores


def test_strided_views_in_and_out(dev: Any) -> None:
    base = np.arange(100, dtype=np.float32).reshape(10, 10)
    x = dev(base)
    view = x.view((6, 5), (10, 1), 22)  # rows 2-7, cols 2-6 (reference section 3)
    every_other = x.view((4, 3), (20, 2), 22)  # inner stride 2: staged through the workspace
    out_store = dev(np.zeros((6, 8), np.float32))
    out = out_store.view((6, 5), (8, 1), 3)
    run_op(aclnn.adds_get_workspace_size, aclnn.adds, view, 1.0, 1.0, out)
    got = out_store.numpy()
    np.testing.assert_array_equal(got[:, 3:], base[2:8, 2:7] + 1)
    np.testing.assert_array_equal(got[:, :3], 0)
    z = dev(np.zeros((4, 3), np.float32))
    ex = run_op(aclnn.exp_get_workspace_size, aclnn.exp, every_other, z)
    _close(z.numpy(), _ref(np.exp, base[2:10:2, 2:8:2], dt=F32), F32)
    assert ex.workspace_size == 512 and [k.name for k in ex.launches] == ["view_copy", "exp"]


def test_transposed_input_and_output_go_through_the_workspace(dev: Any) -> None:
    a = _rand((5, 7), F16, seed=19)
    b = _rand((7,), F16, seed=20)
    xt = dev(np.ascontiguousarray(a.T)).view((5, 7), (1, 5), 0)  # a, stored transposed
    store = dev(np.zeros((7, 5), F16))
    out = store.view((5, 7), (1, 5), 0)  # out, written transposed
    ex = run_op(aclnn.add_get_workspace_size, aclnn.add, xt, dev(b), 1.0, out)
    np.testing.assert_array_equal(store.numpy().T, (a + b).astype(F16))
    assert [k.name for k in ex.launches] == ["view_copy", "add", "view_copy"]
    assert ex.workspace_size == 2 * 512  # the staged input and the staged result overlap at the add


UNARY = [
    ("abs", np.abs),
    ("neg", np.negative),
    ("exp", np.exp),
    ("log", np.log),
    ("sqrt", np.sqrt),
    ("rsqrt", lambda x: 1 / np.sqrt(x)),
    ("relu", lambda x: np.maximum(x, 0)),
    ("sigmoid", lambda x: 1 / (1 + np.exp(-x))),
    ("silu", lambda x: x / (1 + np.exp(-x))),
    ("gelu", lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))),
]


@pytest.mark.parametrize(("name", "fn"), UNARY)
@pytest.mark.parametrize("dt", [F32, F16, BF16])
def test_unary_ops(dev: Any, name: str, fn: Any, dt: np.dtype) -> None:
    lo = 0.1 if name in ("log", "sqrt", "rsqrt") else -4
    a = _rand((5, 13), dt, lo, 4, 11)
    z = dev(np.zeros_like(a))
    run_op(getattr(aclnn, f"{name}_get_workspace_size"), getattr(aclnn, name), dev(a), z)
    _close(z.numpy(), _ref(fn, a, dt=dt), dt, rel=4)


@pytest.mark.parametrize("dt", [np.dtype(np.int32), np.dtype(np.int8), np.dtype(np.int16)])
def test_integer_unary(dev: Any, dt: np.dtype) -> None:
    a = _rand((3, 11), dt, -100, 100, 12)
    for name, fn in (("abs", np.abs), ("relu", lambda x: np.maximum(x, 0))):
        if name == "relu" and dt == np.int16:
            continue  # not in Relu's A2 list
        z = dev(np.zeros_like(a))
        run_op(getattr(aclnn, f"{name}_get_workspace_size"), getattr(aclnn, name), dev(a), z)
        np.testing.assert_array_equal(z.numpy(), fn(a))
    zf = dev(np.zeros(a.shape, F32))
    run_op(aclnn.sqrt_get_workspace_size, aclnn.sqrt, dev(np.abs(a)), zf)
    _close(zf.numpy(), np.sqrt(np.abs(a).astype(np.float64)).astype(F32), F32)


CAST_PAIRS = [
    (F32, F16),
    (F16, F32),
    (F32, BF16),
    (BF16, F32),
    (F32, np.int32),
    (np.int32, F32),
    (F16, np.int8),
    (np.int8, F16),
    (np.int32, np.int8),
    (np.uint8, np.int32),
    (F32, np.bool_),
    (np.bool_, F32),
    (np.int32, np.bool_),
]


@pytest.mark.parametrize(("src", "dst"), CAST_PAIRS)
def test_cast(dev: Any, src: Any, dst: Any) -> None:
    src, dst = np.dtype(src), np.dtype(dst)
    a = _rand((3, 21), F32, -100, 100, 13)
    a[0, :3] = (0.0, -0.5, 2.75)
    a = a.astype(src) if src != np.bool_ else a > 0
    z = dev(np.zeros(a.shape, dst))
    run_op(aclnn.cast_get_workspace_size, aclnn.cast, dev(a), aclnn.data_type_of(dst), z)
    if dst.kind in "iu" and a.dtype.kind == "f":
        want = np.trunc(a.astype(np.float64)).astype(dst)
    elif dst == np.int8:
        want = a.astype(dst)  # integer narrowing keeps the low bits
    else:
        want = a.astype(dst)
    np.testing.assert_array_equal(z.numpy(), want)


@pytest.mark.parametrize(
    ("dt", "sdt"), [(F16, D.ACL_FLOAT), (np.dtype(np.int32), D.ACL_INT64), (np.dtype(np.int32), D.ACL_FLOAT)]
)
def test_adds_and_muls_follow_the_a2_scalar_rule(dev: Any, dt: np.dtype, sdt: D) -> None:
    a = _rand((2, 17), dt, -20, 20, 14)
    result = F32 if sdt == D.ACL_FLOAT and dt.kind == "i" else dt  # int tensor + float scalar -> f32
    z = dev(np.zeros(a.shape, result))
    run_op(aclnn.muls_get_workspace_size, aclnn.muls, dev(a), create_scalar(3, sdt), z)
    _close(z.numpy(), (a.astype(np.float64) * 3).astype(result), result)
    z2 = dev(np.zeros(a.shape, result))
    run_op(
        aclnn.subs_get_workspace_size, aclnn.subs, dev(a), create_scalar(2, sdt), create_scalar(2, sdt), z2
    )
    _close(z2.numpy(), (a.astype(np.float64) - 4).astype(result), result)


@pytest.mark.parametrize(
    ("name", "args", "fn"),
    [
        ("inplace_add", (2.0,), lambda a, b: a + 2 * b),
        ("inplace_sub", (1.0,), lambda a, b: a - b),
        ("inplace_mul", (), np.multiply),
        ("inplace_div", (), np.divide),
    ],
)
def test_inplace_binary(dev: Any, name: str, args: tuple[Any, ...], fn: Any) -> None:
    a, b = _rand((3, 10), F32, 1, 3, 15), _rand((10,), F32, 1, 3, 16)
    x = dev(a)
    run_op(getattr(aclnn, f"{name}_get_workspace_size"), getattr(aclnn, name), x, dev(b), *args)
    _close(x.numpy(), _ref(fn, a, b, dt=F32), F32)


@pytest.mark.parametrize(
    "name",
    [
        "inplace_neg",
        "inplace_exp",
        "inplace_relu",
        "inplace_sigmoid",
        "inplace_sqrt",
        "inplace_rsqrt",
        "inplace_log",
    ],
)
def test_inplace_unary(dev: Any, name: str) -> None:
    a = _rand((4, 9), F32, 0.5, 3, 17)
    x = dev(a)
    run_op(getattr(aclnn, f"{name}_get_workspace_size"), getattr(aclnn, name), x)
    fn = dict(UNARY)[name.removeprefix("inplace_")]
    _close(x.numpy(), _ref(fn, a, dt=F32), F32, rel=4)


def test_inplace_scalar_forms(dev: Any) -> None:
    a = _rand((33,), F16, seed=18)
    x = dev(a)
    run_op(aclnn.inplace_adds_get_workspace_size, aclnn.inplace_adds, x, 0.5, 2.0)
    run_op(aclnn.inplace_muls_get_workspace_size, aclnn.inplace_muls, x, 2.0)
    np.testing.assert_array_equal(x.numpy(), ((a + F16.type(1.0)) * F16.type(2)).astype(F16))


def test_tensor_wrapper_round_trip(rt: None) -> None:
    a = np.arange(12, dtype=np.int16).reshape(3, 4)
    with Tensor.from_numpy(a) as t:
        assert t.shape == (3, 4) and t.dtype == np.int16
        np.testing.assert_array_equal(t.numpy(), a)
        np.testing.assert_array_equal(t.view((2, 2), (4, 2), 1).numpy(), a[:2, 1::2])


def test_bool_arithmetic_gives_bool(dev: Any) -> None:
    a = np.array([True, False, True, False, True])
    b = np.array([True, True, False, False, False])
    z = dev(np.zeros(5, np.bool_))
    run_op(aclnn.add_get_workspace_size, aclnn.add, dev(a), dev(b), True, z)
    np.testing.assert_array_equal(z.numpy(), a | b)
    run_op(aclnn.mul_get_workspace_size, aclnn.mul, dev(a), dev(b), z)
    np.testing.assert_array_equal(z.numpy(), a & b)
    zi = dev(np.zeros(5, np.int32))
    run_op(aclnn.add_get_workspace_size, aclnn.add, dev(a), dev(b), 1, zi)
    np.testing.assert_array_equal(zi.numpy(), a.astype(np.int32) + b)


def test_narrow_integers_wrap(dev: Any) -> None:
    a = np.array([120, -120, 7], np.int8)
    z = dev(np.zeros(3, np.int8))
    run_op(aclnn.add_get_workspace_size, aclnn.add, dev(a), dev(a), 1, z)
    np.testing.assert_array_equal(z.numpy(), (a.astype(np.int16) * 2).astype(np.int8))
    u = np.array([250, 3], np.uint8)
    zu = dev(np.zeros(2, np.uint8))
    run_op(aclnn.mul_get_workspace_size, aclnn.mul, dev(u), dev(u), zu)
    np.testing.assert_array_equal(zu.numpy(), (u.astype(np.int32) ** 2).astype(np.uint8))


def test_inplace_forms_with_their_own_documented_rules(dev: Any) -> None:
    u = np.array([0, 7, 255], np.uint8)
    x = dev(u)  # InplaceRelu takes uint8 (Relu does not)
    run_op(aclnn.inplace_relu_get_workspace_size, aclnn.inplace_relu, x)
    np.testing.assert_array_equal(x.numpy(), u)
    with pytest.raises(AclnnParamInvalidError, match="Relu: self has dtype ACL_UINT8"):
        aclnn.relu_get_workspace_size(x, x)
    s = dev(np.float32(0.5))  # InplaceSigmoid: rank 1-8; Sigmoid: rank 0-8
    with pytest.raises(AclnnParamInvalidError, match="InplaceSigmoid: selfRef has rank 0"):
        aclnn.inplace_sigmoid_get_workspace_size(s)
    out = dev(np.float32(0))
    run_op(aclnn.sigmoid_get_workspace_size, aclnn.sigmoid, s, out)
    _close(out.numpy(), np.float32(1 / (1 + np.exp(-0.5))), F32)
