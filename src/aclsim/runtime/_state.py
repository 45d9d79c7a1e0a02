"""Process-wide runtime state: initialization, configuration, handles, thread-locals."""

from __future__ import annotations

import collections
import itertools
import json
import os
import re
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from aclsim.arch import DEFAULT_CHIP, ChipSpec, get_chip
from aclsim.errors import (
    ACL_ERROR_INVALID_FILE,
    ConfigFileError,
    InvalidParamError,
    UninitializedError,
)
from aclsim.runtime import foreign
from aclsim.runtime.backends import BACKENDS, Backend
from aclsim.runtime.backends.sim import MAX_DEVICE_MEMORY, SimBackend
from aclsim.runtime.hostmem import HostMemory
from aclsim.runtime.memdebug import MAX_DIAGNOSTICS, Diagnostic
from aclsim.runtime.pool import PoolOptions

if TYPE_CHECKING:
    from aclsim.runtime.context import Context
    from aclsim.runtime.device import Device
    from aclsim.runtime.stream import Report, Stream

_PACKAGE_DIR = str(Path(__file__).resolve().parent.parent)


def caller_site() -> str:
    """``file:line`` of the first frame outside the aclsim package (where the user called us);
    inside a call from native code, the native caller (:mod:`aclsim.runtime.foreign`)."""
    call = foreign.current()
    if call is not None:
        return call.site
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return "<aclsim>"
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


_SITE_RE = re.compile(r"(?:^|\()([^()]+):(\d+)\)?$")


def site_location(site: str) -> tuple[str, int]:
    """``(filename, lineno)`` of a :func:`caller_site` string, for a warning attributed to it:
    ``"/x/prog.py:12"`` and a C caller's ``"main (prog.c:12)"`` give the file and line; a site
    without a line gives itself and 0.

    >>> site_location("/x/my prog.py:12"), site_location("main (prog.c:7)"), site_location("prog+0x40")
    (('/x/my prog.py', 12), ('prog.c', 7), ('prog+0x40', 0))
    """
    m = _SITE_RE.search(site)
    return (m.group(1), int(m.group(2))) if m else (site, 0)


_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?i?B?)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10, "M": 1 << 20, "MB": 1 << 20,
          "MIB": 1 << 20, "G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30, "T": 1 << 40, "TB": 1 << 40,
          "TIB": 1 << 40}


