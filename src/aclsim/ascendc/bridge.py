"""The Python side of ``libaclsim_ascendc.so``: what a C++ kernel's Ascend C calls run.

A C++ Ascend C call (generated from ``api_cxx.txt``) packs its arguments as
``aclsim_arg {kind, sub, value}`` records and calls ``aclsim_asc_call(id, file, line, n,
args, ret)``, which is C (:mod:`aclsim.ascendc.fastcall`): it decodes them (a tensor or queue
crosses as a handle of the Python object it stands for, in :attr:`Bridge.objects`; a struct by
address, an enum as its value, a type as its aclsim dtype, a GM pointer as its host address:
:meth:`Bridge.decode_word`) and runs the row's ``aclsim.kernel`` call with the kernel layer's
source location set to the C++ file and line; what it needs it takes from
:meth:`Bridge.fast_state`.  A failure (a fault, a deadlock, the
launch ending its cores) is kept for the thread and reported to C++ as non-zero: the C++ side
throws, unwinds the kernel's frames to the block's entry, and :func:`run_kernel`'s block body
raises the kept exception where the Python language would have raised it.

The CPU-debug host calls (``tikicpulib.h``) are here too: ``GmAlloc`` (device memory whose
bytes the host reads and writes in place: the host address of the device arena's bytes, and
the kernel's pointers into it are translated back to device addresses), ``ICPU_RUN_KF`` (one
aclsim launch of the C++ kernel, every block on aclsim's block scheduler, so ``SyncAll`` and
cross-core flags work), ``ICPU_SET_TILING_KEY`` and ``SetKernelMode``.
"""

from __future__ import annotations

import bisect
import ctypes
import os
import re
import sys
import threading
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import aclsim
import aclsim.kernel as asc
from aclsim.ascendc import gen_cxx
from aclsim.ascendc.adapters import multi as _tiling
from aclsim.ascendc.adapters.cube import bind_start
from aclsim.ascendc.fastcall import ENCODERS
from aclsim.ascendc.gmwatch import GmWatch
from aclsim.ascendc.table import (
    FLOAT_TYPES,
    INT_TYPES,
    crossing,
    dispatch,
    enum_python,
    load,
    python_namespace,
    struct_python,
)
from aclsim.errors import AclError, KernelFault, RaceError
from aclsim.kernel import set_source_location
from aclsim.kernel.blocks import locate_acl_error
from aclsim.runtime.memory import is_device_address
from aclsim.runtime.pointers import allocation_at
from aclsim.sim.trace import write_trace

__all__ = ["Bridge", "DTYPES", "bridge", "fast_state", "install"]

K_NONE, K_INT, K_FLOAT, K_HANDLE, K_STRUCT, K_ENUM, K_DTYPE, K_GM, K_ARRAY, K_STR = range(10)

#: the dtype codes of kernel_operator.h's DtypeCode
DTYPES: dict[int, Any] = {1: asc.half, 2: asc.float32, 3: asc.bfloat16, 4: asc.int8, 5: asc.uint8,
                          6: asc.int16, 7: asc.uint16, 8: asc.int32, 9: asc.uint32, 10: asc.int64,
                          11: asc.uint64, 12: np.dtype(np.bool_), 13: np.dtype(np.float64),
                          14: asc.int4b_t}

#: Ascend's SoC names (CMake's tikicpulib::<soc>, run.sh's SOC_VERSION) -> aclsim's chip presets
SOC_CHIPS = {"Ascend910B1": "910B1", "Ascend910B2": "910B2", "Ascend910B3": "910B3", "Ascend910B4": "910B4",
             "Ascend910B": "910B", "Ascend310P1": "310P", "Ascend310P3": "310P", "Ascend310P": "310P"}
DEFAULT_CHIP = "910B"
#: SetKernelMode's MIX_MODE (CANN's default kernel mode)
MIX_MODE = 0

#: SetKernelMode's KernelMode (tikicpulib.h) -> the kernel type aclsim declares for the launch
_MODES = {0: asc.KernelMetaType.KERNEL_TYPE_MIX_AIC_1_2, 1: asc.KernelMetaType.KERNEL_TYPE_AIC_ONLY,
          2: asc.KernelMetaType.KERNEL_TYPE_AIV_ONLY, 3: asc.KernelMetaType.KERNEL_TYPE_MIX_AIC_1_1}


