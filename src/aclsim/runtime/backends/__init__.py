"""Backends: where device bytes live and how kernel launches are timed.

``sim`` (default) keeps device memory in a host byte arena and times launches with the core
model; ``null`` has the same arena and records and checks launches without timing them.
"""

from aclsim.runtime.backends.base import Backend, DeviceArena
from aclsim.runtime.backends.null import NullBackend
from aclsim.runtime.backends.pipeline import (
    FindMemory,
    KernelRun,
    add_launch_listener,
    capture_launches,
    remove_launch_listener,
)
from aclsim.runtime.backends.sim import SimArena, SimBackend

BACKENDS: dict[str, type[Backend]] = {"sim": SimBackend, "null": NullBackend}

__all__ = [
    "BACKENDS",
    "Backend",
    "DeviceArena",
    "FindMemory",
    "KernelRun",
    "NullBackend",
    "SimArena",
    "SimBackend",
    "add_launch_listener",
    "capture_launches",
    "remove_launch_listener",
]
