"""Vector instructions on UB tensors (PIPE_V), reference section 2.6: the whole family in one place.

Every instruction has the "first n elements" form ``op(dst, src..., count)`` and most have
the high-dimensional form ``op(dst, src..., mask, repeat_times, RepeatParams)`` (the
repeat model: :mod:`aclsim.kernel.repeat`).  By family:

- :mod:`aclsim.kernel.elementwise`: the table of elementwise instructions (``add``, ``exp``,
  ``adds``...) and ``duplicate``;
- :mod:`aclsim.kernel.conversion`: ``cast`` (``RoundMode``);
- :mod:`aclsim.kernel.comparison`: ``compare``, ``compare_scalar``, ``select`` (bit masks);
- :mod:`aclsim.kernel.reduction`: ``reduce_*``, ``whole_reduce_*``, ``repeat_reduce_sum``,
  ``block_reduce_*``, ``pair_reduce_sum``;
- :mod:`aclsim.kernel.mask`: the mask register and counter mode (``set_mask_count``,
  ``set_vector_mask``, ``MASK_PLACEHOLDER``, the ``is_set_mask`` keyword);
- :mod:`aclsim.kernel.gather`: ``brcb``, ``gather``, ``gather_mask``, the UB -> UB ``copy``;
- :mod:`aclsim.kernel.quant`: ``set_deq_scale`` (``cast`` int32 -> half).

Arithmetic is done in the operands' dtype, as the vector unit does; each instruction is one
NumPy call (plus a cached index array for the strided form).
"""

from aclsim.kernel.comparison import CMPMODE, SELMODE, compare, compare_scalar, select
from aclsim.kernel.conversion import RoundMode, cast, cast_values
from aclsim.kernel.elementwise import *  # noqa: F403  (the table's instructions and duplicate)
from aclsim.kernel.elementwise import ELEMENTWISE, duplicate
from aclsim.kernel.gather import (
    BrcbRepeatParams,
    CopyRepeatParams,
    GatherMaskParams,
    brcb,
    copy,
    gather,
    gather_mask,
)
from aclsim.kernel.mask import (
    MASK_PLACEHOLDER,
    MaskMode,
    reset_mask,
    set_mask_count,
    set_mask_norm,
    set_vector_mask,
)
from aclsim.kernel.quant import set_deq_scale
from aclsim.kernel.reduction import (
    ReduceOrder,
    block_reduce_max,
    block_reduce_min,
    block_reduce_sum,
    pair_reduce_sum,
    reduce_max,
    reduce_min,
    reduce_sum,
    repeat_reduce_sum,
    whole_reduce_max,
    whole_reduce_min,
    whole_reduce_sum,
)
from aclsim.kernel.repeat import ARITH, FLOATS, BinaryRepeatParams, UnaryRepeatParams

__all__ = [
    "ARITH",
    "FLOATS",
    "CMPMODE",
    "SELMODE",
    "BinaryRepeatParams",
    "ReduceOrder",
    "RoundMode",
    "UnaryRepeatParams",
    "cast",
    "cast_values",
    "compare",
    "compare_scalar",
    "duplicate",
    "reduce_max",
    "reduce_min",
    "reduce_sum",
    "select",
    "whole_reduce_max",
    "whole_reduce_min",
    "whole_reduce_sum",
    # issue 13: mask register, counter mode, more reductions
    "MASK_PLACEHOLDER",
    "MaskMode",
    "block_reduce_max",
    "block_reduce_min",
    "block_reduce_sum",
    "pair_reduce_sum",
    "repeat_reduce_sum",
    "reset_mask",
    "set_mask_count",
    "set_mask_norm",
    "set_vector_mask",
    "BrcbRepeatParams",
    "CopyRepeatParams",
    "GatherMaskParams",
    "brcb",
    "copy",
    "gather",
    "gather_mask",
    "set_deq_scale",
    *ELEMENTWISE,  # the elementwise instructions, one line each in the table of kernel/elementwise.py
]
