"""aclnn from C and C++ programs: the headers compile in both languages, seed 003's aclnnAdd
flow (examples/c/aclnn_add) gives NumPy's result, the error-path example's statuses, a library
that did not start returns 561000 from aclnn calls, and a Python process that loads the library
with ctypes runs an op's two phases on its own runtime."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from aclsim.capi import aclnn_table
from aclsim.capi.prototypes import INCLUDE_DIR
from aclsim.errors import ACL_ERROR_INTERNAL_ERROR, ACLNN_ERR_INNER

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "c"


@pytest.mark.parametrize("lang", ["c", "c++"])
def test_every_aclnn_header_compiles(lang: str, tmp_path: Path) -> None:
    compiler = shutil.which("cc" if lang == "c" else "c++")
    if compiler is None:
        pytest.skip(f"no {lang} compiler")
    src = tmp_path / ("all.c" if lang == "c" else "all.cpp")
    headers = [*aclnn_table.META_HEADERS, *aclnn_table.HEADERS, "acl/acl.h"]
    src.write_text("".join(f'#include "{h}"\n' for h in headers) + "int main(void) { return 0; }\n")
    std = "-std=c11" if lang == "c" else "-std=c++11"
    proc = subprocess.run([compiler, std, "-Wall", "-Wextra", "-Werror", "-fsyntax-only", f"-I{INCLUDE_DIR}",
                           str(src)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def _floats(stdout: str, name: str) -> np.ndarray:
    (line,) = [ln for ln in stdout.splitlines() if ln.split(" ", 1)[0] == name]
    return np.array(line.split()[1:], dtype=np.float32)


def test_seed_003_add_flow_matches_numpy(compile_c, run_c) -> None:  # noqa: ANN001
    sources = [EXAMPLES / "aclnn_add" / "main.cpp", EXAMPLES / "aclnn_add" / "op_runner.cpp"]
    exe = compile_c(sources, "aclnn_add", ["-Wall", "-Werror", "-std=c++17"])
    proc = run_c(exe)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "LeakWarning" not in proc.stderr, proc.stderr
    alpha = np.float32(proc.stdout.split("alpha ")[1].split()[0])
    self, other = _floats(proc.stdout, "self"), _floats(proc.stdout, "other")
    want = (self + alpha * other).reshape(4, 8)
    np.testing.assert_array_equal(_floats(proc.stdout, "out").reshape(4, 8), want)
    np.testing.assert_array_equal(_floats(proc.stdout, "out_strided").reshape(4, 8), want)
    workspaces = [int(ln.split()[1]) for ln in proc.stdout.splitlines() if ln.startswith("workspace ")]
    assert workspaces[0] == 0 and workspaces[1] > 0  # the strided other is made contiguous in the workspace


def test_error_paths_give_the_documented_statuses(compile_c, run_c) -> None:  # noqa: ANN001
    exe = compile_c([EXAMPLES / "aclnn_error_paths.cpp"], "aclnn_error_paths",
                    ["-Wall", "-Werror", "-std=c++17"])
    proc = run_c(exe)
    assert proc.returncode == 0 and "PASSED: 0 failure(s)" in proc.stdout, proc.stdout + proc.stderr
    results = dict(ln[5:].rsplit(" -> ", 1) for ln in proc.stdout.splitlines() if ln.startswith("ok   "))
    assert results["null self"] == "161001" and results["bool out"] == "161002"
    assert results["executor run twice"] == "161001" and results["repeatable NULL"] == "561103"
    assert "aclnnAddGetWorkspaceSize (called from main (aclnn_error_paths.cpp:" in proc.stdout


PROBE = r"""
#include <stdio.h>
#include "acl/acl.h"
#include "aclnnop/aclnn_relu.h"
int main(void)
{
    int64_t dims[1] = {4};
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    void *dev = NULL;
    aclInit(NULL);
    aclrtSetDevice(0);
    aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    aclnnStatus init = aclnnInit(NULL);
    aclTensor *t = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, dev);
    aclnnStatus one = aclnnReluGetWorkspaceSize(t, t, &ws, &ex);
    aclnnStatus two = aclnnRelu(NULL, ws, ex, NULL);
    aclnnStatus sync = aclrtSynchronizeDevice();
    printf("codes %d %d %d %d tensor %s\n", init, one, two, sync, t ? "made" : "null");
    aclDestroyTensor(t);
    aclrtFree(dev);
    aclnnFinalize();
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
"""


def test_a_library_that_did_not_start_returns_561000(compile_c, run_c, c_env, tmp_path: Path) -> None:  # noqa: ANN001
    src = tmp_path / "nn_probe.c"
    src.write_text(PROBE)
    exe = compile_c([src], "nn_probe", ["-std=c11"])
    ok = run_c(exe)
    assert "codes 0 0 0 0 tensor made" in ok.stdout, ok.stdout + ok.stderr
    venv = tmp_path / "bare"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    proc = run_c(exe, env=c_env(ACLSIM_PYTHON=str(venv / "bin" / "python")))
    code = ACLNN_ERR_INNER
    sync = ACL_ERROR_INTERNAL_ERROR
    assert f"codes {code} {code} {code} {sync} tensor null" in proc.stdout, proc.stdout + proc.stderr


def test_loaded_with_ctypes_an_op_runs_on_the_process_runtime(capi_lib: Path, tmp_path: Path,  # noqa: ANN001
                                                              c_env) -> None:
    script = tmp_path / "nn_shared.py"
    script.write_text(textwrap.dedent(f"""
        import ctypes
        import numpy as np
        import aclsim.acl as acl
        from aclsim import aclnn
        lib = ctypes.CDLL({str(capi_lib / "libascendcl.so")!r})
        i64, u64, ptr = ctypes.c_int64, ctypes.c_uint64, ctypes.c_void_p
        lib.aclCreateTensor.restype = ptr
        lib.aclCreateTensor.argtypes = [ptr, u64, ctypes.c_int, ptr, i64, ctypes.c_int, ptr, u64, ptr]
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        x = np.linspace(-2, 2, 8, dtype=np.float32)
        src, _ = acl.rt.malloc(64, 0)
        dst, _ = acl.rt.malloc(64, 0)
        assert acl.rt.memcpy(src, 64, acl.util.numpy_to_ptr(x), 32, 1) == 0
        dims = (ctypes.c_int64 * 1)(8)
        tensors = [ptr(lib.aclCreateTensor(dims, 1, 0, None, 0, 2, dims, 1, a)) for a in (src, dst)]
        ws, ex = ctypes.c_uint64(), ctypes.c_void_p()
        ret = lib.aclnnNegGetWorkspaceSize(*tensors, ctypes.byref(ws), ctypes.byref(ex))
        assert ret == 0, (ret, acl.get_recent_err_msg())
        stream, _ = acl.rt.create_stream()  # a pyACL stream handle is the C face's aclrtStream
        assert lib.aclnnNeg(None, ws, ex, ctypes.c_void_p(stream)) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        y = np.zeros_like(x)
        assert acl.rt.memcpy(acl.util.numpy_to_ptr(y), 32, dst, 32, 2) == 0
        np.testing.assert_array_equal(y, -x)
        assert lib.aclnnNeg(None, ws, ex, ctypes.c_void_p(stream)) == 161001  # consumed by its run
        for t in tensors:
            assert lib.aclDestroyTensor(t) == 0
        acl.rt.destroy_stream(stream)
        acl.rt.free(src)
        acl.rt.free(dst)
        assert acl.rt.reset_device(0) == 0 and acl.finalize() == 0
        print("SHARED")
    """))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                          env=c_env())
    assert proc.returncode == 0 and "SHARED" in proc.stdout, proc.stdout + proc.stderr


OPS = r"""
// ops whose parameters cover the table's C types: aclIntArray + bool + aclDataType (ReduceSum),
// int64_t (Softmax), int8_t (Matmul), double (RmsNorm), aclScalar (Muls, an int32 value)
#include <stdio.h>
#include <string.h>
#include "acl/acl.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"