@dataclass
class _Region:
    """Device memory whose bytes the C++ side sees at ``host``: ``extent`` bytes from ``device``."""

    host: int
    extent: int
    device: int
    buffer: Any  # the runtime's Buffer
    owned: bool  # made by GmAlloc (GmFree frees it)


class Bridge:
    """The state behind the library: handles, GmAlloc regions, the runtime's device and stream."""

    def __init__(self, ffi: Any) -> None:
        self.ffi = ffi
        namespace = python_namespace()
        table = load()
        self.rows = table.callables
        #: per bridge id: what the C side calls (a method's name: it calls ``self.<name>(...)``) and
        #: how the row's return crosses (fastcall.ENCODERS)
        self.calls = [(_direct(row, fn, namespace), self._encoder(ret, table.classes))
                      for row, (fn, ret) in zip(self.rows, dispatch(namespace, table), strict=True)]
        self.type_kinds: dict[type, int] = {}  # a template return's type -> K_INT / K_FLOAT / K_NONE
        self.structs = [struct_python(namespace, table)[r.name] for r in table.of("struct")]
        self.struct_types = [ffi.typeof(f"aclsim_struct_{r.name} *") for r in table.of("struct")]
        self.struct_fields = [[(p.name, p.ctype) for p in r.params] for r in table.of("struct")]
        self.enums = enum_python(namespace, table)
        self.objects: dict[int, Any] = {0: None}
        self._next = 1
        self.regions: list[_Region] = []  # sorted by host address
        self._starts: list[int] = []
        self.errors = threading.local()
        self.mode: int | None = None
        self.last_launch: Any = None

    @property
    def where(self) -> tuple[str, int]:
        """The C++ line of the bridged call running on this thread (its last one): the kernel
        layer's source location, which the bridged call sets."""
        at = asc.source_location(None)
        set_source_location(at)
        return at if at is not None else ("", 0)

    @property
    def tiling_key(self) -> int | None:
        """``ICPU_SET_TILING_KEY``'s key for the next launch (kept where the table's adapters read it)."""
        return _tiling.tiling_key()

    @tiling_key.setter
    def tiling_key(self, key: int | None) -> None:
        _tiling.set_tiling_key(key)

    # --- the runtime ----------------------------------------------------------------------

    def start(self, soc: str) -> None:
        """Start aclsim on first use, unless a Python host program runs it (a library loaded into
        a Python process: its runtime, its current device): the chip is ``ACLSIM_CHIP``, else the
        SoC the build names, else the 910B."""
        if aclsim.is_initialized():
            return
        chip = os.environ.get("ACLSIM_CHIP") or SOC_CHIPS.get(soc or "", "")
        if not chip:
            if soc:
                print(f"aclsim: no preset for SoC {soc}; running on the {DEFAULT_CHIP} "
                      "(set ACLSIM_CHIP to choose: aclsim chips lists them)", file=sys.stderr)
            chip = DEFAULT_CHIP
        aclsim.init(chip=chip)
        aclsim.set_device(0)

    # --- GM -------------------------------------------------------------------------------

    def gm_alloc(self, size: int, soc: str) -> int:
        """Device memory of ``size`` bytes; returns the host address of its bytes (0 on failure)."""
        self.start(soc)
        buf = aclsim.malloc(max(int(size), 1))
        found = allocation_at(int(buf.ptr))
        if found is None:  # pragma: no cover - a fresh allocation is always found
            aclsim.free(buf)
            return 0
        host = int(found.view.ctypes.data)
        self._add(_Region(host, len(found.view), int(buf.ptr), buf, True))
        return host

    def gm_free(self, host: int) -> bool:
        i = bisect.bisect_left(self._starts, host)
        if i == len(self._starts) or self._starts[i] != host or not self.regions[i].owned:
            return False
        region = self.regions.pop(i)
        self._starts.pop(i)
        aclsim.free(region.buffer)
        return True

    def to_device(self, host: int) -> int:
        """The device address behind a host address inside a region (else ``host`` itself).  A
        region the runtime no longer backs with those bytes (a Python host program started the
        runtime again) is dropped."""
        while True:
            i = bisect.bisect_right(self._starts, host) - 1
            if i < 0 or host >= self.regions[i].host + self.regions[i].extent:
                return host
            r = self.regions[i]
            device = r.device + host - r.host
            found = r.owned or _backs(device, host)
            if found:
                return device
            del self.regions[i], self._starts[i]

    def to_host(self, device: int) -> int:
        """The host address of device memory's bytes (a pointer the C++ side may dereference);
        the allocation becomes a region, so pointers into it translate back."""
        found = allocation_at(device)
        if found is None:
            return device
        host, base = int(found.view.ctypes.data), int(found.base)
        self._add(_Region(host, len(found.view), base, found.buffer, False))
        return host + device - base

    def _add(self, region: _Region) -> None:
        """Keep ``region`` (sorted by host address); one that starts at the same host byte is
        replaced (those bytes are other device memory now, or the same region again)."""
        i = bisect.bisect_left(self._starts, region.host)
        if i < len(self._starts) and self._starts[i] == region.host:
            if not self.regions[i].owned or region.owned:
                self.regions[i] = region
            return
        self._starts.insert(i, region.host)
        self.regions.insert(i, region)

    # --- handles and arguments -----------------------------------------------------------------

    def handle(self, obj: Any) -> int:
        h = self._next
        self._next = h + 1
        self.objects[h] = obj
        return h

    def decode_word(self, kind: int, sub: int, word: int) -> Any:
        """An argument of the kinds the C side leaves to Python: ``word`` is its record's 64 bits
        (an address for a struct, an array or a string)."""
        if kind == K_ENUM:
            return self.enums[sub](word)
        if kind == K_DTYPE:
            return DTYPES[word]
        if kind == K_STRUCT:
            ptr = self.ffi.cast(self.struct_types[sub], word)
            values = []
            for name, ctype in self.struct_fields[sub]:
                value = getattr(ptr, name)
                if ctype == "half":
                    value = float(np.uint16(value).view(np.float16))
                values.append(value)
            return self.structs[sub](*values)
        if kind == K_GM:
            return asc.GmAddr(self.to_device(word)) if word else None
        if kind == K_ARRAY:
            data = self.ffi.cast("uint64_t *", word)
            return [int(data[i]) for i in range(sub)]
        if kind == K_STR:
            return self.ffi.string(self.ffi.cast("char *", word)).decode()
        return None

    def encode_value(self, value: Any) -> tuple[int, int | float]:
        """A return value whose C++ type is a template's (the value says which): ``(kind, word)``."""
        if value is None:
            return K_NONE, 0
        if isinstance(value, (bool, np.bool_, int, np.integer)):  # a uint64 above 2**63: its bits
            return K_INT, int(value)
        if isinstance(value, (float, np.floating)) or _ml_float(value):
            return K_FLOAT, float(value)
        if isinstance(value, asc.GmAddr):
            return K_GM, self.to_host(int(value))
        return K_HANDLE, self.handle(value)

    def type_kind(self, typ: type) -> int:
        """How :meth:`encode_value` crosses the values of type ``typ``: ``K_INT`` or ``K_FLOAT``
        (the C side converts those itself), else ``K_NONE`` (it asks :meth:`encode_value`)."""
        if issubclass(typ, (bool, np.bool_, int, np.integer)):
            kind = K_INT
        elif issubclass(typ, (float, np.floating)) or (
                issubclass(typ, np.generic) and np.dtype(typ).kind == "V"):  # ml_dtypes' bfloat16: _ml_float
            kind = K_FLOAT
        else:
            kind = K_NONE
        self.type_kinds[typ] = kind
        return kind

    def pointer(self, value: Any) -> int:
        """A returned pointer (a GM address or None) as the host address C++ dereferences."""
        return self.to_host(int(value)) if value is not None else 0

    @staticmethod
    def _encoder(ret_type: str, classes: frozenset[str]) -> int:
        """How a row's return crosses, by its declared C++ type (fastcall.ENCODERS)."""
        base = ret_type.replace("const", "").replace("&", "").strip()
        if base == "void":
            return ENCODERS["void"]
        if base.split("<", 1)[0].strip() in classes:
            return ENCODERS["handle"]
        if base.endswith("*"):
            return ENCODERS["pointer"]
        if base in INT_TYPES:  # C++ reads the int unless the kind says float
            return ENCODERS["integer"]
        if base in FLOAT_TYPES:
            return ENCODERS["real"]
        return ENCODERS["value"]

    # --- calls ----------------------------------------------------------------------------

    def fast_state(self) -> tuple[Any, ...]:
        """What ``aclsim_asc_call`` (:mod:`aclsim.ascendc.fastcall`'s C) takes at its first call,
        in the order of ``fastcall.STATE_FIELDS``."""
        return ([fn for fn, _ in self.calls], bytes(code for _, code in self.calls), self.objects,
                set_source_location, self.decode_word, self.handle, self.pointer, self.encode_value,
                self.type_kinds, self.type_kind, self._failed)

    def _failed(self, exc: BaseException, ident: int) -> int:
        """Keep a bridged call's error for the thread (C++ unwinds, the block raises it)."""
        file_, line_ = where = self.where
        if isinstance(exc, AclError):  # a refusal (207000 ...) names the C++ call, not the table's Python
            block = _block()
            if block is not None:
                locate_acl_error(exc, block, where)
        elif isinstance(exc, Exception):  # a bad argument the C++ compiler let through
            exc = asc.KernelPythonError(exc, self.rows[ident].name, file=file_, line=line_, block=_block())
        self.errors.pending = exc
        if _block() is None:  # a host-side row (the host tiling): no launch reports it, C++ stops here
            print(f"aclsim: {file_}:{line_}: {self.rows[ident].name} failed: {self.errors.pending}",
                  file=sys.stderr)
        return 1

    def fail(self, what: str, file: str, line: int) -> int:
        """``ASSERT`` failed in the kernel, or C++ threw: a fault at that line."""
        self.errors.pending = KernelFault(what, file=file, line=line, block=_block(),
                                          hint="the kernel's own check failed: see its condition")
        return 1

    def take_error(self) -> BaseException | None:
        exc = getattr(self.errors, "pending", None)
        self.errors.pending = None
        return exc

    # --- ICPU_RUN_KF ------------------------------------------------------------------------

    def run_kernel(self, name: str, file: str, line: int, block_dim: int, soc: str, body: Any, ctx: Any,
                   pointers: list[int], table: str) -> int:
        """One launch of a C++ kernel; 0 when it ran, else the ACL error code (printed)."""
        if table != gen_cxx.fingerprint():
            print(f"aclsim: {file}:{line}: the kernel was compiled against another aclsim_ascendc_api.h "
                  f"(table {table}, this library has {gen_cxx.fingerprint()}): rebuild it with the flags "
                  "of `aclsim ascendc --cflags`", file=sys.stderr)
            return 500000
        self.start(soc)
        options = _options()
        if options is None:
            return 100000  # ACL_ERROR_INVALID_PARAM: printed
        kernel = asc.kernel(self._block_body(name, file, line, body, ctx), **options)
        args = [asc.GmAddr(self.to_device(p)) if p else None for p in pointers]
        for k, (p, a) in enumerate(zip(pointers, args, strict=True)):
            if p and a is not None and int(a) == p and not is_device_address(p):
                print(f"aclsim: {name}<<<{block_dim}>>> at {file}:{line}: argument {k + 1} ({p:#x}) is not "
                      "GmAlloc memory: ICPU_RUN_KF takes GmAlloc memory for every kernel argument (CANN's "
                      "CPU debug reads other host memory too; aclsim's global memory is device memory), so "
                      "the kernel faults where it touches it: allocate it with AscendC::GmAlloc",
                      file=sys.stderr)
        watch = GmWatch(self._regions_of(pointers))
        try:
            launch = kernel[block_dim](*args)  # the current context's default stream
            aclsim.synchronize_stream(None)
        except AclError as exc:
            print(f"aclsim: {name}<<<{block_dim}>>> at {file}:{line} failed: {exc}", file=sys.stderr)
            if isinstance(getattr(exc, "cause", exc), RaceError):
                print("aclsim: a device build with --cce-auto-sync (the samples' CMake files pass it) has "
                      "its compiler insert such flags: ACLSIM_AUTO_SYNC=1 runs the launch with aclsim's "
                      "auto-sync as that build does; ACLSIM_RACES=report reports races without failing",
                      file=sys.stderr)
            return exc.code
        finally:
            self.objects.clear()  # the launch's handles go with it (the same dict: the C call path holds it)
            self.objects[0] = None
            self.tiling_key = None
            asc.source_location(None)
        self.last_launch = launch
        watch.check(launch, file, line)
        _report(launch)
        return 0

    def _regions_of(self, pointers: list[int]) -> list[_Region]:
        """The GmAlloc regions the launch's pointer arguments point into (each once)."""
        out: list[_Region] = []
        for p in pointers:
            i = bisect.bisect_right(self._starts, p) - 1 if p else -1
            if i >= 0:
                r = self.regions[i]
                if r.owned and p < r.host + r.extent and all(r is not o for o in out):
                    out.append(r)
        return out

    def _mode(self) -> int | None:
        """The kernel mode a launch declares: ``SetKernelMode``'s, else CANN's default ``MIX_MODE`` on a
        split chip (each block one AIC and two AIVs; ``GetBlockIdx()`` on the AIVs runs over
        ``2 x blockDim``; a Matmul called from the AIVs is served by their AIC: kernel/kfc.py), else
        none (a coupled chip's AI Core has every pipe)."""
        from aclsim.runtime.lookup import current_device_or_first

        if self.mode is None and not current_device_or_first().chip.coupled:
            return MIX_MODE
        return self.mode

    def _block_body(self, name: str, file: str, line: int, body: Any, ctx: Any) -> Callable[..., None]:
        bridge = self
        # called through ctypes' PYFUNCTYPE, which keeps the GIL: the kernel's bridged calls then
        # find it held (the cores run one at a time anyway), instead of taking it on every call
        mode = self._mode()
        entry = _ENTRY(int(self.ffi.cast("uintptr_t", body)))
        context = int(self.ffi.cast("uintptr_t", ctx))

        def block(*_args: Any) -> None:
            if mode is not None:
                _declare_mode(mode)
            rc = entry(context)
            asc.source_location(None)
            if rc != 0:
                exc = bridge.take_error()
                if exc is None:
                    exc = KernelFault(f"the C++ kernel {name} threw a C++ exception", file=file, line=line)
                raise exc

        code = block.__code__.replace(co_filename=file, co_firstlineno=max(line, 1), co_name=name)
        fn = types.FunctionType(code, block.__globals__, name, None, block.__closure__)
        return fn


