"""The one clock engine of the sync passes (``aclsim.compiler.clock``)."""

from __future__ import annotations

import random

import pytest

from aclsim.compiler import check, flag_uses, infer_sync
from aclsim.compiler.clock import NPIPES, PIPE_INDEX, Clock, HistoryClock, inorder_pipes
from aclsim.compiler.gen import random_stream
from aclsim.compiler.loops import Analysis
from aclsim.isa import EXEC_PIPES, Pipe

S, V, MTE2, MTE3 = int(Pipe.S), int(Pipe.V), int(Pipe.MTE2), int(Pipe.MTE3)


def test_a_signal_carries_what_its_pipe_counted_and_a_wait_learns_it() -> None:
    c = Clock()
    assert c.work(MTE2, ()) == 0 and c.work(MTE2, ()) == 1
    sig = c.signal(MTE2)
    assert sig[MTE2] == 2 and c.know[MTE2][MTE2] == 0  # a set does not block its pipe
    c.work(MTE2, ())
    assert sig[MTE2] == 2  # the signal is a copy
    assert c.wait(V, sig) == 0  # the wait is V's instruction 0
    assert c.know[V][MTE2] == 2 and c.count[V] == 1
    assert c.know[MTE3] == [0] * NPIPES  # no one else learned anything


def test_scalar_reads_and_waits_hold_the_issue_scalar_writes_do_not() -> None:
    c = Clock()
    c.work(MTE2, ())
    c.wait(S, c.signal(MTE2))  # a wait on S: everything after it knows what S knew
    assert all(c.know[p][MTE2] == 1 for p in range(NPIPES))
    assert all(c.know[p][S] == 1 for p in range(NPIPES))
    c.work(S, ())  # a scalar write (no read) orders nothing
    assert c.know[V][S] == 1
    c.work(S, ("r",))  # a scalar read: every pipe knows S's instructions complete
    assert all(c.know[p][S] == 3 for p in range(NPIPES) if p != S)
    c.wait(S, None)  # a wait with no set still holds the issue (it hangs: nothing after it runs)
    assert all(c.know[p][S] == 4 for p in range(NPIPES) if p != S)


def test_barriers() -> None:
    c = Clock()
    for p in (V, V, MTE3):
        c.work(p, ())
    c.barrier(V)
    assert c.know[V][V] == 2 and c.know[MTE3][V] == 0
    c.barrier(int(Pipe.ALL))
    assert all(row == [0, 2, 0, 0, 0, 1, 0] for row in c.know)
    c.work(V, ())
    c.strong()
    assert all(row == c.count for row in c.know) and c.know[0] is not c.count


def test_history_clock_tells_what_a_pipe_knew_when_an_instruction_issued() -> None:
    h = HistoryClock()
    h.work(MTE2, ())  # MTE2 #0
    h.wait(V, h.signal(MTE2))  # V #0 knows MTE2 #0
    h.work(V, ())  # V #1
    h.work(MTE2, ())  # MTE2 #1
    h.wait(V, h.signal(MTE2))  # V #2 knows MTE2 #0, #1
    assert h.at(V, 0)[MTE2] == 0 and h.at(V, 1)[MTE2] == 1 and h.at(V, 2)[MTE2] == 1
    assert h.at(V, 3)[MTE2] == 2
    assert h.signal_after(V, 1) == [0, 2, 0, 0, 1, 0, 0]  # a set right after V #1
    h.barrier(V)
    assert h.at(V, 3)[V] == 3
    h.strong()
    assert h.at(MTE2, 2) == h.count


def test_pipe_index_and_modes() -> None:
    assert [PIPE_INDEX[p] for p in Pipe] == [int(p) for p in Pipe] and len(EXEC_PIPES) == NPIPES
    assert inorder_pipes("barrier") == [True] + [False] * (NPIPES - 1)
    with pytest.raises(ValueError, match="same_pipe must be one of"):
        inorder_pipes("fifo")


def test_every_pass_replays_the_same_clock() -> None:
    """The checker, flag_uses and the loop analysis give a flag use the same interval on
    random synced streams (they all replay the stream on a Clock)."""
    for seed in range(60):
        rng = random.Random(seed)
        stream = infer_sync(random_stream(rng, 25, strong=0.05, self_overlap=0.2, hand=2))
        assert check(stream).ok
        uses = flag_uses(stream)
        ana = Analysis(list(stream), "barrier")
        executions = sorted((s, w) for pairs in ana.flags.values() for s, w in pairs)
        assert [(u.set_index, u.wait_index) for u in uses] == executions
        for u in uses:
            assert u.known == ana.kn[u.set_index][u.dst] and u.number == ana.num[u.wait_index]
