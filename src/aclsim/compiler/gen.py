"""Stream generators for tests and benchmarks: random streams, and kernel-like streams
(double- or multi-buffered vector and cube tiles) of any length."""

from __future__ import annotations

import random
from collections.abc import Sequence

from aclsim.compiler.program import Affine, Item, Loop, Program, affine_access
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
                  buf_bytes: int = 256, strong: float = 0.0, overlap: bool = True) -> list[Instr]:
    """``n`` random work instructions over a few buffers per memory (so dependences abound);
    ``strong`` is the probability of a ``pipe_barrier ALL`` after each one."""
    out: list[Instr] = []
    for line in range(1, n + 1):
        pipe = rng.choice(tuple(pipes))
        rspaces, wspaces = _PATHS[pipe]
        reads = tuple(_rand_range(rng, rng.choice(rspaces), buffers, buf_bytes, overlap)
                      for _ in range(rng.randint(0, 2)))
        writes = tuple(_rand_range(rng, rng.choice(wspaces), buffers, buf_bytes, overlap)
                       for _ in range(rng.randint(0 if reads else 1, 1)))
        out.append(Instr(pipe, "op", reads=reads, writes=writes, line=line))
        if strong and rng.random() < strong:
            out.append(pipe_barrier(Pipe.ALL, line=line))
    return out


def _rand_range(rng: random.Random, space: Space, buffers: int, size: int, overlap: bool) -> Access:
    slot = rng.randrange(buffers)
    if overlap and rng.random() < 0.25:  # a partial overlap with a neighbour
        return Access(space, slot * size + size // 2, size)
    return Access(space, slot * size, size)


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
                   buffers: int = 4, buf_bytes: int = 64, strong: float = 0.0) -> Program:
    """A random structured program of about ``n`` work instructions in nested counted loops;
    ranges inside loops are affine in the loop variables (fixed, streaming or strided)."""
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

    return Program(block(n, [], 0))


def _rand_affine(rng: random.Random, space: Space, loops: list[str], buffers: int, size: int) -> Access:
    base = rng.randrange(buffers) * size
    if not loops or rng.random() < 0.5:
        return Access(space, base, size)
    var = rng.choice(loops)
    stride = rng.choice((size, size // 2, buffers * size, 0))
    start = Affine(base, ((var, stride),) if stride else ())
    return affine_access(space, start, start + Affine(size))
