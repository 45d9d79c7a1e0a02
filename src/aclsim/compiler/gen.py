"""Stream generators for tests and benchmarks: random streams, and kernel-like streams
(double- or multi-buffered vector and cube tiles) of any length."""

from __future__ import annotations

import random
from collections.abc import Sequence

from aclsim.compiler.hb import check_flags
from aclsim.compiler.program import Affine, Item, Loop, Program, affine_access
from aclsim.compiler.types import SET_FLAG, WAIT_FLAG
from aclsim.isa import Access, Instr, Pipe, Space, pipe_barrier

VECTOR_PIPES = (Pipe.S, Pipe.V, Pipe.MTE2, Pipe.MTE3)
CUBE_PIPES = (Pipe.M, Pipe.MTE1, Pipe.MTE2, Pipe.FIX)

# which memories each pipe may read and write (a rough Ascend data-path map)
_PATHS: dict[Pipe, tuple[tuple[Space, ...], tuple[Space, ...]]] = {
    Pipe.S: ((Space.UB, Space.GM), (Space.UB,)),
    Pipe.V: ((Space.UB,), (Space.UB,)),
    Pipe.MTE2: ((Space.GM,), (Space.UB, Space.L1)),
    Pipe.MTE3: ((Space.UB,), (Space.GM,)),
    Pipe.MTE1: ((Space.L1,), (Space.L0A, Space.L0B)),
    Pipe.M: ((Space.L0A, Space.L0B), (Space.L0C,)),
    Pipe.FIX: ((Space.L0C,), (Space.GM, Space.L1)),
}


def random_stream(rng: random.Random, n: int, *, pipes: Sequence[Pipe] = VECTOR_PIPES, buffers: int = 6,
                  buf_bytes: int = 256, strong: float = 0.0, overlap: bool = True, self_overlap: float = 0.0,
                  hand: int = 0, hand_ids: int = 1) -> list[Instr]:
    """``n`` random work instructions over a few buffers per memory (so dependences abound);
    ``strong`` is the probability of a ``pipe_barrier ALL`` after each one.

    ``self_overlap``: the probability that an instruction gets one more range overlapping
    one of its own (two overlapping writes, or two overlapping reads).  ``hand``: that many
    tries at hand-written physical flag pairs (IDs below ``hand_ids``) at random places, which
    may straddle strong syncs (see :func:`insert_flag_pairs`).
    """
    out: list[Instr] = []
    for line in range(1, n + 1):
        pipe = rng.choice(tuple(pipes))
        rspaces, wspaces = _PATHS[pipe]
        reads = tuple(_rand_range(rng, rng.choice(rspaces), buffers, buf_bytes, overlap)
                      for _ in range(rng.randint(0, 2)))
        writes = tuple(_rand_range(rng, rng.choice(wspaces), buffers, buf_bytes, overlap)
                       for _ in range(rng.randint(0 if reads else 1, 1)))
        if self_overlap and rng.random() < self_overlap:
            reads, writes = _self_overlapping(rng, reads, writes, buf_bytes)
        out.append(Instr(pipe, "op", reads=reads, writes=writes, line=line))
        if strong and rng.random() < strong:
            out.append(pipe_barrier(Pipe.ALL, line=line))
    if hand:
        out = [x for x in insert_flag_pairs(out, _hand_pairs(rng, out, pipes, hand, hand_ids))
               if isinstance(x, Instr)]  # (a flat stream stays flat)
    return out


