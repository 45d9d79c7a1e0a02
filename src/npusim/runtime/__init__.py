"""The AscendCL runtime on a simulated NPU (Pythonic API; see ``npusim.acl`` for pyACL's face)."""

from npusim.runtime.api import *  # noqa: F403
from npusim.runtime.api import __all__ as _api_all
from npusim.runtime.context import Context
from npusim.runtime.device import Device
from npusim.runtime.event import Event
from npusim.runtime.memory import Allocator, BestFitAllocator, Buffer
from npusim.runtime.stream import Stream

__all__ = [*_api_all, "Allocator", "BestFitAllocator", "Buffer", "Context", "Device", "Event", "Stream"]
