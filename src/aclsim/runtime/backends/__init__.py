"""Backends: where device bytes live.  ``sim`` (default) keeps them in a host byte arena."""

from aclsim.runtime.backends.base import Backend, DeviceArena
from aclsim.runtime.backends.sim import SimArena, SimBackend

__all__ = ["Backend", "DeviceArena", "SimArena", "SimBackend"]