def _rand_range(rng: random.Random, space: Space, buffers: int, size: int, overlap: bool) -> Access:
    slot = rng.randrange(buffers)
    if overlap and rng.random() < 0.25:  # a partial overlap with a neighbour
        return Access(space, slot * size + size // 2, size)
    return Access(space, slot * size, size)


def _self_overlapping(rng: random.Random, reads: tuple[Access, ...], writes: tuple[Access, ...],
                      size: int) -> tuple[tuple[Access, ...], tuple[Access, ...]]:
    """One more range overlapping one of the instruction's own (by half, a quarter, or all)."""
    own = writes if writes and (not reads or rng.random() < 0.5) else reads
    base = rng.choice(own)
    shift = rng.choice((size // 2, size // 4, -(size // 4), 0))
    extra = Access(base.space, max(0, base.offset + shift), rng.choice((size, size // 2, 2 * size)))
    if own is writes:
        return reads, (*writes, extra)
    return (*reads, extra), writes


def insert_flag_pairs(stream: Sequence[Item],
                      pairs: Sequence[tuple[Pipe, Pipe, int, int, int]]) -> list[Item]:
    """Hand-written flag pairs into a stream (or the top level of a program's items): each
    ``(src, dst, id, a, b)`` puts ``set_flag src dst id`` before position ``a`` and its wait
    before position ``b`` (positions of ``stream``, ``a <= b``; strong syncs and loops in
    between are fine).  A pair is kept only if the flags stay legal with it (no double set,
    lost signal, wait without set, in every iteration): the passes take correct programs.
    """
    placed: list[tuple[int, int, Instr]] = []  # (position, insertion order, instruction)

    def build(extra: list[tuple[int, int, Instr]]) -> list[Item]:
        at: dict[int, list[tuple[int, Instr]]] = {}
        for pos, order, ins in extra:
            at.setdefault(pos, []).append((order, ins))
        out: list[Item] = []
        for i in range(len(stream) + 1):
            out.extend(ins for _, ins in sorted(at.get(i, ()), key=lambda x: x[0]))
            if i < len(stream):
                out.append(stream[i])
        return out

    for n, (src, dst, eid, a, b) in enumerate(pairs):
        a, b = min(a, b), max(a, b)
        a, b = max(0, min(a, len(stream))), max(0, min(b, len(stream)))
        s = Instr(src, SET_FLAG, src=src, dst=dst, event_id=eid, line=0)
        w = Instr(dst, WAIT_FLAG, src=src, dst=dst, event_id=eid, line=0)
        trial = [*placed, (a, 2 * n, s), (b, 2 * n + 1, w)]
        if not check_flags(Program(build(trial)).unroll()):
            placed = trial
    return build(placed)


def _hand_pairs(rng: random.Random, items: Sequence[Item], pipes: Sequence[Pipe], hand: int,
                hand_ids: int) -> list[tuple[Pipe, Pipe, int, int, int]]:
    used = sorted(set(pipes))
    pairs: list[tuple[Pipe, Pipe, int, int, int]] = []
    for _ in range(hand if len(used) > 1 else 0):
        src, dst = rng.sample(used, 2)
        a, b = sorted((rng.randint(0, len(items)), rng.randint(0, len(items))))
        pairs.append((src, dst, rng.randrange(hand_ids), a, b))
    return pairs


def kernel_stream(n: int, *, depth: int = 2, strong_every: int = 0, cube_every: int = 4,
                  tile: int = 4096, seed: int = 0) -> list[Instr]:
    """About ``n`` work instructions of a multi-buffered kernel (no syncs yet).

    Vector tiles (copy in two inputs, add, scale in place, copy out) use ``depth`` buffers
    in rotation; every ``cube_every``-th tile is a cube tile (GM->L1, L1->L0A/L0B, mmad,
    fixpipe out).  ``strong_every`` tiles, a ``pipe_barrier ALL`` (0: none).
    """
    rng = random.Random(seed)
    out: list[Instr] = []
    t = 0
    ub = Space.UB
    while len(out) < n:
        b = t % depth
        line = t + 1
        gm = 1 << 30
        if cube_every and t % cube_every == cube_every - 1:
            a1, b1 = Access(Space.L1, (2 * b) * tile, tile), Access(Space.L1, (2 * b + 1) * tile, tile)
            l0a, l0b = Access(Space.L0A, b * tile, tile), Access(Space.L0B, b * tile, tile)
            l0c = Access(Space.L0C, b * tile, tile)
            out += [
                Instr(Pipe.MTE2, "copy_gm2l1", reads=(Access(Space.GM, t * tile, tile),), writes=(a1,),
                      line=line),
                Instr(Pipe.MTE2, "copy_gm2l1", reads=(Access(Space.GM, gm + t * tile, tile),), writes=(b1,),
                      line=line),
                Instr(Pipe.MTE1, "load_l0a", reads=(a1,), writes=(l0a,), line=line),
                Instr(Pipe.MTE1, "load_l0b", reads=(b1,), writes=(l0b,), line=line),
                Instr(Pipe.M, "mmad", reads=(l0a, l0b), writes=(l0c,), line=line),
                Instr(Pipe.FIX, "fixpipe", reads=(l0c,), writes=(Access(Space.GM, 2 * gm + t * tile, tile),),
                      line=line),
            ]
        else:
            x, y, z = (Access(ub, (3 * b + i) * tile, tile) for i in range(3))
            out += [
                Instr(Pipe.MTE2, "copy_in", reads=(Access(Space.GM, t * tile, tile),), writes=(x,),
                      line=line),
                Instr(Pipe.MTE2, "copy_in", reads=(Access(Space.GM, gm + t * tile, tile),), writes=(y,),
                      line=line),
                Instr(Pipe.V, "add", reads=(x, y), writes=(z,), line=line),
                Instr(Pipe.V, "muls", reads=(z,), writes=(z,), line=line),
                Instr(Pipe.MTE3, "copy_out", reads=(z,), writes=(Access(Space.GM, 2 * gm + t * tile, tile),),
                      line=line),
            ]
            if rng.random() < 0.1:  # a scalar read of the result (GetValue)
                out.append(Instr(Pipe.S, "get_value", reads=(Access(ub, (3 * b + 2) * tile, 32),), line=line))
        t += 1
        if strong_every and t % strong_every == 0:
            out.append(pipe_barrier(Pipe.ALL, line=line))
    return out


def random_program(rng: random.Random, n: int, *, pipes: Sequence[Pipe] = VECTOR_PIPES, depth: int = 2,
                   buffers: int = 4, buf_bytes: int = 64, strong: float = 0.0, hand: int = 0,
                   hand_ids: int = 1) -> Program:
    """A random structured program of about ``n`` work instructions in nested counted loops;
    ranges inside loops are affine in the loop variables (fixed, streaming or strided).
    ``hand``: tries at hand-written flag pairs between top-level items (around loops and
    strong syncs; :func:`insert_flag_pairs`)."""
    counter = [0]

    def block(budget: int, loops: list[str], level: int) -> list[Item]:
        items: list[Item] = []
        while budget > 0:
            if level < depth and rng.random() < 0.25 and budget >= 2:
                var = "ijk"[level]
                inner = rng.randint(1, min(budget, 6))
                body = block(inner, [*loops, var], level + 1)
                counter[0] += 1
                items.append(Loop(var, 0, rng.choice((0, 1, 2, 3, 4)), body, line=counter[0]))
                budget -= inner
                continue
            pipe = rng.choice(tuple(pipes))
            rspaces, wspaces = _PATHS[pipe]
            counter[0] += 1
            reads = tuple(_rand_affine(rng, rng.choice(rspaces), loops, buffers, buf_bytes)
                          for _ in range(rng.randint(0, 2)))
            writes = tuple(_rand_affine(rng, rng.choice(wspaces), loops, buffers, buf_bytes)
                           for _ in range(rng.randint(0 if reads else 1, 1)))
            items.append(Instr(pipe, "op", reads=reads, writes=writes, line=counter[0]))
            if strong and rng.random() < strong:
                items.append(pipe_barrier(Pipe.ALL, line=counter[0]))
            budget -= 1
        return items

    items = block(n, [], 0)
    if hand:
        items = insert_flag_pairs(items, _hand_pairs(rng, items, pipes, hand, hand_ids))
    return Program(items)


def _rand_affine(rng: random.Random, space: Space, loops: list[str], buffers: int, size: int) -> Access:
    base = rng.randrange(buffers) * size
    if not loops or rng.random() < 0.5:
        return Access(space, base, size)
    var = rng.choice(loops)
    stride = rng.choice((size, size // 2, buffers * size, 0))
    start = Affine(base, ((var, stride),) if stride else ())
    return affine_access(space, start, start + Affine(size))
