"""Every registered op's two phases are public names of aclsim.aclnn (snake_case of the aclnn
name; ``slice_`` where the name is a Python builtin the module must not shadow)."""

from __future__ import annotations

import re

from aclsim import aclnn


def test_every_registered_op_is_exported_with_both_phases() -> None:
    missing = []
    library = [  # the library's ops, not those other tests register (tests/acl registers one)
        n
        for n in aclnn.op_names()
        if aclnn.get_op(n).get_workspace_size.__module__.startswith("aclsim.aclnn.")
    ]
    assert len(library) > 30
    for name in library:
        snake = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
        phase_one = f"{snake}_get_workspace_size"
        phase_two = snake if snake in aclnn.__all__ else f"{snake}_"
        for api in (phase_one, phase_two):
            if api not in aclnn.__all__ or not callable(getattr(aclnn, api, None)):
                missing.append(api)
    assert not missing, f"not exported by aclsim.aclnn: {missing}"
    assert aclnn.get_op("Matmul").get_workspace_size is aclnn.matmul_get_workspace_size
