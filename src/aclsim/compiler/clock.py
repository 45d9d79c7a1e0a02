"""The clocks of the happens-before engine: the one place that says what each instruction
teaches each pipe.

Every pass that needs to know whether two instructions are ordered replays one core's
stream on a :class:`Clock`: the checker (:mod:`aclsim.compiler.hb`), the inference of
:mod:`aclsim.compiler.infer` (on a :class:`HistoryClock`), the allocator of
:mod:`aclsim.compiler.alloc` and the analysis of programs with loops
(:mod:`aclsim.compiler.loops`).  ``docs/sync.md`` gives the model; in short:

- ``count[P]``: how many instructions of pipe P were counted so far (work instructions and
  waits; sets and barriers are not counted).  Instruction number ``n`` of P is the one
  counted when ``count[P]`` was ``n``.
- ``know[P][R]``: how many instructions of pipe R are known complete before the next
  instruction of P starts.  Knowledge is prefix-closed, so one integer per pipe suffices,
  and instruction ``n`` of R is ordered before the next one of P iff ``know[P][R] > n``.
- :meth:`Clock.signal`: what ``set_flag P Q`` carries: P's knowledge and every P
  instruction counted so far (it fires once they have completed).
- :meth:`Clock.join`: ``wait_flag P Q`` makes Q know what the signal knew.
- :meth:`Clock.hold`: a scalar read (``get_value``) or a wait on PIPE_S completes before any
  later instruction is issued, so every pipe learns what S knows.
- :meth:`Clock.barrier`: ``pipe_barrier P``: P knows its own earlier instructions complete;
  ``pipe_barrier ALL`` / ``sync_all`` (:meth:`Clock.strong`): every pipe knows everything.

Which pipes complete each instruction before the next (:func:`inorder_pipes`) is the
caller's business: it decides whether a same-pipe dependence needs a barrier, not what a
pipe knows.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from aclsim.isa import EXEC_PIPES, Pipe

NPIPES = 7  # S V M MTE1 MTE2 MTE3 FIX (Pipe values 0..6); Pipe.ALL == 7
assert len(EXEC_PIPES) == NPIPES and [int(p) for p in EXEC_PIPES] == list(range(NPIPES))
SAME_PIPE_MODES = ("barrier", "inorder")
#: ``PIPE_INDEX[pipe]`` is ``int(pipe)`` for a ``Pipe`` (or an int), several times faster than
#: ``int()`` on an ``IntEnum``; the hot loops index their lists with plain ints.
PIPE_INDEX: list[int] = list(range(NPIPES + 1))
_S = int(Pipe.S)
_ALL = int(Pipe.ALL)


def inorder_pipes(same_pipe: str) -> list[bool]:
    """Per pipe: does it complete each instruction before it starts the next?

    ``"barrier"`` (Ascend C): only PIPE_S (``PipeBarrier<PIPE_S>`` does not exist); a
    same-pipe dependence elsewhere needs ``pipe_barrier``.  ``"inorder"``: every pipe.

    >>> inorder_pipes("barrier")[:3], all(inorder_pipes("inorder"))
    ([True, False, False], True)
    """
    if same_pipe not in SAME_PIPE_MODES:
        raise ValueError(f"same_pipe must be one of {SAME_PIPE_MODES}, got {same_pipe!r}")
    inorder = [same_pipe == "inorder"] * NPIPES
    inorder[_S] = True
    return inorder


class Clock:
    """One vector clock per pipe of one core (``count`` and ``know``, see the module).

    Rows of ``know`` are updated in place; :meth:`signal` returns a fresh list, and a caller
    that keeps a row past the next step copies it.

    >>> from aclsim.isa import Pipe
    >>> c = Clock()
    >>> c.work(Pipe.MTE2, ())                 # instruction 0 of MTE2
    0
    >>> sig = c.signal(Pipe.MTE2)             # set_flag MTE2 V
    >>> c.know[Pipe.V][Pipe.MTE2] > 0         # not yet known to V
    False
    >>> c.wait(Pipe.V, sig)                   # wait_flag MTE2 V: instruction 0 of V
    0
    >>> c.know[Pipe.V][Pipe.MTE2] > 0         # MTE2's instruction 0 is ordered before V's next
    True
    """

    __slots__ = ("count", "know")

    def __init__(self) -> None:
        self.count = [0] * NPIPES
        self.know = [[0] * NPIPES for _ in range(NPIPES)]

    def tick(self, pipe: int) -> int:
        """Count one instruction of ``pipe``; return its number."""
        count = self.count
        n = count[pipe]
        count[pipe] = n + 1
        return n

    def work(self, pipe: int, reads: Sequence[object]) -> int:
        """A work instruction of ``pipe`` reading ``reads``; return its number.  A scalar read
        (an instruction of PIPE_S that reads memory) holds the issue of everything after it.

        (The checker's loop, :mod:`aclsim.compiler.hb`, inlines these three lines: a call
        per work instruction costs it 7 %.)"""
        count = self.count
        n = count[pipe]
        count[pipe] = n + 1
        if reads and pipe == _S:
            self.hold()
        return n

    def signal(self, pipe: int) -> list[int]:
        """What a ``set_flag`` on ``pipe`` issued now carries (a new list)."""
        sig = self.know[pipe][:]
        sig[pipe] = self.count[pipe]
        return sig

    def join(self, pipe: int, sig: Sequence[int]) -> None:
        """``pipe`` learns what ``sig`` knows (element-wise maximum, in place)."""
        k = self.know[pipe]
        # unrolled over the NPIPES pipes: this is the engine's innermost step
        a = sig[0]
        if a > k[0]:
            k[0] = a
        a = sig[1]
        if a > k[1]:
            k[1] = a
        a = sig[2]
        if a > k[2]:
            k[2] = a
        a = sig[3]
        if a > k[3]:
            k[3] = a
        a = sig[4]
        if a > k[4]:
            k[4] = a
        a = sig[5]
        if a > k[5]:
            k[5] = a
        a = sig[6]
        if a > k[6]:
            k[6] = a

    def wait(self, pipe: int, sig: Sequence[int] | None) -> int:
        """A ``wait_flag`` on ``pipe`` consuming ``sig`` (None: no set raised it, the wait is
        only counted); return its number.  A wait on PIPE_S holds the issue."""
        count = self.count
        n = count[pipe]
        count[pipe] = n + 1
        if sig is not None:
            self.join(pipe, sig)
        if pipe == _S:
            self.hold()
        return n

    def hold(self) -> None:
        """PIPE_S held the issue (a scalar read, a wait on S): every pipe learns what S knows,
        S's own instructions counted so far included."""
        know = self.know
        ks = know[_S]
        ks[_S] = self.count[_S]
        for pipe in range(NPIPES):
            if pipe != _S:
                self.join(pipe, ks)

    def barrier(self, pipe: int) -> None:
        """``pipe_barrier pipe``: its earlier instructions complete before its later ones start
        (``Pipe.ALL``: :meth:`strong`)."""
        if pipe == _ALL:
            self.strong()
        else:
            self.know[pipe][pipe] = self.count[pipe]

    def strong(self) -> None:
        """A strong sync (``pipe_barrier ALL``, ``sync_all``): every pipe knows everything."""
        know, count = self.know, self.count
        for pipe in range(NPIPES):
            know[pipe] = count[:]


