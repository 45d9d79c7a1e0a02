"""Phase-one checks shared by every op: each failure names the argument and carries the
documented status (161001 for ``None``, 161002 for a bad dtype, shape, rank or format).

>>> from aclsim.aclnn.meta import create_tensor
>>> from aclsim.aclnn.dtypes import DataType
>>> a = create_tensor([4, 1], DataType.ACL_FLOAT); b = create_tensor([3], DataType.ACL_FLOAT)
>>> broadcast_shapes(("self", a), ("other", b))
(4, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from aclsim.aclnn.dtypes import DataType, can_cast
from aclsim.aclnn.meta import MAX_RANK, AclScalar, AclTensor, create_scalar
from aclsim.errors import AclnnNullptrError, AclnnParamInvalidError

__all__ = [
    "broadcast_shapes",
    "broadcast_strides",
    "check_castable",
    "check_dtype",
    "check_rank",
    "check_shape",
    "dtype_names",
    "memory_span",
    "operands",
    "overlaps",
    "partly_overlaps",
    "require",
    "same_elements",
]


def require(op: str, *named: tuple[str, Any], kinds: dict[str, type] | None = None) -> None:
    """161001 for the first ``None`` among ``(name, value)`` pairs (in the documented order),
    161002 for a destroyed object or one of the wrong kind."""
    for name, value in named:
        if value is None:
            raise AclnnNullptrError(f"{op}: {name} is None", hint=f"pass {name}")
        expected = (kinds or {}).get(name, AclScalar if isinstance(value, AclScalar) else AclTensor)
        if not isinstance(value, expected):
            raise AclnnParamInvalidError(
                f"{op}: {name} must be an {expected.__name__}, got {type(value).__name__}"
            )
        if not getattr(value, "alive", False):
            raise AclnnParamInvalidError(f"{op}: {name} {value!r} was destroyed", hint="create it again")


def operands(*values: Any) -> list[Any]:
    """The Pythonic conveniences of phase one: a :class:`~aclsim.aclnn.Tensor` stands for its
    ``desc``, a Python number for an ``aclScalar`` (float -> ACL_FLOAT, int -> ACL_INT64,
    bool -> ACL_BOOL); anything else is passed through unchanged."""
    out = []
    for v in values:
        if isinstance(v, (bool, np.bool_)):
            v = create_scalar(bool(v), DataType.ACL_BOOL)
        elif isinstance(v, (int, np.integer)) and not isinstance(v, AclScalar):
            v = create_scalar(int(v), DataType.ACL_INT64)
        elif isinstance(v, (float, np.floating)):
            v = create_scalar(float(v), DataType.ACL_FLOAT)
        else:
            v = getattr(v, "desc", v)
        out.append(v)
    return out


def dtype_names(dtypes: Iterable[DataType]) -> str:
    return ", ".join(DataType(d).name for d in dtypes)


def check_dtype(op: str, name: str, dt: DataType, allowed: Iterable[DataType], why: str = "") -> None:
    """161002 unless ``dt`` is among ``allowed``."""
    allowed = tuple(allowed)
    if dt not in allowed:
        raise AclnnParamInvalidError(
            f"{op}: {name} has dtype {DataType(dt).name}{why}", hint=f"use one of {dtype_names(allowed)}"
        )


def check_castable(op: str, src: DataType, name: str, dst: DataType) -> None:
    """161002 if a ``src`` result may not be written into ``name`` of dtype ``dst`` (reference 5.3)."""
    if not can_cast(src, dst):
        raise AclnnParamInvalidError(
            f"{op}: the result dtype {DataType(src).name} cannot be cast to {name}'s "
            f"dtype {DataType(dst).name}",
            hint=f"give {name} a dtype the result converts to (not bool; not integer from complex)",
        )


def check_rank(op: str, name: str, t: AclTensor, lo: int = 0, hi: int = MAX_RANK) -> None:
    if not lo <= t.rank <= hi:
        raise AclnnParamInvalidError(f"{op}: {name} has rank {t.rank}, outside {lo}..{hi}")


def check_shape(op: str, name: str, t: AclTensor, shape: tuple[int, ...], what: str) -> None:
    """161002 unless ``t``'s shape is ``shape`` (no implicit reshape)."""
    if tuple(t.view_dims) != tuple(shape):
        raise AclnnParamInvalidError(
            f"{op}: {name} has shape {list(t.view_dims)}, expected {list(shape)} ({what})"
        )


