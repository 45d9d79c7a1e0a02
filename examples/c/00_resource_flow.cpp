// Seed 000's resource flow in C++, unchanged AscendCL calls: init, device, context, two
// streams, synchronous and asynchronous copies in every direction (a stack array, a malloc'd
// buffer and aclrtMallocHost memory as host memory), a device-to-device copy, a memset,
// events timing a copy, device synchronisation, then the teardown in reverse order.
//
//   c++ 00_resource_flow.cpp $(aclsim capi --cflags --libs) -o resource_flow && ./resource_flow
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"

#define CHECK(call)                                                                      \
    do {                                                                                 \
        aclError ret_ = (call);                                                          \
        if (ret_ != ACL_SUCCESS) {                                                       \
            const char *msg_ = aclGetRecentErrMsg();                                     \
            std::printf("FAIL %s -> %d\n%s\n", #call, ret_, msg_ ? msg_ : "");           \
            std::exit(1);                                                                \
        }                                                                                \
    } while (0)

static int g_failures = 0;

static void expect(bool ok, const char *what)
{
    if (!ok) {
        std::printf("mismatch: %s\n", what);
        ++g_failures;
    }
}

int main()
{
    const int32_t deviceId = 0;
    CHECK(aclInit(nullptr));
    uint32_t count = 0;
    CHECK(aclrtGetDeviceCount(&count));
    expect(count >= 1, "at least one device");
    CHECK(aclrtSetDevice(deviceId));
    aclrtContext context = nullptr;
    CHECK(aclrtCreateContext(&context, deviceId));
    aclrtStream stream1 = nullptr, stream2 = nullptr;
    CHECK(aclrtCreateStream(&stream1));
    CHECK(aclrtCreateStream(&stream2));
    aclrtRunMode mode;
    CHECK(aclrtGetRunMode(&mode));
    expect(mode == ACL_HOST, "run mode is ACL_HOST");

    const size_t n = 1024;
    const size_t size = n * sizeof(float);
    float stackIn[n];  // host memory on the stack
    for (size_t i = 0; i < n; ++i) stackIn[i] = 0.5f * static_cast<float>(i);
    std::vector<float> heapOut(n, -1.0f);  // host memory from the C++ heap

    void *devA = nullptr, *devB = nullptr;
    CHECK(aclrtMalloc(&devA, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&devB, size, ACL_MEM_MALLOC_NORMAL_ONLY));
    size_t freeBytes = 0, totalBytes = 0;
    CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &freeBytes, &totalBytes));
    expect(totalBytes > 0 && freeBytes < totalBytes, "aclrtGetMemInfo sees the allocations");

    // synchronous H2D, device-to-device, synchronous D2H
    CHECK(aclrtMemcpy(devA, size, stackIn, size, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(devB, size, devA, size, ACL_MEMCPY_DEVICE_TO_DEVICE));
    CHECK(aclrtMemcpy(heapOut.data(), size, devB, size, ACL_MEMCPY_DEVICE_TO_HOST));
    expect(std::memcmp(heapOut.data(), stackIn, size) == 0, "sync round trip");

    // asynchronous copies on two streams, with pinned host memory, ordered by an event
    void *pinned = nullptr;
    CHECK(aclrtMallocHost(&pinned, size));
    float *p = static_cast<float *>(pinned);
    for (size_t i = 0; i < n; ++i) p[i] = 3.0f * static_cast<float>(i);
    aclrtEvent start = nullptr, copied = nullptr;
    CHECK(aclrtCreateEvent(&start));
    CHECK(aclrtCreateEvent(&copied));
    CHECK(aclrtRecordEvent(start, stream1));
    CHECK(aclrtMemcpyAsync(devA, size, pinned, size, ACL_MEMCPY_HOST_TO_DEVICE, stream1));
    CHECK(aclrtRecordEvent(copied, stream1));
    CHECK(aclrtStreamWaitEvent(stream2, copied));
    float *back = static_cast<float *>(std::malloc(size));
    CHECK(aclrtMemcpyAsync(back, size, devA, size, ACL_MEMCPY_DEVICE_TO_HOST, stream2));
    CHECK(aclrtSynchronizeStream(stream2));
    CHECK(aclrtSynchronizeEvent(copied));
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK(aclrtQueryEventStatus(copied, &status));
    expect(status == ACL_EVENT_RECORDED_STATUS_COMPLETE, "event complete after synchronize");
    float ms = -1.0f;
    CHECK(aclrtEventElapsedTime(&ms, start, copied));
    expect(ms > 0.0f, "the modeled H2D copy takes time");
    expect(std::memcmp(back, pinned, size) == 0, "async round trip through two streams");

    // memset, then the default stream (NULL) and device synchronisation
    CHECK(aclrtMemsetAsync(devB, size, 0x3f, size, nullptr));
    CHECK(aclrtSynchronizeDevice());
    CHECK(aclrtMemcpy(back, size, devB, size, ACL_MEMCPY_DEVICE_TO_HOST));
    unsigned char *bytes = reinterpret_cast<unsigned char *>(back);
    expect(bytes[0] == 0x3f && bytes[size - 1] == 0x3f, "memset");

    aclrtContext current = nullptr;
    CHECK(aclrtGetCurrentContext(&current));
    expect(current == context, "the created context is current");
    int32_t dev = -1;
    CHECK(aclrtGetDevice(&dev));
    expect(dev == deviceId, "aclrtGetDevice");

    // teardown, in reverse order
    std::free(back);
    CHECK(aclrtDestroyEvent(copied));
    CHECK(aclrtDestroyEvent(start));
    CHECK(aclrtFreeHost(pinned));
    CHECK(aclrtFree(devB));
    CHECK(aclrtFree(devA));
    CHECK(aclrtDestroyStream(stream2));
    CHECK(aclrtDestroyStream(stream1));
    CHECK(aclrtDestroyContext(context));
    CHECK(aclrtResetDevice(deviceId));
    CHECK(aclFinalize());
    std::printf("copied %zu B each way; H2D copy %.4f ms (modeled)\n", size, ms);
    std::printf(g_failures == 0 ? "PASS\n" : "FAIL\n");
    return g_failures == 0 ? 0 : 1;
}
