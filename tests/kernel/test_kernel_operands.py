"""One operand check for copies, vector and cube instructions: the same faults, worded alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import aclsim.kernel as asc
from aclsim import errors

F16, F32 = asc.float16, asc.float32
P = asc.TPosition
VEC, CUBE = errors.ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, errors.ACL_ERROR_RT_AICORE_EXCEPTION


@asc.kernel
def operands(case: Callable[..., None], x: Any) -> None:
    """Local tensors in every memory (UB 256 B, L1 1 KiB, L0A/L0B 1 KiB, L0C 2 KiB) handed to ``case``."""
    pipe = asc.TPipe()
    bufs = {pos: asc.TBuf(pos) for pos in (P.VECCALC, P.A1, P.A2, P.B2, P.CO1)}
    for pos, buf in bufs.items():
        pipe.init_buffer(buf, {P.VECCALC: 256, P.CO1: 2048}.get(pos, 1024))
    g, odd = asc.GlobalTensor(F16), asc.GlobalTensor(F16)
    g.set_global_buffer(x)
    odd.set_global_buffer(x + 1)  # one byte in: not aligned to sizeof(half)
    ub, l1, l0a, l0b = (bufs[p].get(F16) for p in (P.VECCALC, P.A1, P.A2, P.B2))
    case(ub, l1, l0a, l0b, bufs[P.CO1].get(F32), g, odd)


MM = asc.MmadParams(16, 16, 16)
F322F16 = asc.QuantMode.F322F16
CASES = [
    # misaligned: the instruction, the operand, its memory, the address and the alignment
    (lambda ub, l1, a, b, c, g, odd: asc.add(ub[8], ub, ub, 16), errors.MisalignedAccessError, VEC,
     "add: dst UB address 16 is not 32 B aligned"),
    (lambda ub, l1, a, b, c, g, odd: asc.data_copy(g, ub[1], 16), errors.MisalignedAccessError, VEC,
     "data_copy: src UB address 2 is not 32 B aligned"),
    (lambda ub, l1, a, b, c, g, odd: asc.load_data(a[16], l1, asc.LoadData2DParams(0, 1, 1)),
     errors.MisalignedAccessError, CUBE, "load_data: dst L0A address 32 is not 512 B aligned"),
    (lambda ub, l1, a, b, c, g, odd: asc.mmad(c[8], a, b, MM), errors.MisalignedAccessError, CUBE,
     "mmad: dst L0C address 32 is not 64 B aligned"),
    # a misaligned global operand: the code of the side of the core it moves data to or from
    (lambda ub, l1, a, b, c, g, odd: asc.data_copy(ub, odd, 16), errors.MisalignedAccessError, VEC,
     "data_copy: src global address 0x"),
    (lambda ub, l1, a, b, c, g, odd: asc.data_copy(l1, odd, 16), errors.MisalignedAccessError, CUBE,
     "is not aligned to sizeof(float16) = 2"),
    (lambda ub, l1, a, b, c, g, odd: asc.fixpipe(odd, c, asc.FixpipeParamsV220(16, 16, quant_pre=F322F16)),
     errors.MisalignedAccessError, CUBE, "fixpipe: dst global address 0x"),
    # past the memory itself: the bytes needed and how far past (past the buffer only: a diagnostic)
    (lambda ub, l1, a, b, c, g, odd: asc.add(ub, ub, ub, 100_000), errors.LocalOutOfRangeError, VEC,
     "add: dst needs 200000 B at UB[0], 3392 B past the 196608 B of UB (199744 B past its buffer)"),
    (lambda ub, l1, a, b, c, g, odd: asc.mmad(c, a, b, asc.MmadParams(16, 16, 16 * 129)),
     errors.LocalOutOfRangeError, CUBE, "B past the 65536 B of L0A"),
    # in the wrong memory, or not a local tensor at all
    (lambda ub, l1, a, b, c, g, odd: asc.add(ub, l1, ub, 16), ValueError, None,
     "add: src0 is in L1; add takes it in UB"),
    (lambda ub, l1, a, b, c, g, odd: asc.mmad(c, ub, b, MM), ValueError, None,
     "mmad: fm is in UB; mmad takes it in L0A"),
    (lambda ub, l1, a, b, c, g, odd: asc.exp(ub, g, 16), TypeError, None,
     "exp: src must be a LocalTensor in UB, got GlobalTensor"),
    (lambda ub, l1, a, b, c, g, odd: asc.load_data(a, g, asc.LoadData2DParams()), TypeError, None,
     "load_data: src must be a LocalTensor in L1, got GlobalTensor"),
]


@pytest.mark.parametrize("case,cls,code,text", CASES)
def test_every_instruction_checks_its_operands_alike(run, case, cls, code, text) -> None:
    with pytest.raises(errors.TaskError) as info:
        run(operands, 1, np.zeros(256, np.float16), extra=(case,))
    e = info.value.cause
    assert isinstance(e, cls) and text in str(e), str(e)
    if code is not None:  # kernel faults: the side of the core, and the kernel line
        assert e.code == code and e.file == __file__ and e.line == case.__code__.co_firstlineno


PAST_BUFFER = [
    (lambda ub, l1, a, b, c, g, odd: asc.add(ub, ub, ub, 256), "past_buffer_write", "add", "UB", 256, 512),
    (lambda ub, l1, a, b, c, g, odd: asc.data_copy(ub, g, 256), "past_buffer_write", "data_copy", "UB", 256,
     512),
    (lambda ub, l1, a, b, c, g, odd: asc.load_data(a, l1, asc.LoadData2DParams(0, 3, 1)), "past_buffer_read",
     "load_data", "L1", 1024, 1536),
]


@pytest.mark.parametrize("case,kind,op,space,start,end", PAST_BUFFER)
def test_past_the_buffer_inside_the_memory_is_a_diagnostic(run, case, kind, op, space, start, end) -> None:
    """The device runs an operand that reaches past its TPipe buffer on the neighbouring bytes of
    the same memory: aclsim runs it too and reports it with the line, it does not fault."""
    with pytest.warns(asc.KernelSanitizerWarning, match="past a local buffer"):
        launch, _ = run(operands, 1, np.zeros(256, np.float16), extra=(case,))
    (d,) = [d for d in launch.diagnostics if d.kind == kind]
    assert (d.op, d.start, d.end, d.line) == (op, start, end, case.__code__.co_firstlineno)
    assert d.allocation.startswith(space) and "neighbouring" in str(d)
