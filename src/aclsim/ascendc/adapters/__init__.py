"""Python helpers the C++ table's rows may call as ``cxx.<name>`` where a C++ overload's arguments do
not map onto an ``aclsim.kernel`` call one to one (each module of this package adds its names)."""

from __future__ import annotations

from aclsim.ascendc.adapters import cube
from aclsim.ascendc.adapters.cube import *  # noqa: F403

__all__: list[str] = []

from aclsim.ascendc.adapters.more import mrg_sort_counts  # noqa: E402 - sort

__all__ += ["mrg_sort_counts"]
from aclsim.ascendc.adapters.multi import set_tiling_key, tiling_key  # noqa: E402 - blocks, cores, tiling

__all__ += ["set_tiling_key", "tiling_key"]
__all__ += cube.__all__

from aclsim.ascendc.adapters.util import crd2idx, shape_array  # noqa: E402 - memory, cache, utilities

__all__ += ["crd2idx", "shape_array"]

from aclsim.ascendc.adapters.last2 import co12_params, fixpipe_old  # noqa: E402 - cube loads, fixpipe, int4

__all__ += ["co12_params", "fixpipe_old"]

from aclsim.ascendc.adapters.last1 import matmul_init_static  # noqa: E402 - Matmul configs and members

__all__ += ["matmul_init_static"]

from aclsim.ascendc.adapters.logsoftmax import log_soft_max_tiling_value  # noqa: E402 - LogSoftMax

__all__ += ["log_soft_max_tiling_value"]

from aclsim.ascendc.adapters.mmcb import (  # noqa: E402 - Matmul callbacks
    matmul_init_constant,
    matmul_iterate_batch,
    matmul_set_callbacks,
    matmul_wait_iterate_batch,
)

__all__ += ["matmul_init_constant", "matmul_iterate_batch", "matmul_set_callbacks",
            "matmul_wait_iterate_batch"]

from aclsim.ascendc.adapters.samples import platform_info  # noqa: E402 - samples sweep

__all__ += ["platform_info"]
