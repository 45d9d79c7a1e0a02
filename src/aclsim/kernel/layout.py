"""``Shape``, ``Stride``, ``Coord``, ``Layout`` and ``Crd2Idx``: the layout helpers of Ascend C's
auxiliary data structures (kernel_operator_layout.h; Atlas A2/A3 series).

``Shape<Ts...>``, ``Stride<Ts...>`` and ``Coord<Ts...>`` are ``Std::tuple`` aliases, so in Python
they are tuples (``MakeShape(10, 20)`` -> ``make_shape(10, 20)`` == ``(10, 20)``; ``Std::Int<16>{}``
is ``16``; ``Std::get<i>(t)`` is ``t[i]``).  Their elements may be tuples themselves
(hierarchical shapes).  A ``Layout`` pairs a shape with a stride of the same structure (strides
in elements) and maps a coordinate to a memory index with ``Crd2Idx``, as documented:

- a coordinate of the layout's structure: ``sum(c_i * s_i)`` over the leaves;
- an integer where the shape has a tuple: the integer is first spread over that tuple's modes
  column-major (``c % d0``, ``(c // d0) % d1``, ...), the last mode taking what is left
  (the documented example: coordinate ``(11, 12)`` on ``((2, 4), (3, 5)) : ((3, 6), (1, 24))``
  is ``((1, 5), (0, 4))``, index 129).

These are scalar computations of the kernel (constexpr on the device): nothing is recorded.
The Ascend 950's TensorAPI layouts, which share these names there, are another API.
"""

from __future__ import annotations

import math
from typing import Any

#: ``Shape<Ts...>``, ``Stride<Ts...>``, ``Coord<Ts...>``: ``Std::tuple`` aliases, tuples here.
Shape = Stride = Coord = tuple


def make_shape(*t: Any) -> tuple[Any, ...]:
    """``MakeShape(t...)``: the extents (ints or nested shapes) as a Shape.

    >>> make_shape(10, 20, make_shape(2, 3))
    (10, 20, (2, 3))
    """
    return tuple(t)


def make_stride(*t: Any) -> tuple[Any, ...]:
    """``MakeStride(t...)``: the strides, in elements, as a Stride."""
    return tuple(t)


def make_coord(*t: Any) -> tuple[Any, ...]:
    """``MakeCoord(t...)``: the coordinates as a Coord."""
    return tuple(t)


def _size(shape: Any) -> int:
    if isinstance(shape, tuple):
        return math.prod(_size(s) for s in shape)
    return int(shape)


def _congruent(a: Any, b: Any) -> bool:
    if isinstance(a, tuple) or isinstance(b, tuple):
        return (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)
                and all(_congruent(x, y) for x, y in zip(a, b, strict=True)))
    return True


def crd2idx(coord: Any, shape: Any, stride: Any = None) -> int:
    """``Crd2Idx(coord, layout)`` or ``Crd2Idx(coord, shape, stride)``: the memory index (in
    elements) of ``coord`` (module docstring).

    >>> crd2idx((1, 2, 3), (3, 4, 5), (20, 5, 1))
    33
    >>> crd2idx((11, 12), Layout(((2, 4), (3, 5)), ((3, 6), (1, 24))))
    129
    """
    if stride is None:
        if not isinstance(shape, Layout):
            raise TypeError("crd2idx(coord, layout) or crd2idx(coord, shape, stride)")
        shape, stride = shape.get_shape(), shape.get_stride()
    if not _congruent(shape, stride):
        raise ValueError(f"shape {shape} and stride {stride} differ in structure")
    return _crd2idx(coord, shape, stride)


def _crd2idx(coord: Any, shape: Any, stride: Any) -> int:
    if isinstance(coord, tuple):
        if not isinstance(shape, tuple) or len(coord) != len(shape):
            raise ValueError(f"coordinate {coord} does not match shape {shape}")
        return sum(_crd2idx(c, s, d) for c, s, d in zip(coord, shape, stride, strict=True))
    c = int(coord)
    if not isinstance(shape, tuple):
        return c * int(stride)
    index = 0
    for k, (s, d) in enumerate(zip(shape, stride, strict=True)):
        if k == len(shape) - 1:
            index += _crd2idx(c, s, d)
        else:
            n = _size(s)
            index += _crd2idx(c % n, s, d)
            c //= n
    return index


class Layout:
    """``Layout<ShapeType, StrideType>(shape, stride)``: a shape and its strides; ``layout(coord)``
    is ``Crd2Idx(coord, layout)``.

    >>> lay = make_layout(make_shape(4, 2), make_stride(4, 1))
    >>> lay.get_shape(), lay.get_stride(), lay((3, 1)), lay(5)
    ((4, 2), (4, 1), 13, 5)
    """

    __slots__ = ("shape", "stride")

    def __init__(self, shape: Any = (), stride: Any = ()) -> None:
        if not _congruent(shape, stride):
            raise ValueError(f"Layout of shape {shape} and stride {stride}: they differ in structure "
                             "(one stride per extent)")
        self.shape, self.stride = shape, stride

    def get_shape(self) -> Any:
        """``GetShape()``."""
        return self.shape

    def get_stride(self) -> Any:
        """``GetStride()``."""
        return self.stride

    def layout(self) -> Layout:
        """``layout()``: the layout itself."""
        return self

    def __call__(self, coord: Any) -> int:
        return _crd2idx(coord, self.shape, self.stride)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and (self.shape, self.stride) == (other.shape, other.stride)

    def __hash__(self) -> int:
        return hash((self.shape, self.stride))

    def __repr__(self) -> str:
        return f"<Layout {self.shape}:{self.stride}>"


def make_layout(shape: Any, stride: Any) -> Layout:
    """``MakeLayout(shape, stride)``."""
    return Layout(shape, stride)


def is_layout(x: Any) -> bool:
    """``is_layout<T>::value``: whether ``x`` is a Layout."""
    return isinstance(x, Layout)
