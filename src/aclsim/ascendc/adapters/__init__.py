"""Python helpers the C++ table's rows may call as ``cxx.<name>`` where a C++ overload's arguments do
not map onto an ``aclsim.kernel`` call one to one (each module of this package adds its names)."""

from __future__ import annotations

from aclsim.ascendc.adapters import cube
from aclsim.ascendc.adapters.cube import *  # noqa: F403

__all__: list[str] = []
__all__ += cube.__all__