def broadcast_shapes(*named: tuple[str, AclTensor]) -> tuple[int, ...]:
    """The NumPy broadcast of the tensors' shapes; 161002 naming the two that disagree."""
    rank = max(t.rank for _, t in named)
    out = [1] * rank
    who = [""] * rank
    for name, t in named:
        dims = (1,) * (rank - t.rank) + tuple(t.view_dims)
        for i, d in enumerate(dims):
            if d == out[i] or d == 1:
                continue
            if out[i] == 1:
                out[i], who[i] = d, name
                continue
            raise AclnnParamInvalidError(
                f"{named[0][0] if not who[i] else who[i]} and {name} cannot be broadcast: dim {i - rank} is "
                f"{out[i]} against {d}",
                hint="sizes must be equal or 1 (NumPy broadcasting)",
            )
    if rank > MAX_RANK:
        raise AclnnParamInvalidError(f"broadcast rank {rank} is more than {MAX_RANK}")
    return tuple(out)


def broadcast_strides(
    t: AclTensor, shape: tuple[int, ...], strides: Sequence[int] | None = None
) -> tuple[int, ...]:
    """``t``'s strides (or ``strides``, another layout of its view) over ``shape``, 0 where it broadcasts."""
    pad = len(shape) - t.rank
    st = [0] * pad
    for d, s in zip(t.view_dims, t.strides if strides is None else strides, strict=True):
        st.append(0 if d == 1 else s)
    return tuple(st)


# --- memory overlap (decided from the addresses known at phase one) -----------------------------


def memory_span(t: AclTensor, strides: Sequence[int] | None = None) -> tuple[int, int] | None:
    """The byte interval ``[lo, hi)`` that ``t``'s view spans (``strides``: another layout of the
    view); ``None`` for a tensor without a device address yet or without elements."""
    if not t.device_addr or not t.numel:
        return None
    st = t.strides if strides is None else strides
    first = t.offset + sum(min(0, (n - 1) * s) for n, s in zip(t.view_dims, st, strict=True))
    last = t.offset + sum(max(0, (n - 1) * s) for n, s in zip(t.view_dims, st, strict=True))
    return t.device_addr + first * t.itemsize, t.device_addr + (last + 1) * t.itemsize


def overlaps(a: AclTensor, b: AclTensor) -> bool:
    """Whether the memory of ``a``'s view meets ``b``'s (``False`` while either has no address)."""
    sa, sb = memory_span(a), memory_span(b)
    return sa is not None and sb is not None and sa[0] < sb[1] and sb[0] < sa[1]


def same_elements(
    a: AclTensor, a_strides: Sequence[int], b: AclTensor, b_strides: Sequence[int], shape: Sequence[int]
) -> bool:
    """Whether ``a`` and ``b``, read over ``shape`` with those (broadcast) strides in elements,
    name the same memory element for element: the same first byte, the same element size, the
    same strides on every dim of size > 1 (a true inplace operand; a broadcast one is not)."""
    return (
        a.device_addr + a.offset * a.itemsize == b.device_addr + b.offset * b.itemsize
        and a.itemsize == b.itemsize
        and all(n == 1 or sa == sb for n, sa, sb in zip(shape, a_strides, b_strides, strict=True))
    )


def partly_overlaps(
    a: AclTensor, a_strides: Sequence[int], b: AclTensor, b_strides: Sequence[int], shape: Sequence[int]
) -> bool:
    """Whether ``a`` must be staged before an op writes ``b``: their memory meets other than
    element for element (see :func:`same_elements`)."""
    return overlaps(a, b) and not same_elements(a, a_strides, b, b_strides, shape)
