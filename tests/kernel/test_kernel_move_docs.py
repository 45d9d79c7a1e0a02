"""The names issue 13 added for multi-core kernels, data movement and cube paths are exported by
``aclsim.kernel`` and have their row in ``docs/dsl_mapping.md``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import aclsim.kernel as asc

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "dsl_mapping.md").read_text()

NAMES = [
    # multi-core kernels, atomic stores, workspaces
    "KernelPythonError", "disable_dma_atomic", "get_sub_block_idx", "get_sub_block_num",
    "get_sys_workspace_ptr", "get_user_workspace", "init_global_memory", "init_output", "set_atomic_add",
    "set_atomic_max", "set_atomic_min", "set_atomic_none", "set_atomic_type", "set_sys_workspace", "sync_all",
    "sys_workspace_size",
    # data movement
    "NCHW_CONV_ADDR_LIST_SIZE", "BlockMode", "DataCopyEnhancedParams", "DataCopyMVType", "DataCopyPadParams",
    "DeqScale", "LoopModeParams", "TransDataTo5HDParams", "reset_loop_mode_para", "set_loop_mode_para",
    "trans_data_to_5hd",
    # cube paths and helpers
    "BLOCK_CUBE", "DEFAULT_C0_SIZE", "ONE_BLK_SIZE", "HF32Mode", "HF32TransMode", "LoadData2dParams",
    "LoadData2dTransposeParams", "LoadData3DParamsV2", "ceil_division", "load_data_with_transpose",
    "set_hf32_mode", "set_hf32_trans_mode", "total_l0a_size", "total_l0b_size", "total_l0c_size",
    "total_l1_size", "total_ub_size", "total_vec_local_size",
]


@pytest.mark.parametrize("name", NAMES)
def test_exported_and_documented(name: str) -> None:
    assert name in asc.__all__ and hasattr(asc, name), f"export {name} from aclsim.kernel"
    assert re.search(rf"`[^`]*\b{name}\b[^`]*`", DOCS), f"add {name} to docs/dsl_mapping.md"
