// The single-operator API (acl/acl_op.h) from C++: tensor descriptions and data buffers,
// aclopExecuteV2("Add"), Muls with a float attribute through an op handle run twice on new
// buffers, aclopCast to float16, and an unknown op type refused with its code.
//
//   c++ aclop_single_op.cpp $(aclsim capi --cflags --libs) -o aclop_single_op && ./aclop_single_op
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>

#include "acl/acl.h"

#define CHECK(call)                                                                        \
    do {                                                                                   \
        aclError ret_ = (call);                                                            \
        if (ret_ != ACL_SUCCESS) {                                                         \
            const char *msg_ = aclGetRecentErrMsg();                                       \
            std::printf("FAIL %s -> %d\n%s\n", #call, ret_, msg_ ? msg_ : "");             \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

static int g_failures = 0;

static void expect(bool ok, const char *what)
{
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) ++g_failures;
}

static uint16_t half_of(float f)  // float -> IEEE half (round to nearest even; values here are exact)
{
    uint32_t x;
    std::memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xFFu, mant = x & 0x7FFFFFu;
    if (exp == 0) return static_cast<uint16_t>(sign);
    return static_cast<uint16_t>(sign | ((exp - 112u) << 10) | (mant >> 13));
}

int main()
{
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    const int64_t dims[2] = {2, 8};
    const size_t n = 16, bytes = n * sizeof(float);
    float a[n], b[n], out[n];
    for (size_t i = 0; i < n; ++i) {
        a[i] = 0.5f * static_cast<float>(i) - 3.0f;
        b[i] = static_cast<float>(i % 5) + 0.25f;
    }
    void *devA = nullptr, *devB = nullptr, *devOut = nullptr, *devHalf = nullptr;
    CHECK(aclrtMalloc(&devA, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&devB, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&devOut, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&devHalf, n * 2, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(devA, bytes, a, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(devB, bytes, b, bytes, ACL_MEMCPY_HOST_TO_DEVICE));

    aclTensorDesc *desc = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
    aclTensorDesc *halfDesc = aclCreateTensorDesc(ACL_FLOAT16, 2, dims, ACL_FORMAT_ND);
    aclDataBuffer *bufA = aclCreateDataBuffer(devA, bytes), *bufB = aclCreateDataBuffer(devB, bytes);
    aclDataBuffer *bufOut = aclCreateDataBuffer(devOut, bytes), *bufHalf = aclCreateDataBuffer(devHalf, n * 2);
    aclopAttr *none = aclopCreateAttr();
    if (!desc || !halfDesc || !bufA || !bufB || !bufOut || !bufHalf || !none) {
        std::printf("FAIL creating the descriptions\n");
        return 1;
    }

    // Add: out = a + b
    aclTensorDesc *inDesc[2] = {desc, desc}, *outDesc[1] = {desc};
    aclDataBuffer *inputs[2] = {bufA, bufB}, *outputs[1] = {bufOut};
    CHECK(aclopExecuteV2("Add", 2, inDesc, inputs, 1, outDesc, outputs, none, stream));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(out, bytes, devOut, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    bool same = true;
    for (size_t i = 0; i < n; ++i) same = same && out[i] == a[i] + b[i];
    expect(same, "Add gives a + b");

    // Muls through a handle: out = x * 1.5, run on a, then on b
    aclopAttr *scale = aclopCreateAttr();
    CHECK(aclopSetAttrFloat(scale, "value", 1.5f));
    aclopHandle *muls = nullptr;
    CHECK(aclopCreateHandle("Muls", 1, inDesc, 1, outDesc, scale, &muls));
    aclopDestroyAttr(scale);  // the handle keeps its own copy
    for (int pass = 0; pass < 2; ++pass) {
        const aclDataBuffer *src[1] = {pass == 0 ? bufA : bufB};
        CHECK(aclopExecWithHandle(muls, 1, src, 1, outputs, stream));
        CHECK(aclrtSynchronizeStream(stream));
        CHECK(aclrtMemcpy(out, bytes, devOut, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
        same = true;
        for (size_t i = 0; i < n; ++i) same = same && out[i] == (pass == 0 ? a[i] : b[i]) * 1.5f;
        expect(same, pass == 0 ? "Muls handle on a" : "Muls handle on b");
    }
    aclopDestroyHandle(muls);

    // Cast a to float16
    CHECK(aclopCast(desc, bufA, halfDesc, bufHalf, 0, stream));
    CHECK(aclrtSynchronizeStream(stream));
    uint16_t halves[n];
    CHECK(aclrtMemcpy(halves, n * 2, devHalf, n * 2, ACL_MEMCPY_DEVICE_TO_HOST));
    same = true;
    for (size_t i = 0; i < n; ++i) same = same && halves[i] == half_of(a[i]);
    expect(same, "Cast to float16");

    // an op type aclsim does not have
    aclError ret = aclopExecuteV2("NoSuchOp", 2, inDesc, inputs, 1, outDesc, outputs, none, stream);
    const char *msg = aclGetRecentErrMsg();
    expect(ret == ACL_ERROR_OP_NOT_FOUND && msg != nullptr && std::strstr(msg, "aclopExecuteV2 (called from"),
           "unknown op type -> ACL_ERROR_OP_NOT_FOUND, named with its caller");

    aclopDestroyAttr(none);
    for (aclDataBuffer *buf : {bufA, bufB, bufOut, bufHalf}) CHECK(aclDestroyDataBuffer(buf));
    aclDestroyTensorDesc(desc);
    aclDestroyTensorDesc(halfDesc);
    for (void *p : {devA, devB, devOut, devHalf}) CHECK(aclrtFree(p));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    std::printf("%s: %d failure(s)\n", g_failures ? "FAILED" : "PASSED", g_failures);
    return g_failures ? 1 : 0;
}
