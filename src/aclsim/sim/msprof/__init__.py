"""msprof / msOpProf-compatible outputs of simulated launches (``docs/simulator.md``,
"msprof-compatible outputs"): the ``op_summary`` CSV, msOpProf's ``OpBasicInfo``,
``PipeUtilization`` and ``Memory`` CSVs, and its simulator's ``trace.json``,
``instr_exe.csv`` and ``code_exe.csv``, with Huawei's column names and definitions.

>>> from aclsim.arch import get_chip
>>> from aclsim.isa import Instr, Pipe
>>> from aclsim.sim import simulate
>>> report = simulate(get_chip("tiny"), [[Instr(Pipe.V, "add", cost={"cycles": 1000})]])
>>> row = dict(zip(OP_SUMMARY_HEADER, op_summary_rows([Task(report, "add")])[0]))
>>> row["Task Type"], row["Task Duration(us)"], row["aiv_vec_ratio"]
('AI_VECTOR_CORE', '1.000', '1.000')
"""

from aclsim.sim.msprof.figures import Task, split_kind, task_type
from aclsim.sim.msprof.simulator import (
    CODE_EXE_HEADER,
    INSTR_EXE_HEADER,
    SubCore,
    code_exe_rows,
    instr_exe_rows,
    subcores,
    trace_events,
)
from aclsim.sim.msprof.tables import (
    MEMORY_HEADER,
    OP_BASIC_INFO_HEADER,
    OP_SUMMARY_HEADER,
    PIPE_UTILIZATION_HEADER,
    memory_bound,
    op_basic_info_row,
    op_summary_rows,
    per_core_rows,
)
from aclsim.sim.msprof.writer import write_csv, write_msprof, write_opprof

__all__ = [
    "CODE_EXE_HEADER", "INSTR_EXE_HEADER", "MEMORY_HEADER", "OP_BASIC_INFO_HEADER", "OP_SUMMARY_HEADER",
    "PIPE_UTILIZATION_HEADER", "SubCore", "Task", "code_exe_rows", "instr_exe_rows", "memory_bound",
    "op_basic_info_row", "op_summary_rows", "per_core_rows", "split_kind", "subcores", "task_type",
    "trace_events", "write_csv", "write_msprof", "write_opprof",
]
