"""The TopK port (examples/24_port_topk.py: RpSort16, MrgSort4, ProposalConcat/Extract on the 310P)
against NumPy."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import aclsim

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "24_port_topk.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("port_topk", EXAMPLE)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


topk = _load()


@pytest.fixture
def on_310p() -> Iterator[None]:
    aclsim.init(chip="310P")
    aclsim.set_device(0)
    yield
    aclsim.reset_device(0)


@pytest.mark.parametrize("case", topk.CASES, ids=str)
def test_topk_one_core(on_310p, case) -> None:
    size, k, is_ascend, block_dim = case
    x = np.random.default_rng(size + k).uniform(-60000, 60000, size).astype(np.float16)
    golden = np.sort(x)[:k] if is_ascend else (-np.sort(-x))[:k]
    np.testing.assert_array_equal(topk.run_topk(x, k, is_ascend, block_dim), golden)


@pytest.mark.xfail(strict=True, reason="aclsim's ib_wait does not write the flag back to 0 as the library's "
                   "IBWait does, so the odd-even stages reusing a flag race (see the example's docstring)")
def test_topk_four_cores_odd_even(on_310p) -> None:
    size, k, is_ascend, block_dim = topk.MULTI_CORE_CASE
    x = np.random.default_rng(5).uniform(-60000, 60000, size).astype(np.float16)
    np.testing.assert_array_equal(topk.run_topk(x, k, is_ascend, block_dim), (-np.sort(-x))[:k])
