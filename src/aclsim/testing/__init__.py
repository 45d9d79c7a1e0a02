"""Seed 003's operator test harness and memory KPIs: test data, an operator run through both
aclnn phases with warm-up, repeated runs and timing, a tolerance report against NumPy
(:func:`assert_close`), the memory health table, and a pytest plug-in
(:mod:`aclsim.testing.plugin`, installed through the package's ``pytest11`` entry point).
See ``docs/testing.md``.
"""

from aclsim.testing.compare import (
    DEFAULT_TOLERANCES,
    CompareReport,
    Tolerance,
    assert_close,
    compare,
    default_tolerance,
)
from aclsim.testing.data import SPECIAL_VALUES, generate, resolve_dtype
from aclsim.testing.harness import OpHarness, OpRun
from aclsim.testing.memhealth import THRESHOLDS, MemoryHealth, MemoryMonitor, assess, grade
from aclsim.testing.sample_op import (
    SampleAddExecutor,
    sample_add,
    sample_add_get_workspace_size,
    sample_destroy_executor,
    sample_set_executor_repeatable,
)

__all__ = [
    "DEFAULT_TOLERANCES",
    "SPECIAL_VALUES",
    "THRESHOLDS",
    "CompareReport",
    "MemoryHealth",
    "MemoryMonitor",
    "OpHarness",
    "OpRun",
    "SampleAddExecutor",
    "Tolerance",
    "assert_close",
    "assess",
    "compare",
    "default_tolerance",
    "generate",
    "grade",
    "resolve_dtype",
    "sample_add",
    "sample_add_get_workspace_size",
    "sample_destroy_executor",
    "sample_set_executor_repeatable",
]
