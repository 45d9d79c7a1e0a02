"""The executor's life cycle, the workspace rule, the meta API and every error path with its status."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from aclnn_support import run_op

import aclsim
from aclsim import aclnn
from aclsim.aclnn import DataType as D
from aclsim.aclnn import Format as F
from aclsim.aclnn import Tensor, create_scalar, create_tensor
from aclsim.aclnn.dtypes import can_cast, promote_scalar, promote_types
from aclsim.aclnn.executor import OpBuilder, bucket_layout, workspace_bytes
from aclsim.errors import (
    AclnnInnerNullptrError,
    AclnnNullptrError,
    AclnnParamInvalidError,
    AclnnRuntimeError,
    OpNotFoundError,
)


def test_enum_values_are_ascendcl_s() -> None:
    assert (D.ACL_FLOAT, D.ACL_FLOAT16, D.ACL_INT8, D.ACL_INT32, D.ACL_UINT8, D.ACL_BOOL, D.ACL_BF16) == (
        0,
        1,
        2,
        3,
        4,
        12,
        27,
    )
    assert (
        F.ACL_FORMAT_NCHW,
        F.ACL_FORMAT_ND,
        F.ACL_FORMAT_NC,
        F.ACL_FORMAT_NCL,
        F.ACL_FORMAT_FRACTAL_NZ,
    ) == (0, 2, 35, 47, 29)
    assert aclnn.element_size(D.ACL_BF16) == 2 and aclnn.numpy_dtype(D.ACL_BF16).name == "bfloat16"


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        (D.ACL_FLOAT16, D.ACL_BF16, D.ACL_FLOAT),
        (D.ACL_INT8, D.ACL_UINT8, D.ACL_INT16),
        (D.ACL_BOOL, D.ACL_INT8, D.ACL_INT8),
        (D.ACL_INT32, D.ACL_FLOAT16, D.ACL_FLOAT16),
        (D.ACL_FLOAT, D.ACL_COMPLEX32, D.ACL_COMPLEX64),
        (D.ACL_DOUBLE, D.ACL_COMPLEX64, D.ACL_COMPLEX128),
        (D.ACL_UINT16, D.ACL_INT32, None),
        (D.ACL_UINT8, D.ACL_INT64, D.ACL_INT64),
    ],
)
def test_tensor_tensor_promotion_table(a: D, b: D, want: D | None) -> None:
    assert promote_types(a, b) == want and promote_types(b, a) == want


def test_tensor_scalar_rules_and_conversion() -> None:
    assert promote_scalar(D.ACL_INT8, D.ACL_INT64) == D.ACL_INT8
    assert promote_scalar(D.ACL_BOOL, D.ACL_INT32) == D.ACL_INT32
    assert promote_scalar(D.ACL_UINT16, D.ACL_FLOAT) is None
    assert promote_scalar(D.ACL_FLOAT, D.ACL_COMPLEX64) == D.ACL_COMPLEX64
    assert not can_cast(D.ACL_FLOAT, D.ACL_BOOL) and not can_cast(D.ACL_COMPLEX64, D.ACL_INT32)
    assert can_cast(D.ACL_BOOL, D.ACL_FLOAT) and can_cast(D.ACL_COMPLEX64, D.ACL_FLOAT)


def test_meta_api_getters_and_rules() -> None:
    t = create_tensor([6, 5], D.ACL_FLOAT16, [10, 1], 22, F.ACL_FORMAT_ND, [10, 10], 64)
    assert (aclnn.get_view_shape(t), aclnn.get_view_strides(t), aclnn.get_view_offset(t)) == (
        (6, 5),
        (10, 1),
        22,
    )
    assert (aclnn.get_storage_shape(t), aclnn.get_format(t), aclnn.get_data_type(t)) == (
        (10, 10),
        F.ACL_FORMAT_ND,
        D.ACL_FLOAT16,
    )
    assert aclnn.get_raw_tensor_addr(t) == 64
    aclnn.set_raw_tensor_addr(t, 128)
    assert aclnn.get_raw_tensor_addr(t) == 128
    arrays = [aclnn.create_int_array([]), aclnn.create_float_array([1.5]), aclnn.create_bool_array([1, 0])]
    assert [aclnn.get_array_size(a) for a in arrays] == [0, 1, 2]
    lst = aclnn.create_tensor_list([t])
    assert aclnn.get_array_size(lst) == 1
    assert aclnn.destroy_tensor_list(lst) == 0 and not t.alive
    assert aclnn.destroy_tensor(None) == 0
    with pytest.raises(AclnnParamInvalidError, match="destroyed"):
        aclnn.get_view_shape(t)
    s = create_scalar(3, D.ACL_INT8)
    assert aclnn.destroy_scalar(s) == 0
    with pytest.raises(AclnnParamInvalidError, match="already destroyed"):
        aclnn.destroy_scalar(s)


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        (dict(view_dims=None), AclnnNullptrError, "view_dims is None"),
        (dict(device_addr=48), AclnnParamInvalidError, "not 32 B aligned"),
        (dict(format=F.ACL_FORMAT_NCHW), AclnnParamInvalidError, "NCHW needs rank 4"),
        (dict(format=F.ACL_FORMAT_FRACTAL_NZ), AclnnParamInvalidError, "not accepted"),
        (dict(data_type=D.ACL_INT4), AclnnParamInvalidError, "not modelled"),
        (dict(data_type=99), AclnnParamInvalidError, "not an aclDataType"),
        (dict(strides=[1]), AclnnParamInvalidError, "strides has 1"),
        (dict(offset=-1), AclnnParamInvalidError, ">= 0"),
        (dict(storage_dims=[2, 2]), AclnnParamInvalidError, "past the storage"),
        (dict(view_dims=[1] * 9, storage_dims=[1]), AclnnParamInvalidError, "more than 8"),
    ],
)
def test_create_tensor_errors(kwargs: dict[str, Any], exc: type, match: str) -> None:
    args: dict[str, Any] = dict(
        view_dims=[2, 3],
        data_type=D.ACL_FLOAT,
        strides=None,
        offset=0,
        format=F.ACL_FORMAT_ND,
        storage_dims=None,
        device_addr=None,
    )
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        create_tensor(**args)


def test_workspace_buckets_follow_max_allocator() -> None:
    assert workspace_bytes(0) == 512 and workspace_bytes(480) == 512 and workspace_bytes(481) == 1024
    # a, b live together; c reuses a's bucket (a is dead by then), d overlaps everything before it
    size, offsets = bucket_layout([(100, 0, 1), (2000, 1, 2), (3000, 2, 3), (10, 0, 3)])
    assert offsets == [0, 3072, 0, 3072 + 2048] and size == 3072 + 2048 + 512  # bucket 0 grows to c's 3072


def _add(dev: Any, n: int = 40) -> tuple[Tensor, Tensor, Tensor]:
    a = np.arange(n, dtype=np.float32)
    return dev(a), dev(a), dev(np.zeros_like(a))


def test_executor_is_consumed_by_its_run(dev: Any) -> None:
    x, y, z = _add(dev)
    ws, ex = aclnn.add_get_workspace_size(x, y, 1.0, z)
    aclnn.add(None, ws, ex, None)
    with pytest.raises(AclnnNullptrError, match="freed"):
        aclnn.add(None, ws, ex, None)
    with pytest.raises(AclnnNullptrError, match="executor is None"):
        aclnn.add(None, 0, None, None)


def test_repeatable_executor_reruns_and_rebinds(dev: Any) -> None:
    x, y, z = _add(dev)
    z2 = dev(np.zeros(40, np.float32))
    ws, ex = aclnn.mul_get_workspace_size(x, y, z)
    aclnn.set_executor_repeatable(ex)
    aclnn.mul(None, ws, ex, None)
    aclnn.set_output_tensor_addr(ex, 0, z.desc, z2.desc.device_addr)
    aclnn.mul(None, ws, ex, None)
    np.testing.assert_array_equal(z.numpy(), np.arange(40.0) ** 2)
    np.testing.assert_array_equal(z2.numpy(), np.arange(40.0) ** 2)
    with pytest.raises(AclnnParamInvalidError, match="out of range"):
        aclnn.set_input_tensor_addr(ex, 2, x.desc, x.desc.device_addr)
    with pytest.raises(AclnnParamInvalidError, match="32 B aligned"):
        aclnn.set_input_tensor_addr(ex, 0, x.desc, x.desc.device_addr + 4)
    with pytest.raises(AclnnInnerNullptrError):
        aclnn.set_input_tensor_addr(None, 0, x.desc, 0)
    with pytest.raises(AclnnInnerNullptrError):
        aclnn.set_input_tensor_addr(ex, 0, None, 0)
    aclnn.destroy_executor(ex)
    with pytest.raises(AclnnNullptrError, match="freed"):
        aclnn.mul(None, ws, ex, None)
    with pytest.raises(AclnnInnerNullptrError):
        aclnn.destroy_executor(None)
    with pytest.raises(AclnnInnerNullptrError):
        aclnn.set_executor_repeatable(None)


def test_destroy_of_a_non_repeatable_executor_is_refused(dev: Any) -> None:
    x, y, z = _add(dev)
    ws, ex = aclnn.add_get_workspace_size(x, y, 1.0, z)
    with pytest.raises(AclnnParamInvalidError, match="not repeatable"):
        aclnn.destroy_executor(ex)
    aclnn.add(None, ws, ex, None)  # intact: it still runs


def _needs_workspace(rt: None) -> tuple[int, Any]:
    b = OpBuilder("Scratch")
    tmp = b.workspace(1000)
    b.fill(tmp, 0, 1000)
    return b.finish()


def test_workspace_missing_or_small(rt: None) -> None:
    ws, ex = _needs_workspace(rt)
    assert ws == 1536
    with pytest.raises(AclnnParamInvalidError, match="stricter than the device"):
        aclnn.run(aclsim.malloc(512), 512, ex, None)
    assert ex.alive  # a failed call leaves the executor intact
    with pytest.raises(AclnnNullptrError, match="executor is freed"):
        aclnn.run(None, ws, ex, None)
    assert not ex.alive


def test_runtime_failure_at_enqueue_is_361001(dev: Any) -> None:
    x, y, z = _add(dev)
    ws, ex = aclnn.add_get_workspace_size(x, y, 1.0, z)
    s = aclsim.create_stream()
    aclsim.destroy_stream(s)
    with pytest.raises(AclnnRuntimeError) as info:
        aclnn.add(None, ws, ex, s)
    assert info.value.code == 361001


def test_unbound_address_is_named(rt: None) -> None:
    x = create_tensor([8], D.ACL_FLOAT)
    ws, ex = aclnn.neg_get_workspace_size(x, x)
    with pytest.raises(AclnnNullptrError, match="input 0 of Neg has no device address"):
        aclnn.neg(None, ws, ex, None)


def test_registry() -> None:
    assert {"Add", "InplaceAdd", "Adds", "Cast", "Gelu", "InplaceRelu"} <= set(aclnn.op_names())
    assert aclnn.get_op("Add").get_workspace_size is aclnn.add_get_workspace_size
    with pytest.raises(OpNotFoundError) as info:
        aclnn.get_op("NoSuchOp")
    assert info.value.code == 100024


def _t(dev: Any, shape: tuple[int, ...], dt: Any) -> Tensor:
    return dev(np.zeros(shape, dt))


@pytest.mark.parametrize(
    ("case", "exc", "match"),
    [
        ("null self", AclnnNullptrError, "Add: self is None"),
        ("null alpha", AclnnNullptrError, "Add: alpha is None"),
        ("no promotion", AclnnParamInvalidError, "self has dtype ACL_UINT16"),
        ("bad out cast", AclnnParamInvalidError, "cannot be cast to out"),
        ("no broadcast", AclnnParamInvalidError, "cannot be broadcast"),
        ("out shape", AclnnParamInvalidError, "out has shape"),
        ("bool alpha", AclnnParamInvalidError, "alpha ACL_FLOAT cannot be cast"),
        ("u64", AclnnParamInvalidError, "self has dtype ACL_UINT64"),
        ("not a tensor", AclnnParamInvalidError, "must be an AclTensor"),
    ],
)
def test_add_errors(dev: Any, case: str, exc: type, match: str) -> None:
    f32 = (3, 4), np.float32
    a, b, out = _t(dev, *f32), _t(dev, *f32), _t(dev, *f32)
    alpha: Any = 1.0
    if case == "null self":
        a = None  # type: ignore[assignment]
    elif case == "null alpha":
        alpha = None
    elif case == "no promotion":
        a, b = _t(dev, (3, 4), np.uint16), _t(dev, (3, 4), np.int32)
    elif case == "bad out cast":
        out = _t(dev, (3, 4), np.bool_)
    elif case == "no broadcast":
        b = _t(dev, (3, 5), np.float32)
    elif case == "out shape":
        out = _t(dev, (12,), np.float32)
    elif case == "bool alpha":
        a, b, out = (_t(dev, (3, 4), np.bool_) for _ in range(3))
    elif case == "u64":  # not in Add's list (float64 is: it runs on the AI CPU)
        a = _t(dev, (3, 4), np.uint64)
    elif case == "not a tensor":
        a = np.zeros((3, 4))  # type: ignore[assignment]
    with pytest.raises(exc, match=match) as info:
        aclnn.add_get_workspace_size(a, b, alpha, out)
    assert info.value.code == (161001 if exc is AclnnNullptrError else 161002)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda t: aclnn.exp_get_workspace_size(t["bool"], t["i32"]), "a floating dtype is needed"),
        (lambda t: aclnn.exp_get_workspace_size(t["i32"], t["f32"]), "Exp: self has dtype ACL_INT32"),
        (lambda t: aclnn.relu_get_workspace_size(t["f32"], t["f16"]), "out must have self's dtype"),
        (lambda t: aclnn.log_get_workspace_size(t["rank0"], t["rank0"]), "rank 0, outside 1..8"),
        (lambda t: aclnn.gelu_get_workspace_size(t["i32"], t["i32"]), "Gelu: self has dtype ACL_INT32"),
        (
            lambda t: aclnn.cast_get_workspace_size(t["f32"], D.ACL_FLOAT16, t["f32"]),
            "dtype says ACL_FLOAT16",
        ),
        (lambda t: aclnn.cast_get_workspace_size(t["f32"], 99, t["f32"]), "not an aclDataType"),
        (lambda t: aclnn.abs_get_workspace_size(t["f32"], t["other"]), "out has shape"),
        (lambda t: aclnn.inplace_add_get_workspace_size(t["f32"], t["wide"], 1.0), "selfRef has shape"),
        (lambda t: aclnn.muls_get_workspace_size(t["u16"], 1.5, t["f32"]), "self has dtype ACL_UINT16"),
    ],
)
def test_unary_and_scalar_errors(dev: Any, call: Any, match: str) -> None:
    t = {
        "f32": _t(dev, (2, 3), np.float32),
        "f16": _t(dev, (2, 3), np.float16),
        "i32": _t(dev, (2, 3), np.int32),
        "rank0": _t(dev, (), np.float32),
        "other": _t(dev, (3, 2), np.float32),
        "wide": _t(dev, (4, 2, 3), np.float32),
        "u16": _t(dev, (2, 3), np.uint16),
        "bool": _t(dev, (2, 3), np.bool_),
    }
    with pytest.raises(AclnnParamInvalidError, match=match):
        call(t)


def test_out_overlapping_itself_is_refused(dev: Any) -> None:
    x = dev(np.zeros((4, 3), np.float32))
    out = x.view((4, 3), (0, 1), 0)
    with pytest.raises(AclnnParamInvalidError, match="overlap"):
        aclnn.neg_get_workspace_size(x, out)


def test_empty_inputs_give_no_kernel_and_no_workspace(dev: Any) -> None:
    e = dev(np.zeros((0, 3), np.float32))
    ex = run_op(aclnn.add_get_workspace_size, aclnn.add, e, e, 1.0, e)
    assert ex.launches == [] and ex.workspace_size == 0


def test_int16_broadcast_merges_to_at_most_five_axes(dev: Any) -> None:
    a = dev(np.zeros((2, 1, 2, 1, 2, 1), np.int16))
    b = dev(np.zeros((1, 2, 1, 2, 1, 2), np.int16))
    out = dev(np.zeros((2,) * 6, np.int16))
    with pytest.raises(AclnnParamInvalidError, match="merges to 6 axes"):
        aclnn.mul_get_workspace_size(a, b, out)
    f = dev(np.zeros((2, 1, 2, 1, 2, 1), np.float32))
    fo = dev(np.zeros((2,) * 6, np.float32))
    aclnn.mul_get_workspace_size(f, dev(np.zeros((1, 2, 1, 2, 1, 2), np.float32)), fo)  # float32: no limit
    c, d = dev(np.zeros((2,) * 6, np.int16)), dev(np.zeros((2, 2, 2), np.int16))  # merge to 2 axes
    aclnn.mul_get_workspace_size(c, d, out)


def test_phase_two_neither_validates_nor_plans(dev: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import aclsim.aclnn.kernels.elementwise as kernels
    import aclsim.aclnn.ops.elementwise as ops

    x, y, z = _add(dev)
    ws, ex = aclnn.add_get_workspace_size(x, y, 1.0, z)

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("phase two planned or validated")

    for module, name in ((kernels, "plan_elementwise"), (kernels, "elementwise_kernel"), (ops, "require"),
                         (ops, "broadcast_shapes"), (ops, "plan_elementwise")):
        monkeypatch.setattr(module, name, refuse)
    aclnn.add(None, ws, ex, None)
    np.testing.assert_array_equal(z.numpy(), 2 * np.arange(40.0))
