"""``TSCM<src, depth>``: the queue that puts a Matmul input whole into L1 (``TPosition::TSCM``).

A kernel copies A (or B) into a TSCM buffer (``data_copy`` from GM on MTE2, or from VECOUT on
MTE3), ``enque``/``deque`` it (the flag to MTE1, which loads it into L0A/L0B) and passes the
tensor to ``Matmul.set_tensor_a/b``; the Matmul then copies nothing from GM for it.  The
buffer is L1 memory, taken from the TPipe like any queue's.

>>> import aclsim.kernel as asc
>>> asc.TSCM().position.name, asc.TSCM(asc.TPosition.VECOUT).src.name
('TSCM', 'VECOUT')
"""

from __future__ import annotations

from aclsim.kernel.pipe import TQueBind
from aclsim.kernel.tensor import TPosition


class TSCM(TQueBind):
    """``TSCM<TPosition src = GM, depth = 1, mask = 0>``: a queue from ``src`` (GM or VECOUT) to L1."""

    def __init__(self, src: TPosition = TPosition.GM, depth: int = 1, mask: int = 0) -> None:
        if TPosition(src) not in (TPosition.GM, TPosition.VECOUT):
            raise ValueError(f"TSCM<{TPosition(src).name}>: the source is GM or VECOUT")
        super().__init__(src, TPosition.TSCM, depth)
        self.mask = int(mask)


__all__ = ["TSCM"]
