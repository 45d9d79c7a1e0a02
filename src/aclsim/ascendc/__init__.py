"""Ascend C kernels written in C++, run on aclsim (docs/ascendc_cpp.md).

``kernel_operator.h`` and ``tikicpulib.h`` (under ``include/``) let a kernel and its CPU-debug
host program compile unchanged with the host's C++ compiler; every Ascend C call crosses into
the Python kernel language (:mod:`aclsim.kernel`) through ``libaclsim_ascendc.so``
(:mod:`aclsim.ascendc.build`, :mod:`aclsim.ascendc.bridge`).  The API is one table,
``api_cxx.txt`` (:mod:`aclsim.ascendc.table`), from which the C++ header, the Python dispatch
and the docs' rows are generated.
"""