def _backs(device: int, host: int) -> bool:
    """Whether the device memory at ``device`` has its bytes at ``host``."""
    try:
        found = allocation_at(device)
    except AclError:  # freed
        return False
    return found is not None and int(found.view.ctypes.data) + device - int(found.base) == host


def _block() -> int | None:
    """The block running on this thread (None outside a launch)."""
    try:
        return int(asc.get_block_idx())
    except AclError:
        return None


def _declare_mode(mode: int) -> None:
    """SetKernelMode: the kernel type the launch declares (where the chip has it)."""
    kind = _MODES.get(mode)
    if kind is None:
        return
    try:
        asc.kernel_task_type_default(kind)
    except AclError:
        if mode != 2:  # AIV_MODE on a coupled chip: its AI Cores run vector kernels
            raise


def _ml_float(value: Any) -> bool:
    """An ml_dtypes scalar (bfloat16): no np.floating, it would cross as an object handle."""
    return isinstance(value, np.generic) and value.dtype.kind == "V"


#: ACLSIM_RACES -> the kernel options of a C++ launch
RACES: dict[str, dict[str, Any]] = {"fail": {"detect_races": True, "on_race": "fail"},
                                     "report": {"detect_races": True, "on_race": "report"},
                                     "off": {"detect_races": False}}