static aclrtStream stream;

/* phase one first, then its workspace size and executor go to run() (argument order is unspecified) */
#define RUN(name, call, two)                                                                       \
    do {                                                                                           \
        aclnnStatus one_ = (call);                                                                 \
        bad |= run(name, one_, ws, ex, two);                                                       \
    } while (0)

static aclTensor *tensor(const float *host, int rank, const int64_t *dims)
{
    int64_t n = 1, strides[2];
    for (int i = rank - 1; i >= 0; --i) { strides[i] = n; n *= dims[i]; }
    void *dev = NULL;
    if (aclrtMalloc(&dev, (size_t)n * 4 + 32, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return NULL;
    aclrtMemset(dev, (size_t)n * 4 + 32, 0, (size_t)n * 4 + 32);
    if (host) aclrtMemcpy(dev, (size_t)n * 4, host, (size_t)n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    return aclCreateTensor(dims, (uint64_t)rank, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, (uint64_t)rank,
                           dev);
}

static int run(const char *name, aclnnStatus one, uint64_t ws, aclOpExecutor *ex,
               aclnnStatus (*two)(void *, uint64_t, aclOpExecutor *, aclrtStream))
{
    void *work = NULL;
    if (one != ACLNN_SUCCESS) {
        printf("FAIL %s phase one %d %s\n", name, one, aclGetRecentErrMsg());
        return 1;
    }
    if (ws) aclrtMalloc(&work, ws, ACL_MEM_MALLOC_HUGE_FIRST);
    aclnnStatus ret = two(work, ws, ex, stream);
    if (ret != ACLNN_SUCCESS) {
        printf("FAIL %s phase two %d %s\n", name, ret, aclGetRecentErrMsg());
        return 1;
    }
    aclrtSynchronizeStream(stream);
    if (work) aclrtFree(work);
    return 0;
}

static void show(const char *name, const aclTensor *t, int n)
{
    void *dev = NULL;
    float host[64];
    aclGetRawTensorAddr(t, &dev);
    aclrtMemcpy(host, (size_t)n * 4, dev, (size_t)n * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    printf("%s", name);
    for (int i = 0; i < n; ++i) printf(" %.9g", host[i]);
    printf("\n");
}

int main(void)
{
    float x[12], w[6];
    for (int i = 0; i < 12; ++i) x[i] = (float)i * 0.25f - 1.0f;
    for (int i = 0; i < 6; ++i) w[i] = (float)(i % 4) - 1.5f;
    int64_t d34[2] = {3, 4}, d3[1] = {3}, d23[2] = {2, 3}, d32[2] = {3, 2}, d22[2] = {2, 2}, d4[1] = {4},
            d31[2] = {3, 1}, dim1[1] = {1};
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    int bad = 0;
    aclInit(NULL);
    aclrtSetDevice(0);
    aclrtCreateStream(&stream);

    aclTensor *x34 = tensor(x, 2, d34), *sum = tensor(NULL, 1, d3);
    aclIntArray *dims = aclCreateIntArray(dim1, 1);
    RUN("ReduceSum", aclnnReduceSumGetWorkspaceSize(x34, dims, false, ACL_FLOAT, sum, &ws, &ex),
        aclnnReduceSum);
    show("sum", sum, 3);

    aclTensor *soft = tensor(NULL, 2, d34);
    RUN("Softmax", aclnnSoftmaxGetWorkspaceSize(x34, -1, soft, &ws, &ex), aclnnSoftmax);
    show("softmax", soft, 12);

    aclTensor *a = tensor(x, 2, d23), *b = tensor(w, 2, d32), *mm = tensor(NULL, 2, d22);
    RUN("Matmul", aclnnMatmulGetWorkspaceSize(a, b, mm, 0, &ws, &ex), aclnnMatmul);
    show("matmul", mm, 4);

    float g[4] = {1.0f, 0.5f, 2.0f, -1.0f};
    aclTensor *gamma = tensor(g, 1, d4), *y = tensor(NULL, 2, d34), *rstd = tensor(NULL, 2, d31);
    RUN("RmsNorm", aclnnRmsNormGetWorkspaceSize(x34, gamma, 0.125, y, rstd, &ws, &ex), aclnnRmsNorm);
    show("rmsnorm", y, 12);

    int32_t three = 3;
    aclScalar *s = aclCreateScalar(&three, ACL_INT32);
    aclTensor *scaled = tensor(NULL, 2, d34);
    RUN("Muls", aclnnMulsGetWorkspaceSize(x34, s, scaled, &ws, &ex), aclnnMuls);
    show("muls", scaled, 12);
    printf("%s\n", bad ? "FAILED" : "DONE");
    return bad;
}
"""


def test_ops_of_every_parameter_type_match_numpy(compile_c, run_c, tmp_path: Path) -> None:  # noqa: ANN001
    src = tmp_path / "nn_ops.c"
    src.write_text(OPS)
    proc = run_c(compile_c([src], "nn_ops", ["-std=c11", "-Wall", "-Werror"]))
    assert proc.returncode == 0 and "DONE" in proc.stdout, proc.stdout + proc.stderr
    x = (np.arange(12, dtype=np.float32) * np.float32(0.25) - 1).reshape(3, 4)
    w = (np.arange(6) % 4 - 1.5).astype(np.float32).reshape(3, 2)
    g = np.array([1, 0.5, 2, -1], dtype=np.float32)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    rms = x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 0.125) * g
    want = {"sum": x.sum(axis=1), "softmax": e / e.sum(axis=1, keepdims=True),
            "matmul": x.reshape(-1)[:6].reshape(2, 3) @ w, "rmsnorm": rms, "muls": x * 3}
    for name, value in want.items():
        np.testing.assert_allclose(_floats(proc.stdout, name), value.reshape(-1), rtol=2e-6, atol=1e-6,
                                   err_msg=name)
