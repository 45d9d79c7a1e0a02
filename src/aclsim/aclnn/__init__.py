"""The aclnn two-phase operator API (seed 003): tensor descriptors, executors, tiling, and
operators that run as kernels of :mod:`aclsim.kernel` on a stream.  See ``docs/aclnn.md``."""
