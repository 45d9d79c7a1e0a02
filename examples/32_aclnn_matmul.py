"""aclnnMatmul on the cube path: out = self @ mat2 with mat2 given transposed through its strides.

A (M, K) float16 activation times the transpose of a (N, K) float16 weight, as a linear layer
stores it: the weight's descriptor is the (K, N) view with strides (1, K) of the (N, K) storage,
so the kernel reads it as B^T (a transposed load into L0B) and phase one plans no copy
(workspace 0). cubeMathType 0 (KEEP_DTYPE): float16 inputs, float32 accumulation in L0C, the
result cast to float16 on fixpipe. The kernel's profile is printed from its launch report.
"""

import numpy as np

import aclsim
from aclsim import aclnn

M, K, N = 1024, 1024, 1024
KEEP_DTYPE = 0

aclsim.init()
aclsim.set_device(0)
stream = aclsim.create_stream()
rng = np.random.default_rng(0)
x_host = rng.uniform(-1, 1, (M, K)).astype(np.float16)
w_host = rng.uniform(-1, 1, (N, K)).astype(np.float16)  # (out_features, in_features)

x = aclnn.Tensor.from_numpy(x_host)
w = aclnn.Tensor.from_numpy(w_host)
w_t = w.view((K, N), (1, K))  # the transpose, as strides: no data moves
out = aclnn.Tensor.empty((M, N), np.float16)

workspace_size, executor = aclnn.matmul_get_workspace_size(x, w_t, out, KEEP_DTYPE)
print(f"aclnnMatmulGetWorkspaceSize: workspace {workspace_size} B (B^T read in place), {executor}")
workspace = aclsim.malloc(workspace_size) if workspace_size else None
launches = aclnn.matmul(workspace, workspace_size, executor, stream)
aclsim.synchronize_stream(stream)

result = out.numpy()
expected = (x_host.astype(np.float32) @ w_host.astype(np.float32).T).astype(np.float16)
err = float(np.max(np.abs(result.astype(np.float32) - expected.astype(np.float32))))
for launch in launches:
    rep = launch.report
    peak = rep.chip.cube_cores * rep.chip.cube_macs_per_cycle * 2 * rep.chip.clock_hz
    print(f"kernel {launch.kernel.name}<<<{launch.block_dim}>>>: {rep.instructions} instructions, "
          f"{rep.microseconds:.1f} us modeled, bottleneck {rep.bottleneck.track_name}, "
          f"{2 * M * N * K / rep.seconds / peak:.0%} of the cube peak")
print(f"max |out - NumPy| = {err:.4f} (float16 output)")

if workspace is not None:
    aclsim.free(workspace)
for t in (x, w, out):
    t.free()
aclsim.destroy_stream(stream)
aclsim.reset_device(0)
leaks = aclsim.finalize()
print("PASS" if err <= 0.05 and not leaks else "FAIL")
