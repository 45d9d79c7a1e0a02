// OpRunner: one aclnnAdd (out = self + alpha * other) on float32 tensors of one shape, in
// seed 003's structure: the inputs on the device, both aclnn phases with the workspace, the
// output back on the host, then the teardown.  Every call's status is checked.  With
// otherTransposed, `other` lies in device memory transposed and its aclTensor is a strided view
// of it (strides {1, rows}), so phase one plans a contiguous copy into the workspace.
#ifndef ACLSIM_EXAMPLE_OP_RUNNER_H_
#define ACLSIM_EXAMPLE_OP_RUNNER_H_

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

class OpRunner {
public:
    OpRunner(std::vector<int64_t> shape, float alpha, bool otherTransposed = false);
    ~OpRunner();

    // aclrtMalloc the tensors' device memory, copy the inputs in, create the aclnn objects
    bool Init(const std::vector<float> &self, const std::vector<float> &other);
    // phase one (workspace size, executor), the workspace, phase two, wait for the stream
    bool RunOp(aclrtStream stream);
    // copy the output back to the host
    bool Fetch(std::vector<float> &out);
    uint64_t WorkspaceSize() const { return workspaceSize_; }

private:
    aclTensor *CreateTensor(void *device, bool transposed = false);
    size_t Count() const;

    std::vector<int64_t> shape_;
    float alpha_;
    bool otherTransposed_;
    void *selfDev_ = nullptr, *otherDev_ = nullptr, *outDev_ = nullptr, *workspace_ = nullptr;
    aclTensor *self_ = nullptr, *other_ = nullptr, *out_ = nullptr;
    aclScalar *alphaScalar_ = nullptr;
    uint64_t workspaceSize_ = 0;
};

#endif  // ACLSIM_EXAMPLE_OP_RUNNER_H_
