"""The two examples of docs/aclnn.md "Writing an op", run as written there."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

import aclsim
from aclsim.aclnn import Tensor

DOC = Path(__file__).resolve().parents[2] / "docs" / "aclnn.md"


def _examples() -> list[str]:
    text = DOC.read_text().split("## Writing an op", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", text, re.S)


def _load(code: str, name: str) -> dict[str, Any]:
    from aclsim.aclnn import executor

    ns: dict[str, Any] = {}
    executor._OPS.pop(name, None)  # the op may be registered by another test of this module
    exec(compile(code, f"docs/aclnn.md:{name}", "exec"), ns)
    return ns


def test_square_on_the_elementwise_template(rt: None) -> None:
    ns = _load(_examples()[0], "Square")
    a = np.linspace(-3, 3, 77, dtype=np.float32).reshape(7, 11)
    x, out = Tensor.from_numpy(a), Tensor.empty(a.shape, np.float32)
    ws, ex = ns["square_get_workspace_size"](x.desc, out.desc)
    assert ws == 0
    ns["square"](None, ws, ex, None)
    np.testing.assert_array_equal(out.numpy(), a * a)
    assert aclsim.aclnn.get_op("Square").get_workspace_size is ns["square_get_workspace_size"]


def test_add_twice_with_a_workspace_intermediate(rt: None) -> None:
    ns = _load(_examples()[1], "AddTwice")
    a, b = np.arange(64, dtype=np.float32), np.full(64, 0.5, np.float32)
    x, y, out = Tensor.from_numpy(a), Tensor.from_numpy(b), Tensor.empty((64,), np.float32)
    ws, ex = ns["add_twice_get_workspace_size"](x.desc, y.desc, out.desc)
    assert ws == (256 + 32 + 511) & ~511
    workspace = aclsim.malloc(ws)
    ns["add_twice"](workspace, ws, ex, None)
    np.testing.assert_array_equal(out.numpy(), a + 2 * b)
    aclsim.free(workspace)
