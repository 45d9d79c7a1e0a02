"""Adapters of api_cxx.txt's "Cube loads, fixpipe, int4" rows."""

from __future__ import annotations

import dataclasses
from typing import Any

import aclsim.kernel as asc

__all__ = ["co12_params"]


def co12_params(*values: Any) -> Any:
    """The C++ ``DataCopyCO12DstParams``'s fields (all twelve, in the table's order) as the Python
    ``DataCopyCO12DstParams`` (whose last four fields are keyword-only)."""
    names = [f.name for f in dataclasses.fields(asc.DataCopyCO12DstParams)]
    return asc.DataCopyCO12DstParams(**dict(zip(names, values, strict=True)))