class HistoryClock(Clock):
    """A :class:`Clock` that remembers, per pipe, its knowledge after each change since the
    last strong sync: :meth:`at` is what a pipe knew when one of its instructions issued.

    ``infer_sync`` uses it to tell what a ``set_flag`` placed right after an earlier
    producer would carry (:meth:`signal_after`).
    """

    __slots__ = ("_numbers", "_rows")

    def __init__(self) -> None:
        super().__init__()
        self._numbers: list[list[int]] = [[0] for _ in range(NPIPES)]
        self._rows: list[list[list[int]]] = [[row[:]] for row in self.know]

    def _snap(self, pipe: int) -> None:
        self._numbers[pipe].append(self.count[pipe])
        self._rows[pipe].append(self.know[pipe][:])

    def join(self, pipe: int, sig: Sequence[int]) -> None:
        Clock.join(self, pipe, sig)
        self._snap(pipe)

    def hold(self) -> None:
        Clock.hold(self)
        self._snap(_S)

    def barrier(self, pipe: int) -> None:
        if pipe == _ALL:
            self.strong()
        else:
            Clock.barrier(self, pipe)
            self._snap(pipe)

    def strong(self) -> None:
        Clock.strong(self)
        count = self.count
        self._numbers = [[count[pipe]] for pipe in range(NPIPES)]
        self._rows = [[row[:]] for row in self.know]

    def at(self, pipe: int, n: int) -> list[int]:
        """What ``pipe`` knew when its instruction ``n`` issued (since the last strong sync);
        do not modify it."""
        rows = self._rows[pipe]
        return rows[bisect_right(self._numbers[pipe], n) - 1]

    def signal_after(self, pipe: int, n: int) -> list[int]:
        """What a ``set_flag`` on ``pipe`` placed right after its instruction ``n`` carries."""
        sig = self.at(pipe, n)[:]
        sig[pipe] = n + 1
        return sig


__all__ = ["NPIPES", "PIPE_INDEX", "SAME_PIPE_MODES", "Clock", "HistoryClock", "inorder_pipes"]
