"""The launch's sanitizer report: legal but suspicious memory accesses, with their lines.

AscendCL pads every device allocation to ``ALIGN_UP(size, 32) + 32`` bytes (aclsim's pool
does the same), and a kernel may touch all of them on the device: only accesses past that
padded size trap.  An access between the requested size and the padded size is therefore
legal, and aclsim runs it as the device does, but it is noted here:

- ``uninitialized_read``: a read of padding bytes the launch did not write first (their
  contents are whatever the memory held: a previous allocation's data);
- ``out_of_request_read``: a read of padding bytes the launch wrote earlier;
- ``out_of_request_write``: a write into the padding (the host never sees those bytes: copies
  stop at the requested size);
- ``past_buffer_read`` / ``past_buffer_write``: a local operand (UB, L1, L0) reaching past the
  buffer its tensor lives in (a TQue/TBuf buffer, or a placed ``local_tensor``) but inside the
  memory: the device runs it on the neighbouring bytes; past the memory itself it faults;
- ``ignored_tail``: the elements of a count form past its last whole 256 B repeat, which the
  instruction leaves uncomputed as documented (``Compare``/``Compares`` with a ``count`` whose
  bytes are not a multiple of 256).
- ``race``: with ``KernelOptions(on_race="report")``, a race the launch would otherwise fail
  with (``detail`` names both accesses and their lines; ``start``/``end`` the bytes both touch);
- ``unrecorded_write``: bytes of device memory that changed during the launch but that no recorded
  instruction wrote (a C++ kernel storing through a raw pointer: ``*(half*)ptr = v``), found by the
  C++ front's snapshot of the memory its CPU-debug launch's arguments point into.

Diagnostics of the same kind, line and allocation are merged into one (``count`` accesses,
``start``/``end`` spanning them, ``block`` the first block).  They are on
``KernelLaunch.diagnostics`` and, when a launch has any, a :class:`KernelSanitizerWarning`
summarizes them.
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("uninitialized_read", "out_of_request_read", "out_of_request_write", "past_buffer_read",
         "past_buffer_write", "ignored_tail", "race", "unrecorded_write")
_LABELS = {
    "uninitialized_read": "uninitialized read",
    "out_of_request_read": "read past the requested size",
    "out_of_request_write": "write past the requested size",
    "past_buffer_read": "read past a local buffer",
    "past_buffer_write": "write past a local buffer",
    "ignored_tail": "elements past the last whole repeat not computed",
    "race": "race",
    "unrecorded_write": "write no instruction recorded",
}


class KernelSanitizerWarning(UserWarning):
    """A launch made accesses the device allows but that are likely bugs (``launch.diagnostics``)."""


@dataclass
class KernelDiagnostic:
    """One finding of the sanitizer: ``kind`` (one of :data:`KINDS`), the device address range
    ``[start, end)`` touched past the requested size, the allocation (``allocation`` names it
    and its ``malloc`` line, ``base``, ``requested`` and ``padded`` bytes), the instruction
    (``op``) and its kernel line, the first ``block`` that did it and how many accesses did.

    >>> d = KernelDiagnostic("uninitialized_read", 3, 0x1064, 0x1070, "<Buffer npu:0 0x1000 100B>",
    ...                      0x1000, 100, 160, "data_copy", "k.py", 12)
    >>> print(d)  # doctest: +NORMALIZE_WHITESPACE
    uninitialized read (12 B at 0x1064..0x1070) by data_copy at k.py:12 (block 3):
    bytes 100..111 of <Buffer npu:0 0x1000 100B>, 100 B requested, 160 B padded
    """

    kind: str
    block: int
    start: int
    end: int
    allocation: str
    base: int
    requested: int
    padded: int
    op: str
    file: str
    line: int
    count: int = 1
    detail: str = ""  # race: the two accesses and their lines

    def __str__(self) -> str:
        times = f", {self.count} accesses" if self.count > 1 else ""
        kind, first, last = _LABELS[self.kind], self.start - self.base, self.end - self.base - 1
        if self.kind == "race":
            races = f", {self.count} races of these two lines" if self.count > 1 else ""
            return f"{self.detail} (block {self.block}{races}; reported, not failed: on_race='report')"
        if self.kind == "unrecorded_write":
            return (f"{kind}: bytes {first}..{last} of {self.allocation} ({self.end - self.start} B at "
                    f"0x{self.start:x}..0x{self.end:x}) changed during the launch {self.op} at "
                    f"{self.file}:{self.line}, but no instruction recorded a write there (a store through a "
                    "raw pointer?): the race check and the timeline do not see it")
        if self.kind == "ignored_tail":
            return (f"{kind} ({self.end - self.start} B at {self.start}..{self.end}) by {self.op} at "
                    f"{self.file}:{self.line} (block {self.block}{times}): bytes {first}..{last} of the "
                    f"operand in the {self.allocation}; make count * sizeof(T) a multiple of 256 B")
        if self.kind.startswith("past_buffer"):
            by = self.op or "an access"
            return (f"{kind} ({self.end - self.start} B at {self.start}..{self.end}) by {by} "
                    f"at {self.file}:{self.line} (block {self.block}{times}): bytes {first}..{last} from the "
                    f"start of the {self.allocation} of {self.requested} B (the neighbouring memory)")
        return (f"{kind} ({self.end - self.start} B at 0x{self.start:x}..0x{self.end:x}) by "
                f"{self.op or 'an access'} at {self.file}:{self.line} (block {self.block}{times}): bytes "
                f"{first}..{last} of {self.allocation}, {self.requested} B requested, {self.padded} B padded")


class SanitizerReport:
    """The diagnostics of one launch, merged by (kind, line, allocation)."""

    __slots__ = ("_found",)

    def __init__(self) -> None:
        self._found: dict[tuple[str, str, int, int | str], KernelDiagnostic] = {}

    def note(self, d: KernelDiagnostic) -> None:
        # races: merged by their two lines (``allocation`` holds the first access's location)
        key = (d.kind, d.file, d.line, d.allocation if d.kind == "race" else d.base)
        old = self._found.get(key)
        if old is None:
            self._found[key] = d
            return
        old.count += 1
        old.start, old.end = min(old.start, d.start), max(old.end, d.end)

    @property
    def diagnostics(self) -> list[KernelDiagnostic]:
        return list(self._found.values())