#: ACLSIM_AUTO_SYNC's values
SWITCH = {"": False, "0": False, "off": False, "no": False, "1": True, "on": True, "yes": True}


def _options() -> dict[str, Any] | None:
    """Kernel options from the environment: ``ACLSIM_RACES`` = ``fail`` (the default: a race fails
    the launch), ``report`` (races are printed and noted on the launch's diagnostics, the launch goes
    on) or ``off`` (no race check: as ``detect_races=False``); ``ACLSIM_AUTO_SYNC=1``: the flags are
    the ones aclsim's auto-sync infers (``auto_sync=True``, what the device build's
    ``--cce-auto-sync`` does).  None (printed): another value."""
    races = os.environ.get("ACLSIM_RACES", "fail").strip().lower() or "fail"
    auto = os.environ.get("ACLSIM_AUTO_SYNC", "").strip().lower()
    if races not in RACES or auto not in SWITCH:
        bad = f"ACLSIM_RACES={races!r} is not one of {', '.join(RACES)}" if races not in RACES else (
            f"ACLSIM_AUTO_SYNC={auto!r} is not one of 1, on, yes, 0, off, no")
        print(f"aclsim: {bad} [ACL_ERROR_INVALID_PARAM 100000]", file=sys.stderr)
        return None
    return {**RACES[races], "auto_sync": SWITCH[auto]}


