// aclnn's documented statuses from C++: every refused call returns its status (not a crash,
// not ACLNN_SUCCESS), leaves a message for aclGetRecentErrMsg that names the C function and
// its caller, and changes nothing: the good Add at the end still runs and is right.
//
//   c++ aclnn_error_paths.cpp $(aclsim capi --cflags --libs) -o aclnn_error_paths && ./aclnn_error_paths
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

static int g_failures = 0;

// the call returned `want`, and (for a failure) its message contains `fragment`
static void expect(const char *what, long got, long want, const char *fragment = nullptr)
{
    const char *msg = aclGetRecentErrMsg();
    bool ok = got == want;
    if (ok && want != 0 && fragment != nullptr) ok = msg != nullptr && std::strstr(msg, fragment) != nullptr;
    std::printf("%s %s -> %ld%s%s\n", ok ? "ok  " : "FAIL", what, got, msg ? "\n      " : "", msg ? msg : "");
    if (!ok) ++g_failures;
}

#define CHECK(call)                                                                        \
    do {                                                                                   \
        long ret_ = (call);                                                                \
        if (ret_ != 0) {                                                                   \
            std::printf("FAIL %s -> %ld\n", #call, ret_);                                  \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

int main()
{
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    const int64_t shape[2] = {2, 4}, strides[2] = {4, 1}, tStrides[2] = {1, 2}, tStorage[2] = {4, 2};
    const size_t bytes = 8 * sizeof(float);
    void *dev = nullptr, *devOut = nullptr;
    CHECK(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&devOut, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    float host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    aclTensor *self = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, dev);
    aclTensor *out = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, devOut);
    aclTensor *boolOut = aclCreateTensor(shape, 2, ACL_BOOL, strides, 0, ACL_FORMAT_ND, shape, 2, devOut);
    aclTensor *strided = aclCreateTensor(shape, 2, ACL_FLOAT, tStrides, 0, ACL_FORMAT_ND, tStorage, 2, dev);
    float two = 2.0f;
    aclScalar *alpha = aclCreateScalar(&two, ACL_FLOAT);
    if (!self || !out || !boolOut || !strided || !alpha) {
        std::printf("FAIL creating the tensors\n");
        return 1;
    }
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;

    // phase one
    expect("null self", aclnnAddGetWorkspaceSize(nullptr, self, alpha, out, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR,
           "aclnnAddGetWorkspaceSize (called from");
    expect("bool out", aclnnAddGetWorkspaceSize(self, self, alpha, boolOut, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "ACL_BOOL");
    expect("null workspaceSize", aclnnAddGetWorkspaceSize(self, self, alpha, out, nullptr, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "workspaceSize");
    expect("null executor out", aclnnAddGetWorkspaceSize(self, self, alpha, out, &ws, nullptr),
           ACLNN_ERR_PARAM_NULLPTR, "executor");
    aclTensor *gone = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, dev);
    expect("destroy", aclDestroyTensor(gone), ACLNN_SUCCESS);
    expect("destroyed self", aclnnAddGetWorkspaceSize(gone, self, alpha, out, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "aclTensor");
    expect("destroyed twice", aclDestroyTensor(gone), ACLNN_ERR_PARAM_INVALID, "aclTensor");
    expect("destroy NULL", aclDestroyTensor(nullptr), ACLNN_SUCCESS);

    // phase two
    expect("null executor", aclnnAdd(nullptr, 0, nullptr, stream), ACLNN_ERR_PARAM_NULLPTR, "executor");
    expect("phase one", aclnnAddGetWorkspaceSize(self, self, alpha, out, &ws, &ex), ACLNN_SUCCESS);
    expect("phase two", aclnnAdd(nullptr, ws, ex, stream), ACLNN_SUCCESS);
    expect("executor run twice", aclnnAdd(nullptr, ws, ex, stream), ACLNN_ERR_PARAM_NULLPTR, "executor");
    expect("strided phase one", aclnnAddGetWorkspaceSize(self, strided, alpha, out, &ws, &ex), ACLNN_SUCCESS);
    expect("workspace needed", ws > 0, 1);
    expect("null workspace", aclnnAdd(nullptr, ws, ex, stream), ACLNN_ERR_PARAM_NULLPTR, "workspace");
    expect("its executor freed", aclnnAdd(nullptr, ws, ex, stream), ACLNN_ERR_PARAM_NULLPTR, "executor");

    // executors and the meta API
    expect("repeatable NULL", aclSetAclOpExecutorRepeatable(nullptr), ACLNN_ERR_INNER_NULLPTR, "executor");
    expect("destroy executor NULL", aclDestroyAclOpExecutor(nullptr), ACLNN_ERR_INNER_NULLPTR, "executor");
    expect("unaligned tensorData",
           aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2,
                           static_cast<char *>(dev) + 4) == nullptr, 1, "32 B aligned");
    expect("scalar from NULL", aclCreateScalar(nullptr, ACL_FLOAT) == nullptr, 1, "value");
    int64_t *dims = nullptr;
    uint64_t n = 0;
    expect("view shape of NULL", aclGetViewShape(nullptr, &dims, &n), ACLNN_ERR_PARAM_NULLPTR, "tensor");
    expect("a scalar as a tensor",
           aclGetViewShape(reinterpret_cast<const aclTensor *>(alpha), &dims, &n), ACLNN_ERR_PARAM_INVALID,
           "aclScalar");

    // nothing above changed anything: out = self + 2 * self
    expect("phase one again", aclnnAddGetWorkspaceSize(self, self, alpha, out, &ws, &ex), ACLNN_SUCCESS);
    expect("phase two again", aclnnAdd(nullptr, ws, ex, stream), ACLNN_SUCCESS);
    CHECK(aclrtSynchronizeStream(stream));
    float result[8];
    CHECK(aclrtMemcpy(result, bytes, devOut, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 8; ++i) {
        if (std::fabs(result[i] - 3.0f * host[i]) > 0) {
            std::printf("FAIL out[%d] = %g, expected %g\n", i, result[i], 3.0f * host[i]);
            ++g_failures;
        }
    }

    aclDestroyTensor(self);
    aclDestroyTensor(out);
    aclDestroyTensor(boolOut);
    aclDestroyTensor(strided);
    aclDestroyScalar(alpha);
    CHECK(aclrtFree(dev));
    CHECK(aclrtFree(devOut));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    std::printf("%s: %d failure(s)\n", g_failures ? "FAILED" : "PASSED", g_failures);
    return g_failures ? 1 : 0;
}
