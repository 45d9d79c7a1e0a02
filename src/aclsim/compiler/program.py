"""Instruction streams as programs: a flat ``list[Instr]`` (a recorded trace) or a structured
:class:`Program` with counted loops whose memory ranges are affine in the loop variables.

The passes take either form.  A flat list is what a kernel run records for one core; a
:class:`Program` is what the text format (:mod:`aclsim.compiler.text`) describes, so the
passes can work on a kernel's code and not only on its unrolled trace.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from aclsim.isa import Access, Instr, Space


class SyncFormatError(ValueError):
    """A malformed instruction-stream text; the message starts with ``FILE:LINE:``."""

    def __init__(self, message: str, *, line: int = 0, file: str = "") -> None:
        where = f"{file or '<text>'}:{line}: " if line else ""
        super().__init__(where + message)
        self.line = line
        self.file = file


# --- affine expressions -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Affine:
    """``const + sum(coeff * var)``: an offset that depends on enclosing loop variables.

    >>> e = Affine(256, (("i", 256),))
    >>> str(e), e.eval({"i": 2})
    ('i*256+256', 768)
    """

    const: int
    terms: tuple[tuple[str, int], ...] = ()

    @staticmethod
    def of(const: int, **coeffs: int) -> Affine:
        return Affine(const, tuple(sorted((k, v) for k, v in coeffs.items() if v)))

    @property
    def is_const(self) -> bool:
        return not self.terms

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.terms)

    def eval(self, env: Mapping[str, int]) -> int:
        value = self.const
        for name, coeff in self.terms:
            value += coeff * env[name]
        return value

    def coeff(self, name: str) -> int:
        for n, c in self.terms:
            if n == name:
                return c
        return 0

    def __add__(self, other: Affine) -> Affine:
        merged = dict(self.terms)
        for name, coeff in other.terms:
            merged[name] = merged.get(name, 0) + coeff
        return Affine(self.const + other.const, tuple(sorted((k, v) for k, v in merged.items() if v)))

    def __neg__(self) -> Affine:
        return Affine(-self.const, tuple((k, -v) for k, v in self.terms))

    def __sub__(self, other: Affine) -> Affine:
        return self + (-other)

    def __str__(self) -> str:
        parts: list[str] = []
        for name, coeff in self.terms:
            body = name if abs(coeff) == 1 else f"{name}*{abs(coeff)}"
            parts.append(("-" if coeff < 0 else "+" if parts else "") + body)
        if not parts:
            parts.append(str(self.const))
        elif self.const:
            parts.append(f"+{self.const}" if self.const > 0 else str(self.const))
        return "".join(parts)


@dataclass(frozen=True, slots=True)
class AffineAccess(Access):
    """An :class:`~aclsim.isa.Access` whose bounds are affine in loop variables.

    ``offset``/``length`` hold the values with every variable at 0; ``start``/``stop`` the
    expressions.  :func:`unroll` turns it into a plain ``Access``.
    """

    start: Affine = Affine(0)
    stop: Affine = Affine(0)

    def concrete(self, env: Mapping[str, int]) -> Access:
        lo = self.start.eval(env)
        return Access(self.space, lo, self.stop.eval(env) - lo)

    def __str__(self) -> str:
        return f"{self.space.value}[{self.start}:{self.stop}]"


def affine_access(space: Space, start: Affine, stop: Affine) -> Access:
    """A plain ``Access`` when both bounds are constant, else an :class:`AffineAccess`."""
    if start.is_const and stop.is_const:
        return Access(space, start.const, stop.const - start.const)
    return AffineAccess(space, start.const, stop.const - start.const, start, stop)


# --- structured programs -------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Loop:
    """``for var in start..stop { body }`` (``stop`` exclusive; constant trip count)."""

    var: str
    start: int
    stop: int
    body: list[Item]
    line: int = 0
    file: str = ""

    @property
    def trips(self) -> int:
        return max(0, self.stop - self.start)

    def __repr__(self) -> str:
        return f"<Loop {self.var} in {self.start}..{self.stop}: {len(self.body)} items>"


Item = Instr | Loop


@dataclass(slots=True, eq=False)
class Program:
    """A core's instruction stream with structured loops.

    >>> from aclsim.compiler.text import parse
    >>> prog = parse("for i in 0..2 {\\n  V add r:UB[i*32:i*32+32]\\n}")
    >>> [str(ins.reads[0]) for ins in prog.unroll()]
    ['UB[0:32]', 'UB[32:64]']
    """

    items: list[Item] = field(default_factory=list)
    file: str = ""

    @property
    def is_flat(self) -> bool:
        return not any(isinstance(item, Loop) for item in self.items)

    def instrs(self) -> Iterator[Instr]:
        """Every static instruction, in text order (loop bodies once)."""
        yield from _walk(self.items)

    def unroll(self) -> list[Instr]:
        """The dynamic instruction stream: loops expanded, affine ranges made concrete."""
        out: list[Instr] = []
        _unroll_into(self.items, {}, out, None, ())
        return out

    def unroll_with_origin(self) -> tuple[list[Instr], list[tuple[Instr, tuple[tuple[str, int], ...]]]]:
        """:meth:`unroll` plus, per dynamic instruction, its static instruction and loop indices."""
        out: list[Instr] = []
        origin: list[tuple[Instr, tuple[tuple[str, int], ...]]] = []
        _unroll_into(self.items, {}, out, origin, ())
        return out, origin

    def copy(self) -> Program:
        return Program(_copy_items(self.items), self.file)


def _walk(items: Sequence[Item]) -> Iterator[Instr]:
    for item in items:
        if isinstance(item, Loop):
            yield from _walk(item.body)
        else:
            yield item


def _copy_items(items: Sequence[Item]) -> list[Item]:
    return [replace(item, body=_copy_items(item.body)) if isinstance(item, Loop) else item for item in items]


def _is_affine(instr: Instr) -> bool:
    return any(isinstance(a, AffineAccess) for a in instr.reads) or any(
        isinstance(a, AffineAccess) for a in instr.writes)


def concretize(instr: Instr, env: Mapping[str, int]) -> Instr:
    """``instr`` with its affine ranges evaluated at ``env`` (itself when nothing is affine)."""
    if not _is_affine(instr):
        return instr
    return replace(
        instr,
        reads=tuple(a.concrete(env) if isinstance(a, AffineAccess) else a for a in instr.reads),
        writes=tuple(a.concrete(env) if isinstance(a, AffineAccess) else a for a in instr.writes),
        cost=instr.cost,
    )


def _unroll_into(items: Sequence[Item], env: dict[str, int], out: list[Instr],
                 origin: list[tuple[Instr, tuple[tuple[str, int], ...]]] | None,
                 ctx: tuple[tuple[str, int], ...]) -> None:
    for item in items:
        if isinstance(item, Loop):
            for value in range(item.start, item.stop):
                env[item.var] = value
                _unroll_into(item.body, env, out, origin, (*ctx, (item.var, value)))
            env.pop(item.var, None)
        else:
            out.append(concretize(item, env) if env else item)
            if origin is not None:
                origin.append((item, ctx))


def flat_instrs(stream: Program | Sequence[Instr]) -> list[Instr]:
    """The dynamic instruction list of either form."""
    if isinstance(stream, Program):
        return stream.unroll()
    return list(stream)
