"""Python helpers the C++ table's rows may call as ``cxx.<name>`` where a C++ overload's arguments do
not map onto an ``aclsim.kernel`` call one to one (each module of this package adds its names)."""

from __future__ import annotations

__all__: list[str] = []

from aclsim.ascendc.adapters.more import mrg_sort_counts  # noqa: E402 - sort

__all__ += ["mrg_sort_counts"]

from aclsim.ascendc.adapters.util import crd2idx, shape_array  # noqa: E402 - memory, cache, utilities

__all__ += ["crd2idx", "shape_array"]
