"""LayerNorm, LayerNormWithImplMode and RmsNorm on the aclnn executor against NumPy (float64
references): dtype combinations, optional operands, strided tensors, empty inputs, error statuses
(RmsNorm: 561002 for argument violations, 161002 for dtypes)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from aclnn_support import BF16, run_op

from aclsim.aclnn import compat
from aclsim.aclnn.ops.normalization import (
    layer_norm,
    layer_norm_get_workspace_size,
    layer_norm_with_impl_mode,
    layer_norm_with_impl_mode_get_workspace_size,
    rms_norm,
    rms_norm_get_workspace_size,
)
from aclsim.errors import AclnnNullptrError, AclnnParamInvalidError, AclnnTilingError

F32, F16 = np.dtype(np.float32), np.dtype(np.float16)
TOL = {F32: 2e-5, F16: 4e-3, BF16: 3e-2}


def _rand(shape: tuple[int, ...], dt: np.dtype, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dt)


def _close(got: np.ndarray, want: np.ndarray, dt: np.dtype) -> None:
    assert got.dtype == dt
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=TOL[dt], atol=TOL[dt])


def _ln_ref(x: np.ndarray, k: int, w: Any, b: Any, eps: float) -> tuple[np.ndarray, ...]:
    x = x.astype(np.float64)
    ax = tuple(range(x.ndim - k, x.ndim))
    mu = x.mean(axis=ax, keepdims=True)
    rstd = 1 / np.sqrt(x.var(axis=ax, keepdims=True) + eps)
    y = (x - mu) * rstd
    if w is not None:
        y = y * w.astype(np.float64)
    if b is not None:
        y = y + b.astype(np.float64)
    return y, mu, rstd


@pytest.mark.parametrize(("dt", "wdt"), [(F32, F32), (F16, F16), (F16, F32), (BF16, BF16), (BF16, F32)])
def test_layer_norm_dtypes(dev: Any, dt: np.dtype, wdt: np.dtype) -> None:
    x, w, b = _rand((3, 4, 37), dt, 0), _rand((37,), wdt, 1), _rand((37,), wdt, 2)
    out, mean, rstd = (dev(np.zeros(s, dt)) for s in ((3, 4, 37), (3, 4, 1), (3, 4, 1)))
    run_op(layer_norm_get_workspace_size, layer_norm, dev(x), [37], dev(w), dev(b), 1e-5, out, mean, rstd)
    y, mu, rs = _ln_ref(x, 1, w, b, 1e-5)
    _close(out.numpy(), y, dt)
    _close(mean.numpy(), mu, dt)
    np.testing.assert_allclose(rstd.numpy().astype(np.float64), rs, rtol=TOL[dt] * 4)


def test_layer_norm_optionals_two_dims_and_views(dev: Any) -> None:
    x = _rand((5, 6, 8), F32, 3)
    out = dev(np.zeros(x.shape, F32))
    run_op(layer_norm_get_workspace_size, layer_norm, dev(x), [6, 8], None, None, 1e-3, out, None, None)
    _close(out.numpy(), _ln_ref(x, 2, None, None, 1e-3)[0], F32)
    # a transposed input, a strided weight, a transposed out and a strided rstd: all through the workspace
    xt = dev(np.ascontiguousarray(x.transpose(0, 2, 1))).view((5, 6, 8), (48, 1, 6))
    wbig = _rand((2, 8), F32, 4)
    w = dev(wbig).view((8,), (1,), 8)  # row 1 of wbig: contiguous with an offset
    wstr = dev(np.ascontiguousarray(wbig.T)).view((8,), (2,), 1)  # a strided weight: column 1
    obig = dev(np.zeros((5, 8, 6), F32))
    o = obig.view((5, 6, 8), (48, 1, 6))
    rbig = dev(np.zeros((5, 6, 2), F32))
    r = rbig.view((5, 6, 1), (12, 2, 1))
    ex = run_op(layer_norm_get_workspace_size, layer_norm, xt, [8], wstr, w, 1e-5, o, None, r)
    assert ex.workspace_size > 0
    y, _, rs = _ln_ref(x, 1, wbig[1], wbig[1], 1e-5)
    _close(obig.numpy().transpose(0, 2, 1), y, F32)
    _close(rbig.numpy()[..., :1], rs, F32)
    assert not rbig.numpy()[..., 1].any()


def test_layer_norm_with_impl_mode(dev: Any) -> None:
    x, w = _rand((4, 64), F16, 5), _rand((64,), F16, 6)
    for mode in (0, 1, 2):
        out = dev(np.zeros(x.shape, F16))
        run_op(layer_norm_with_impl_mode_get_workspace_size, layer_norm_with_impl_mode, dev(x), [64], dev(w),
               None, 1e-5, out, None, None, mode)
        _close(out.numpy(), _ln_ref(x, 1, w, None, 1e-5)[0], F16)
    xf = dev(x.astype(F32))
    with pytest.raises(AclnnParamInvalidError, match="implMode 2"):
        layer_norm_with_impl_mode_get_workspace_size(xf, [64], None, None, 1e-5, dev(np.zeros(x.shape, F32)),
                                                     None, None, 2)
    with pytest.raises(AclnnParamInvalidError, match="implMode 3"):
        layer_norm_with_impl_mode_get_workspace_size(xf, [64], None, None, 1e-5, dev(np.zeros(x.shape, F32)),
                                                     None, None, 3)


def test_layer_norm_empty(dev: Any) -> None:
    mean = dev(np.zeros((3, 1), F32))
    ws, ex = layer_norm_get_workspace_size(dev(np.zeros((0, 8), F32)), [8], None, None, 1e-5,
                                           dev(np.zeros((0, 8), F32)), None, None)
    assert ws == 0 and ex.steps == []
    run_op(layer_norm_get_workspace_size, layer_norm, dev(np.zeros((3, 0), F32)), [0], None, None, 1e-5,
           dev(np.zeros((3, 0), F32)), mean, None)
    assert np.isnan(mean.numpy()).all()  # the mean of no elements


def test_layer_norm_errors(dev: Any) -> None:
    x, out = dev(np.zeros((4, 8), F32)), dev(np.zeros((4, 8), F32))
    for args, name in (((None, [8], None, None, 1e-5, out, None, None), "input"),
                       ((x, None, None, None, 1e-5, out, None, None), "normalizedShape"),
                       ((x, [8], None, None, 1e-5, None, None, None), "out")):
        with pytest.raises(AclnnNullptrError, match=name):
            layer_norm_get_workspace_size(*args)
    w16 = dev(np.zeros((8,), F16))
    bad = [
        (([], None, None, out, None), "1..2 dims"),
        (([4], None, None, out, None), "trailing"),
        (([8], dev(np.zeros((4,), F32)), None, out, None), "weightOptional has shape"),
        (([8], w16, None, out, None), "input's dtype or FLOAT"),
        (([8], None, None, dev(np.zeros((4, 8), F16)), None), "out has dtype"),
        (([8], None, None, out, dev(np.zeros((4,), F32))), "meanOutOptional has shape"),
    ]
    for (norm, w, b, o, m), match in bad:
        with pytest.raises(AclnnParamInvalidError, match=match):
            layer_norm_get_workspace_size(x, norm, w, b, 1e-5, o, m, None)
    with pytest.raises(AclnnParamInvalidError, match="give both"):
        layer_norm_get_workspace_size(dev(np.zeros((4, 8), F16)), [8], w16, dev(np.zeros((8,), F32)), 1e-5,
                                      dev(np.zeros((4, 8), F16)), None, None)
    ws, ex, ret = compat.aclnnLayerNormGetWorkspaceSize(x.desc, None, None, None, 1e-5, out.desc, None, None)
    assert ret == 161001


@pytest.mark.parametrize(("dt", "gdt"), [(F32, F32), (F16, F16), (F16, F32), (BF16, BF16), (BF16, F32)])
def test_rms_norm_dtypes(dev: Any, dt: np.dtype, gdt: np.dtype) -> None:
    x, g = _rand((3, 5, 40), dt, 7), _rand((5, 40), gdt, 8)
    y, rstd = dev(np.zeros(x.shape, dt)), dev(np.zeros((3, 1, 1), F32))
    run_op(rms_norm_get_workspace_size, rms_norm, dev(x), dev(g), 1e-6, y, rstd)
    x64 = x.astype(np.float64)
    rs = 1 / np.sqrt((x64 ** 2).mean(axis=(1, 2), keepdims=True) + 1e-6)
    _close(y.numpy(), x64 * rs * g.astype(np.float64), dt)
    np.testing.assert_allclose(rstd.numpy(), rs, rtol=TOL[dt] * 4)


def test_rms_norm_views_and_empty(dev: Any) -> None:
    x, g = _rand((6, 16), F32, 9), _rand((2, 16), F32, 10)
    xt = dev(np.ascontiguousarray(x.T)).view((6, 16), (1, 6))
    gs = dev(np.ascontiguousarray(g.T)).view((16,), (2,), 1)  # column 1 of g.T = g[1]
    y = dev(np.zeros((6, 16), F32))
    rstd = dev(np.zeros((6, 1), F32))
    ex = run_op(rms_norm_get_workspace_size, rms_norm, xt, gs, 1e-6, y, rstd)
    assert ex.workspace_size > 0
    rs = 1 / np.sqrt((x.astype(np.float64) ** 2).mean(1, keepdims=True) + 1e-6)
    _close(y.numpy(), x * rs * g[1], F32)
    ws, ex = rms_norm_get_workspace_size(dev(np.zeros((0, 16), F32)), dev(g[0]), 1e-6,
                                         dev(np.zeros((0, 16), F32)), dev(np.zeros((0, 1), F32)))
    assert ws == 0 and ex.steps == []


def test_rms_norm_errors(dev: Any) -> None:
    x, g, y, r = dev(np.zeros((4, 8), F16)), dev(np.zeros((8,), F16)), dev(np.zeros((4, 8), F16)), \
        dev(np.zeros((4, 1), F32))
    for i, name in enumerate(("x", "gamma", "yOut", "rstdOut")):
        args: list[Any] = [x, g, 1e-6, y, r]
        args[i if i < 2 else i + 1] = None
        with pytest.raises(AclnnNullptrError, match=name):
            rms_norm_get_workspace_size(*args)
    for args, match in (  # dtype violations: 161002
        ((x, g, 1e-6, y, dev(np.zeros((4, 1), F16))), "rstdOut"),
        ((x, dev(np.zeros((8,), BF16)), 1e-6, y, r), "gamma is ACL_BF16"),
        ((x, g, 1e-6, dev(np.zeros((4, 8), F32)), r), "yOut is ACL_FLOAT"),
        ((dev(np.zeros((4, 8), np.int32)), g, 1e-6, y, r), "ACL_INT32"),
    ):
        with pytest.raises(AclnnParamInvalidError, match=match):
            rms_norm_get_workspace_size(*args)
    for args, match in (  # argument violations: 561002
        ((x, dev(np.zeros((4,), F16)), 1e-6, y, r), "trailing"),
        ((x, dev(np.zeros((0,), F16)), 1e-6, y, r), "empty"),
        ((x, g, 1e-6, dev(np.zeros((4, 4), F16)), r), "yOut has shape"),
        ((x, g, 1e-6, y, dev(np.zeros((4,), F32))), "rstdOut has shape"),
        ((x, dev(np.zeros((2, 4, 8), F16)), 1e-6, y, r), "rank"),
        ((x, g, "small", y, r), "epsilon"),
    ):
        with pytest.raises(AclnnTilingError, match=match):
            rms_norm_get_workspace_size(*args)
    r1 = dev(np.zeros((4,), F32))
    ws, ex, ret = compat.aclnnRmsNormGetWorkspaceSize(x.desc, g.desc, 1e-6, y.desc, r1.desc)
    assert ret == 561002
