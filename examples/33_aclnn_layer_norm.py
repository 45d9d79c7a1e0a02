"""aclnnLayerNorm over a transformer-sized activation: 4 sequences of 512 tokens, hidden size
4096, in float16, normalised over the hidden dim with a float16 weight and bias, the mean and
rstd outputs kept (as a training step's forward pass keeps them for the backward pass).

Phase one checks the shapes and dtypes and plans the kernel over all vector cores of the 910B
preset (rows resident in UB, statistics in float32); phase two enqueues it. The profile summary
comes from the launch's report: modeled time, bottleneck pipe, share of the HBM roofline.
"""

import numpy as np

import aclsim
from aclsim import aclnn

BATCH, SEQ, HIDDEN = 4, 512, 4096
EPS = 1e-5

aclsim.init()
aclsim.set_device(0)
stream = aclsim.create_stream()
rng = np.random.default_rng(0)
x_host = rng.normal(0.5, 2.0, (BATCH, SEQ, HIDDEN)).astype(np.float16)
w_host = rng.uniform(0.5, 1.5, HIDDEN).astype(np.float16)
b_host = rng.uniform(-0.5, 0.5, HIDDEN).astype(np.float16)

x, w, b = (aclnn.Tensor.from_numpy(a) for a in (x_host, w_host, b_host))
out = aclnn.Tensor.empty(x_host.shape, np.float16)
mean = aclnn.Tensor.empty((BATCH, SEQ, 1), np.float16)
rstd = aclnn.Tensor.empty((BATCH, SEQ, 1), np.float16)
normalized_shape = aclnn.create_int_array([HIDDEN])

workspace_size, executor = aclnn.layer_norm_get_workspace_size(
    x, normalized_shape, w, b, EPS, out, mean, rstd
)
print(f"aclnnLayerNormGetWorkspaceSize: workspace {workspace_size} B, {executor}")
workspace = aclsim.malloc(workspace_size) if workspace_size else None
launches = aclnn.layer_norm(workspace, workspace_size, executor, stream)
aclsim.synchronize_stream(stream)

x64 = x_host.astype(np.float64)
mu = x64.mean(axis=-1, keepdims=True)
inv = 1.0 / np.sqrt(x64.var(axis=-1, keepdims=True) + EPS)
expected = (x64 - mu) * inv * w_host.astype(np.float64) + b_host.astype(np.float64)
err = float(np.max(np.abs(out.numpy().astype(np.float64) - expected)))
err_mean = float(np.max(np.abs(mean.numpy().astype(np.float64) - mu)))
err_rstd = float(np.max(np.abs(rstd.numpy().astype(np.float64) - inv) / inv))
moved = x_host.nbytes * 2 + w_host.nbytes + b_host.nbytes + mean.numpy().nbytes + rstd.numpy().nbytes
for launch in launches:
    rep = launch.report
    roofline = rep.chip.memory_bound_seconds(moved - x_host.nbytes, x_host.nbytes)
    print(f"kernel {launch.kernel.name}<<<{launch.block_dim}>>>: {rep.instructions} instructions, "
          f"{rep.microseconds:.1f} us modeled, bottleneck {rep.bottleneck.track_name}, "
          f"{roofline / rep.seconds:.0%} of the HBM roofline")
print(f"max |out - NumPy| = {err:.4f}, mean {err_mean:.2e}, rstd relative {err_rstd:.2e}")

if workspace is not None:
    aclsim.free(workspace)
aclnn.destroy_int_array(normalized_shape)
for t in (x, w, b, out, mean, rstd):
    t.free()
aclsim.destroy_stream(stream)
aclsim.reset_device(0)
leaks = aclsim.finalize()
print("PASS" if err < 0.02 and err_mean < 2e-3 and err_rstd < 2e-3 and not leaks else "FAIL")