def _report(launch: Any) -> None:
    """One line per launch on stderr (``ACLSIM_QUIET=1``: none); ``ACLSIM_TRACE=file.json``:
    the launch's Perfetto timeline."""
    for d in launch.diagnostics:  # races (ACLSIM_RACES=report), raw GM writes, padding accesses
        print(f"aclsim: {launch.name}<<<{launch.block_dim}>>>: {d}", file=sys.stderr)
    report = launch.report
    trace = os.environ.get("ACLSIM_TRACE")
    if trace and report is not None:
        write_trace(trace, [report], names=[launch.name])
    if os.environ.get("ACLSIM_QUIET", "0") not in ("", "0") or report is None:
        return
    print(f"aclsim: {launch.name}<<<{launch.block_dim}>>> on {report.chip.name}: {launch.instructions} "
          f"instructions, {report.microseconds:.2f} us modeled, bottleneck {report.bottleneck.track_name}",
          file=sys.stderr)


#: a block's C++ entry, ``int (*)(void *)``, called with the GIL held
_ENTRY = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p)

_bridge: Bridge | None = None


def bridge() -> Bridge:
    """The library's bridge (after :func:`install`)."""
    if _bridge is None:
        raise RuntimeError("aclsim.ascendc.bridge: the library has not started")
    return _bridge


