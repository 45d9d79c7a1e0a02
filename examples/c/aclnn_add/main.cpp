// Seed 003's aclnnAdd flow as a C++ host program against aclsim: aclInit, a device and a
// stream, OpRunner (op_runner.cpp: the inputs on the device, aclnnAddGetWorkspaceSize, the
// workspace, aclnnAdd, the output back), then the teardown in reverse order; once with
// contiguous inputs and once with `other` a strided view (phase one asks for a workspace).
//
// It prints the inputs and the output (%.9g round-trips float32) for the test to check
// against NumPy:  make -C examples/c/aclnn_add run
#include <cstdio>
#include <vector>

#include "op_runner.h"

#define CHECK(call)                                                                        \
    do {                                                                                   \
        int ret_ = (call);                                                                 \
        if (ret_ != 0) {                                                                   \
            const char *msg_ = aclGetRecentErrMsg();                                       \
            std::printf("FAIL %s -> %d\n%s\n", #call, ret_, msg_ ? msg_ : "");             \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

static void print(const char *name, const std::vector<float> &v)
{
    std::printf("%s", name);
    for (float x : v) std::printf(" %.9g", x);
    std::printf("\n");
}

int main()
{
    const int32_t deviceId = 0;
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    const std::vector<int64_t> shape = {4, 8};
    const float alpha = 1.25f;
    std::vector<float> self(32), other(32), out;
    for (size_t i = 0; i < self.size(); ++i) {
        self[i] = 0.375f * static_cast<float>(i) - 5.0f;
        other[i] = static_cast<float>(i % 7) * 0.8f - 1.1f;
    }
    std::printf("alpha %.9g\n", alpha);
    print("self", self);
    print("other", other);
    bool ok = true;
    for (bool transposed : {false, true}) {  // other contiguous, then a strided (transposed) view
        OpRunner runner(shape, alpha, transposed);  // its destructor destroys the tensors, frees the memory
        ok = ok && runner.Init(self, other) && runner.RunOp(stream) && runner.Fetch(out);
        if (!ok) break;
        std::printf("workspace %llu\n", static_cast<unsigned long long>(runner.WorkspaceSize()));
        print(transposed ? "out_strided" : "out", out);
    }
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(deviceId));
    CHECK(aclFinalize());
    return ok ? 0 : 1;
}