def parse_size(value: int | str) -> int:
    """Parse a byte count: ``4096``, ``"512MiB"``, ``"2 GiB"`` (binary units).

    >>> parse_size("64MiB"), parse_size(100)
    (67108864, 100)
    """
    if isinstance(value, int) and not isinstance(value, bool):
        if value <= 0:
            raise ValueError(f"a memory size must be > 0, got {value}")
        return value
    m = _SIZE_RE.match(str(value))
    if not m or (m.group(2) or "").upper() not in _UNITS:
        raise ValueError(f"cannot read {value!r} as a size; write e.g. 1073741824, '512MiB' or '4GiB'")
    size = int(float(m.group(1)) * _UNITS[(m.group(2) or "").upper()])
    if size <= 0:
        raise ValueError(f"a memory size must be > 0, got {value!r}")
    return size


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def parse_flag(value: object) -> bool:
    """A boolean setting: a bool, or ``1/true/yes/on`` and ``0/false/no/off`` (any case).

    >>> parse_flag("On"), parse_flag(0)
    (True, False)
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    text = str(value).strip().lower()
    if text in _TRUE or text in _FALSE:
        return text in _TRUE
    raise ValueError(f"cannot read {value!r} as a flag; write 1/0, true/false, yes/no or on/off")


@dataclass(frozen=True, kw_only=True)
class Config:
    """What ``init`` decided: device count, chip preset, device memory per device, whether the
    memory debugger's diagnostics are errors (``strict``), the devices' backend, and whether
    device memory goes through the caching pool (``caching``; off: ``DirectAllocator``)."""

    devices: int = 1
    chip: ChipSpec
    memory_bytes: int
    pool: PoolOptions = PoolOptions()
    strict: bool = False
    backend: Backend = field(default_factory=SimBackend)
    caching: bool = True

    def __post_init__(self) -> None:
        if not 1 <= self.devices <= 64:
            raise ValueError(f"device count must be in 1..64, got {self.devices}")


def make_backend(choice: object) -> Backend:
    """A backend from its name (``"sim"``, ``"null"``) or a :class:`Backend` given as is."""
    if isinstance(choice, Backend):
        return choice
    cls = BACKENDS.get(str(choice).strip().lower())
    if cls is None:
        raise ValueError(f"unknown backend {choice!r}; known: {sorted(BACKENDS)} or a Backend instance")
    return cls()


def load_config(config_path: str | os.PathLike[str] | None, overrides: dict[str, Any]) -> Config:
    """Merge, lowest first: defaults, ``ACLSIM_*`` environment, the ``"aclsim"`` section of
    the init JSON file, keyword overrides."""
    settings: dict[str, Any] = {}
    env = {"devices": "ACLSIM_DEVICES", "chip": "ACLSIM_CHIP", "memory": "ACLSIM_MEMORY",
           "alloc_conf": "ACLSIM_ALLOC_CONF", "strict": "ACLSIM_STRICT", "backend": "ACLSIM_BACKEND",
           "pool": "ACLSIM_POOL"}
    for key, var in env.items():
        if os.environ.get(var):
            settings[key] = os.environ[var]
    if config_path:
        path = Path(config_path)
        if not path.is_file():
            raise ConfigFileError(f"init config file {str(path)!r} does not exist",
                                  code=ACL_ERROR_INVALID_FILE, hint="pass an existing JSON file or None")
        text = path.read_text(encoding="utf-8").strip()
        try:
            data = json.loads(text) if text else {}
        except json.JSONDecodeError as exc:
            raise ConfigFileError(f"init config {str(path)!r} is not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise ConfigFileError(f"init config {str(path)!r} must hold a JSON object")
        section = data.get("aclsim", {})
        if not isinstance(section, dict):
            raise ConfigFileError('the "aclsim" entry of the init config must be an object')
        unknown = set(section) - set(env)
        if unknown:
            raise ConfigFileError(f"unknown aclsim settings {sorted(unknown)}; known: {sorted(env)}")
        settings.update(section)
    settings.update({k: v for k, v in overrides.items() if v is not None})
    try:
        chip = get_chip(settings.get("chip", DEFAULT_CHIP))
        devices = int(settings.get("devices", 1))
        memory = parse_size(settings["memory"]) if "memory" in settings else chip.dram_bytes
        if memory > MAX_DEVICE_MEMORY:
            raise ValueError(f"device memory {memory} B is above the {MAX_DEVICE_MEMORY} B a simulated "
                             "device can address")
        conf = settings.get("alloc_conf")
        pool = conf if isinstance(conf, PoolOptions) else PoolOptions.parse(str(conf or ""))
        strict = parse_flag(settings.get("strict", False))
        return Config(devices=devices, chip=chip, memory_bytes=memory, pool=pool, strict=strict,
                      backend=make_backend(settings.get("backend", "sim")),
                      caching=parse_flag(settings.get("pool", True)))
    except (ValueError, TypeError) as exc:
        raise InvalidParamError(f"bad aclsim configuration: {exc}") from None


def check_int(name: str, value: object, *, minimum: int = 0) -> int:
    """``value`` as a Python int of at least ``minimum`` (NumPy integers too, bools not);
    anything else is :class:`~aclsim.errors.InvalidParamError` naming ``name``."""
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise InvalidParamError(f"{name} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise InvalidParamError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


class HandleTable:
    """The pyACL handles of the runtime's objects: every context, stream and event registers
    itself at creation and leaves at destruction; ``acl`` turns int handles back into them.

    >>> table = HandleTable(); h = table.register("obj"); table[h], len(table)
    ('obj', 1)
    >>> table.release(h); table.get(h) is None
    True
    """

    def __init__(self) -> None:
        self._objects: dict[int, object] = {}
        self._counter = itertools.count(1)

    def register(self, obj: object) -> int:
        handle = 0x7E000000 + next(self._counter) * 0x40
        self._objects[handle] = obj
        return handle

    def release(self, handle: int) -> None:
        self._objects.pop(handle, None)

    def get(self, handle: int) -> object | None:
        return self._objects.get(handle)

    def __getitem__(self, handle: int) -> object:
        return self._objects[handle]

    def __len__(self) -> int:
        return len(self._objects)

    def items(self) -> list[tuple[int, object]]:
        return list(self._objects.items())

    def values(self) -> list[object]:
        return list(self._objects.values())

    def clear(self) -> None:
        self._objects.clear()


class RuntimeState:
    """The single runtime of the process."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.initialized = False
        self.ever_initialized = False
        self.config: Config | None = None
        self.devices: list[Device] = []
        self.handles = HandleTable()
        self.host = HostMemory()
        # record_memory_history(device=None): (enabled, stacks, max_entries) for devices opened later
        self.memory_history: tuple[bool, bool, int] | None = None
        self.tls = threading.local()
        # suspicious-but-legal uses noticed by the runtime (aclsim.diagnostics())
        self.diagnostics: collections.deque[Diagnostic] = collections.deque(maxlen=MAX_DIAGNOSTICS)
        # callbacks: which thread processes the reports of which stream (the Thread object,
        # never its id: the OS reuses the id of a thread that has exited)
        self.subscriptions: dict[Stream, threading.Thread] = {}
        self.reports: dict[threading.Thread, list[Report]] = {}
        # A lock of its own: stream workers post callbacks while API calls that hold
        # ``lock`` may be waiting for those very workers.
        self.report_cond = threading.Condition(threading.Lock())

    def require_init(self) -> Config:
        config = self.config
        if not self.initialized or config is None:
            raise UninitializedError("aclsim is not initialized", hint="call init() first")
        return config

    # thread-local current context
    @property
    def current_context(self) -> Context | None:
        ctx = getattr(self.tls, "context", None)
        if ctx is not None and not ctx.alive:
            self.tls.context = None
            return None
        return ctx

    @current_context.setter
    def current_context(self, ctx: Context | None) -> None:
        self.tls.context = ctx


STATE = RuntimeState()