def fast_state() -> tuple[Any, ...]:
    """What the library's bridged call (``aclsim_asc_call``, in C) binds at its first call."""
    return bridge().fast_state()


def _direct(row: Any, fn: Callable[..., Any], namespace: dict[str, Any]) -> Any:
    """What the C side calls for ``row``: a row whose Python call is a plain name called with the
    crossing parameters in order is that function itself (no lambda around it), a method's the
    method's name (the C side calls ``self.<name>(...)``); any other row ``fn``, the table's
    callable."""
    if not re.fullmatch(r"[\w.]+", row.python) or len(row.out_params) > 1:
        return fn
    if row.python.split(".", 1)[0] in crossing(row):  # a parameter's name: the table's lambda reads it
        return fn
    if row.kind == "method":
        return row.python if row.python.isidentifier() else fn
    try:
        target = eval(row.python, namespace)  # noqa: S307 - the package's own table
    except Exception:  # noqa: BLE001 - a name that does not resolve fails when called, as the table's lambda
        return fn
    return target if callable(target) else fn


def install(ffi: Any) -> None:
    """Bind the library's entry points (called by the library's init code)."""
    global _bridge
    b = _bridge = Bridge(ffi)
    bind_start(b.start)  # the host rows (the Matmul host tiling) start aclsim as GmAlloc does

    @ffi.def_extern(name="_aclsim_py_asc_fail", error=1)
    def _fail(what: Any, file: Any, line: int) -> int:
        text = ffi.string(what).decode(errors="replace")
        return b.fail(text, ffi.string(file).decode(errors="replace"), line)

    @ffi.def_extern(name="_aclsim_py_asc_gm_alloc", error=0)
    def _gm_alloc(size: int, soc: Any) -> int:
        try:
            return b.gm_alloc(size, ffi.string(soc).decode())
        except AclError as exc:
            print(f"aclsim: GmAlloc({size}) failed: {exc}", file=sys.stderr)
            return 0

    @ffi.def_extern(name="_aclsim_py_asc_gm_free", error=0)
    def _gm_free(host: int) -> int:
        return int(b.gm_free(host))

    @ffi.def_extern(name="_aclsim_py_asc_set_tiling_key", error=0)
    def _set_key(key: int) -> int:
        b.tiling_key = int(key)
        return 0

    @ffi.def_extern(name="_aclsim_py_asc_tiling_key", error=0)
    def _key() -> int:
        return b.tiling_key if b.tiling_key is not None else 0

    @ffi.def_extern(name="_aclsim_py_asc_set_kernel_mode", error=0)
    def _mode(mode: int) -> int:
        b.mode = int(mode)
        return 0

    @ffi.def_extern(name="_aclsim_py_asc_run", error=500000)
    def _run(name: Any, file: Any, line: int, block_dim: int, soc: Any, body: Any, ctx: Any, n: int,
             ptrs: Any, table: Any) -> int:
        s = ffi.string
        pointers = [int(ffi.cast("uintptr_t", ptrs[i])) for i in range(n)]
        return b.run_kernel(s(name).decode(), s(file).decode(), line, block_dim, s(soc).decode(), body, ctx,
                            pointers, s(table).decode())
