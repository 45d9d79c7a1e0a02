"""The kernels behind the aclnn operators, one module per family, each with the function that
plans its tiling for a chip preset.  Operators launch them through their executor."""
