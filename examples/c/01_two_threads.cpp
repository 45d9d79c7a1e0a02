// Two threads, two streams, per-thread contexts: thread 0 shares the context main created
// (aclrtSetCurrentContext), thread 1 creates its own; each keeps its current context across
// calls, queues its own copies on its own stream and checks its data.
//
//   c++ 01_two_threads.cpp $(aclsim capi --cflags --libs) -pthread -o two_threads && ./two_threads
#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl.h"

static std::atomic<int> g_failures{0};

#define CHECK(call)                                                                      \
    do {                                                                                 \
        aclError ret_ = (call);                                                          \
        if (ret_ != ACL_SUCCESS) {                                                       \
            const char *msg_ = aclGetRecentErrMsg();                                     \
            std::printf("FAIL %s -> %d\n%s\n", #call, ret_, msg_ ? msg_ : "");           \
            ++g_failures;                                                                \
            return;                                                                      \
        }                                                                                \
    } while (0)

static void worker(int id, aclrtContext shared)
{
    aclrtContext mine = nullptr;
    if (shared != nullptr) {
        CHECK(aclrtSetCurrentContext(shared));
        mine = shared;
    } else {
        CHECK(aclrtCreateContext(&mine, 0));  // current in this thread only
    }
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    const size_t n = 4096, size = n * sizeof(int32_t);
    std::vector<int32_t> in(n), out(n);
    void *dev = nullptr;
    CHECK(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int round = 0; round < 20; ++round) {
        for (size_t i = 0; i < n; ++i) in[i] = static_cast<int32_t>(id * 1000000 + round * 1000 + i);
        CHECK(aclrtMemcpyAsync(dev, size, in.data(), size, ACL_MEMCPY_HOST_TO_DEVICE, stream));
        CHECK(aclrtMemcpyAsync(out.data(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST, stream));
        CHECK(aclrtSynchronizeStream(stream));
        if (std::memcmp(in.data(), out.data(), size) != 0) {
            std::printf("thread %d round %d: data mismatch\n", id, round);
            ++g_failures;
        }
        aclrtContext current = nullptr;
        CHECK(aclrtGetCurrentContext(&current));
        if (current != mine) {
            std::printf("thread %d lost its context between calls\n", id);
            ++g_failures;
        }
    }
    CHECK(aclrtFree(dev));
    CHECK(aclrtDestroyStream(stream));
    if (shared == nullptr) CHECK(aclrtDestroyContext(mine));
    std::printf("thread %d: 20 rounds of %zu B on its own stream\n", id, size);
}

int main()
{
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        std::printf("FAIL init\n");
        return 1;
    }
    aclrtContext context = nullptr;
    if (aclrtCreateContext(&context, 0) != ACL_SUCCESS) return 1;
    std::thread t0(worker, 0, context);
    std::thread t1(worker, 1, nullptr);
    t0.join();
    t1.join();
    aclrtContext current = nullptr;
    if (aclrtGetCurrentContext(&current) != ACL_SUCCESS || current != context) {
        std::printf("main thread's context changed\n");
        ++g_failures;
    }
    if (aclrtDestroyContext(context) != ACL_SUCCESS || aclrtResetDevice(0) != ACL_SUCCESS ||
        aclFinalize() != ACL_SUCCESS) {
        std::printf("FAIL teardown: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    std::printf(g_failures == 0 ? "PASS\n" : "FAIL\n");
    return g_failures == 0 ? 0 : 1;
}
