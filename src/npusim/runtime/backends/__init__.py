"""Backends: where device bytes live.  ``sim`` (default) keeps them in a host byte arena."""

from npusim.runtime.backends.base import Backend, DeviceArena
from npusim.runtime.backends.sim import SimArena, SimBackend

__all__ = ["Backend", "DeviceArena", "SimArena", "SimBackend"]
