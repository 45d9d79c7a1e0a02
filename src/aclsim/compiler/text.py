"""The text format of a core's instruction stream: parser and printer (they round-trip).

One instruction a line; ``#`` starts a comment::

    MTE2 copy_in r:GM[0:256] w:UB[0:256] bytes=256
    set_flag MTE2 V L0          # logical event ID 0 (any number of them)
    wait_flag MTE2 V L0
    V add r:UB[0:256] r:UB[256:512] w:UB[512:768] repeats=1
    set_flag V MTE3 3           # physical event ID 3 (0 .. events_per_pipe_pair-1)
    wait_flag V MTE3 3
    pipe_barrier V              # same-pipe ordering
    pipe_barrier ALL            # strong sync: every pipe drained
    sync_all                    # strong sync across cores
    for i in 0..4 {             # counted loop, ranges affine in i
      MTE2 copy_in r:GM[i*256:i*256+256] w:UB[0:256]
    }

Work instructions: ``PIPE OP`` then any of ``r:RANGE[,RANGE...]``, ``w:RANGE[,RANGE...]`` and
``key=value`` (cost figures for the core model).  ``RANGE`` is ``SPACE[start:stop]``, stop
exclusive, bounds affine in the loop variables (``i*256+64``).  Pipes: ``S V M MTE1 MTE2 MTE3
FIX`` (``PIPE_V``, ``VECTOR``... also accepted).  Flags may also be written with the Ascend C
``HardEvent`` name: ``set_flag MTE2_V L0``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from aclsim.compiler.program import Affine, Item, Loop, Program, SyncFormatError, affine_access
from aclsim.isa import Access, HardEvent, Instr, Op, Pipe, Space, pipe_barrier, set_flag, wait_flag

_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*\Z")
_FOR = re.compile(r"for\s+([A-Za-z_][A-Za-z_0-9]*)\s+in\s+(-?\d+)\s*\.\.\s*(-?\d+)\s*\{\Z")
_RANGE = re.compile(r"([A-Za-z0-9]+)\[([^\]:]*):([^\]]*)\]\Z")
_EXPR_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z_0-9]*)|(.))")
_SPACES = {s.value: s for s in Space}


def parse(text: str, *, file: str = "") -> Program:
    """Parse the text format into a :class:`Program` (line numbers kept on each instruction).

    >>> prog = parse("MTE2 load w:UB[0:64]\\nset_flag MTE2 V L0\\nwait_flag MTE2 V L0\\nV add r:UB[0:64]")
    >>> [repr(i) for i in prog.items][1]
    '<Instr MTE2 set_flag MTE2->V L0>'
    """
    root: list[Item] = []
    stack: list[tuple[list[Item], Loop | None, set[str]]] = [(root, None, set())]
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        body, loop, names = stack[-1]
        try:
            if line == "}":
                if loop is None:
                    raise SyncFormatError("'}' without an open 'for' loop")
                stack.pop()
                continue
            if line.startswith("for ") or line.startswith("for\t"):
                m = _FOR.match(line)
                if not m:
                    raise SyncFormatError("expected 'for NAME in START..STOP {'")
                var = m.group(1)
                if var in names:
                    raise SyncFormatError(f"loop variable {var!r} already used by an enclosing loop")
                new = Loop(var, int(m.group(2)), int(m.group(3)), [], line=number, file=file)
                body.append(new)
                stack.append((new.body, new, names | {var}))
                continue
            body.append(_parse_instr(line, names, number, file))
        except SyncFormatError as exc:
            if exc.line:
                raise
            raise SyncFormatError(f"{exc.args[0]}: {raw.strip()!r}", line=number, file=file) from None
    if len(stack) > 1:
        open_loop = stack[-1][1]
        assert open_loop is not None
        raise SyncFormatError(f"loop '{open_loop.var}' opened here is never closed",
                              line=open_loop.line, file=file)
    return Program(root, file)


def parse_file(path: str | Path) -> Program:
    path = Path(path)
    return parse(path.read_text(encoding="utf-8"), file=str(path))


def _pipe(text: str, *, allow_all: bool = False) -> Pipe:
    try:
        pipe = Pipe.parse(text)
    except ValueError as exc:
        raise SyncFormatError(str(exc)) from None
    if pipe is Pipe.ALL and not allow_all:
        raise SyncFormatError("pipe ALL is only valid in 'pipe_barrier ALL'")
    return pipe


def _event_id(text: str) -> tuple[int, bool]:
    logical = text[:1] in ("L", "l")
    digits = text[1:] if logical else text
    if not digits.isdigit():
        raise SyncFormatError(f"bad event ID {text!r}: expected a number (physical) or L<number> (logical)")
    return int(digits), logical


def _parse_instr(line: str, names: set[str], number: int, file: str) -> Instr:
    tokens = _tokens(line)
    head = tokens[0]
    if head in (Op.SET_FLAG.value, Op.WAIT_FLAG.value):
        args = tokens[1:]
        if len(args) == 2:
            try:
                event = HardEvent[args[0].upper()]
            except KeyError:
                raise SyncFormatError(f"{head} takes SRC DST ID (or HARDEVENT ID); "
                                      f"{args[0]!r} is no HardEvent") from None
            src, dst, id_text = event.src, event.dst, args[1]
        elif len(args) == 3:
            src, dst, id_text = _pipe(args[0]), _pipe(args[1]), args[2]
        else:
            raise SyncFormatError(f"{head} takes SRC DST ID, e.g. '{head} MTE2 V L0'")
        event_id, logical = _event_id(id_text)
        make = set_flag if head == Op.SET_FLAG.value else wait_flag
        return make(src, dst, event_id, logical=logical, line=number, file=file)
    if head == Op.PIPE_BARRIER.value:
        if len(tokens) != 2:
            raise SyncFormatError("pipe_barrier takes one pipe (or ALL)")
        return pipe_barrier(_pipe(tokens[1], allow_all=True), line=number, file=file)
    if head == Op.SYNC_ALL.value:
        if len(tokens) != 1:
            raise SyncFormatError("sync_all takes no arguments")
        return Instr(Pipe.ALL, Op.SYNC_ALL.value, line=number, file=file)
    if len(tokens) < 2:
        raise SyncFormatError("expected 'PIPE OP [r:RANGES] [w:RANGES] [key=value...]' or a sync instruction")
    pipe = _pipe(head)
    op = tokens[1]
    if not _NAME.match(op) or op in (o.value for o in Op):
        raise SyncFormatError(f"bad operation name {op!r}")
    reads: list[Access] = []
    writes: list[Access] = []
    cost: dict[str, Any] = {}
    for token in tokens[2:]:
        if token.startswith(("r:", "w:")):
            target = reads if token[0] == "r" else writes
            for part in _split_ranges(token[2:]):
                target.append(_parse_range(part, names))
        elif "=" in token:
            key, _, value = token.partition("=")
            if not _NAME.match(key):
                raise SyncFormatError(f"bad cost key {key!r}")
            cost[key] = _value(value)
        else:
            raise SyncFormatError(f"unexpected {token!r}: operands are r:RANGE, w:RANGE or key=value")
    try:
        return Instr(pipe, op, reads=tuple(reads), writes=tuple(writes), cost=cost, line=number, file=file)
    except ValueError as exc:  # a cost figure that is not a number (typed costs check them)
        raise SyncFormatError(str(exc)) from None


def _tokens(line: str) -> list[str]:
    """Split on blanks outside ``[...]``."""
    tokens: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in line:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise SyncFormatError("unbalanced ']'")
        if ch.isspace() and depth == 0:
            if current:
                tokens.append("".join(current))
                current = []
            continue
        current.append(ch)
    if depth:
        raise SyncFormatError("unbalanced '['")
    if current:
        tokens.append("".join(current))
    return tokens


def _split_ranges(text: str) -> list[str]:
    parts: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    if any(not p for p in parts):
        raise SyncFormatError(f"empty range in {text!r}")
    return parts


def _parse_range(text: str, names: set[str]) -> Access:
    m = _RANGE.match(text)
    if not m:
        raise SyncFormatError(f"bad range {text!r}: expected SPACE[start:stop], e.g. UB[0:256]")
    space = _SPACES.get(m.group(1).upper())
    if space is None:
        raise SyncFormatError(f"unknown memory {m.group(1)!r}; memories: {', '.join(_SPACES)}")
    start, stop = _parse_expr(m.group(2), names), _parse_expr(m.group(3), names)
    diff = stop - start
    if diff.is_const and diff.const < 0:
        raise SyncFormatError(f"range {text!r} ends before it starts")
    return affine_access(space, start, stop)


def _parse_expr(text: str, names: set[str]) -> Affine:
    tokens: list[str] = []
    for m in _EXPR_TOKEN.finditer(text):
        tok = m.group(1) or m.group(2) or m.group(3)
        if tok and not tok.isspace():
            tokens.append(tok)
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        if pos >= len(tokens):
            raise SyncFormatError(f"incomplete expression {text!r}")
        pos += 1
        return tokens[pos - 1]

    def expr() -> Affine:
        value = term()
        while peek() in ("+", "-"):
            value = value + term() if take() == "+" else value - term()
        return value

    def term() -> Affine:
        value = factor()
        while peek() == "*":
            take()
            rhs = factor()
            if value.is_const:
                value = Affine(value.const * rhs.const, tuple((n, c * value.const) for n, c in rhs.terms
                                                               if c * value.const))
            elif rhs.is_const:
                value = Affine(value.const * rhs.const, tuple((n, c * rhs.const) for n, c in value.terms
                                                               if c * rhs.const))
            else:
                raise SyncFormatError(f"expression {text!r} is not affine (variable times variable)")
        return value

    def factor() -> Affine:
        tok = take()
        if tok == "-":
            return -factor()
        if tok == "(":
            value = expr()
            if take() != ")":
                raise SyncFormatError(f"missing ')' in {text!r}")
            return value
        if tok.isdigit():
            return Affine(int(tok))
        if _NAME.match(tok):
            if tok not in names:
                raise SyncFormatError(f"{tok!r} is not the variable of an enclosing loop")
            return Affine(0, ((tok, 1),))
        raise SyncFormatError(f"unexpected {tok!r} in expression {text!r}")

    if not tokens:
        raise SyncFormatError("empty bound in range")
    result = expr()
    if pos != len(tokens):
        raise SyncFormatError(f"unexpected {tokens[pos]!r} in expression {text!r}")
    return result


def _value(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        pass
    if not text or any(ch.isspace() for ch in text):
        raise SyncFormatError(f"bad cost value {text!r}")
    return text


# --- printer ---------------------------------------------------------------------------------


def format_instr(instr: Instr) -> str:
    """One instruction as a line of the text format.

    >>> from aclsim.isa import Pipe, set_flag
    >>> format_instr(set_flag(Pipe.MTE2, Pipe.V, 3, logical=True))
    'set_flag MTE2 V L3'
    """
    op = instr.op
    if op in (Op.SET_FLAG.value, Op.WAIT_FLAG.value):
        assert instr.src is not None and instr.dst is not None
        kind = "L" if instr.logical else ""
        return f"{op} {instr.src.name} {instr.dst.name} {kind}{instr.event_id}"
    if op == Op.PIPE_BARRIER.value:
        return f"pipe_barrier {instr.pipe.name}"
    if op == Op.SYNC_ALL.value:
        return Op.SYNC_ALL.value
    parts = [instr.pipe.name, op]
    parts.extend(f"r:{a}" for a in instr.reads)
    parts.extend(f"w:{a}" for a in instr.writes)
    parts.extend(f"{k}={v}" for k, v in instr.cost.items())
    return " ".join(parts)


def format_program(stream: Program | Sequence[Instr], *, locations: bool = False) -> str:
    """The text of a program or of a recorded ``list[Instr]`` (``locations``: add ``# file:line``).

    >>> print(format_program(parse("for i in 0..2 {\\nV add r:UB[i*32:i*32+32]\\n}")), end="")
    for i in 0..2 {
      V add r:UB[i*32:i*32+32]
    }
    """
    lines: list[str] = []
    items = stream.items if isinstance(stream, Program) else stream
    _format_items(items, 0, lines, locations)
    return "".join(line + "\n" for line in lines)


def _format_items(items: Sequence[Item], depth: int, lines: list[str], locations: bool) -> None:
    pad = "  " * depth
    for item in items:
        if isinstance(item, Loop):
            lines.append(f"{pad}for {item.var} in {item.start}..{item.stop} {{")
            _format_items(item.body, depth + 1, lines, locations)
            lines.append(f"{pad}}}")
        else:
            text = pad + format_instr(item)
            if locations and item.file:
                text += f"  # {item.file}:{item.line}"
            lines.append(text)
