// The OpRunner of seed 003's aclnnAdd flow (see op_runner.h).
#include "op_runner.h"

#include <cstdio>

#define CHECK_RET(cond, what)                                                              \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            const char *msg_ = aclGetRecentErrMsg();                                       \
            std::printf("FAIL %s\n%s\n", what, msg_ ? msg_ : "");                          \
            return false;                                                                  \
        }                                                                                  \
    } while (0)

OpRunner::OpRunner(std::vector<int64_t> shape, float alpha, bool otherTransposed)
    : shape_(std::move(shape)), alpha_(alpha), otherTransposed_(otherTransposed)
{
}

size_t OpRunner::Count() const
{
    size_t n = 1;
    for (int64_t d : shape_) n *= static_cast<size_t>(d);
    return n;
}

aclTensor *OpRunner::CreateTensor(void *device, bool transposed)
{
    if (transposed) {  // a 2-D view {rows, cols} of a {cols, rows} storage
        const int64_t storage[2] = {shape_[1], shape_[0]};
        const int64_t strides[2] = {1, shape_[0]};
        return aclCreateTensor(shape_.data(), 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 2, device);
    }
    std::vector<int64_t> strides(shape_.size(), 1);  // row-major, in elements
    for (int64_t i = static_cast<int64_t>(shape_.size()) - 2; i >= 0; --i) {
        strides[i] = shape_[i + 1] * strides[i + 1];
    }
    return aclCreateTensor(shape_.data(), shape_.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                           shape_.data(), shape_.size(), device);
}

bool OpRunner::Init(const std::vector<float> &self, const std::vector<float> &other)
{
    const size_t bytes = Count() * sizeof(float);
    CHECK_RET(self.size() == Count() && other.size() == Count(), "input sizes");
    CHECK_RET(!otherTransposed_ || shape_.size() == 2, "a transposed other is 2-D");
    std::vector<float> otherHost(other);
    if (otherTransposed_) {  // the device holds other transposed
        const size_t rows = static_cast<size_t>(shape_[0]), cols = static_cast<size_t>(shape_[1]);
        for (size_t r = 0; r < rows; ++r) {
            for (size_t c = 0; c < cols; ++c) otherHost[c * rows + r] = other[r * cols + c];
        }
    }
    CHECK_RET(aclrtMalloc(&selfDev_, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc self");
    CHECK_RET(aclrtMalloc(&otherDev_, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc other");
    CHECK_RET(aclrtMalloc(&outDev_, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc out");
    CHECK_RET(aclrtMemcpy(selfDev_, bytes, self.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
              "copy self to the device");
    CHECK_RET(aclrtMemcpy(otherDev_, bytes, otherHost.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
              "copy other to the device");
    self_ = CreateTensor(selfDev_);
    other_ = CreateTensor(otherDev_, otherTransposed_);
    out_ = CreateTensor(outDev_);
    CHECK_RET(self_ != nullptr && other_ != nullptr && out_ != nullptr, "aclCreateTensor");
    alphaScalar_ = aclCreateScalar(&alpha_, ACL_FLOAT);
    CHECK_RET(alphaScalar_ != nullptr, "aclCreateScalar");

    int64_t *dims = nullptr;
    uint64_t rank = 0;
    CHECK_RET(aclGetViewShape(self_, &dims, &rank) == ACLNN_SUCCESS, "aclGetViewShape");
    bool same = rank == shape_.size();
    for (uint64_t i = 0; same && i < rank; ++i) same = dims[i] == shape_[i];
    delete[] dims;  // the caller releases the array, as with CANN
    CHECK_RET(same, "aclGetViewShape gives the shape the tensor was created with");
    return true;
}

bool OpRunner::RunOp(aclrtStream stream)
{
    aclOpExecutor *executor = nullptr;
    aclnnStatus ret = aclnnAddGetWorkspaceSize(self_, other_, alphaScalar_, out_, &workspaceSize_, &executor);
    CHECK_RET(ret == ACLNN_SUCCESS, "aclnnAddGetWorkspaceSize");
    if (workspaceSize_ > 0) {
        CHECK_RET(aclrtMalloc(&workspace_, workspaceSize_, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
                  "aclrtMalloc workspace");
    }
    ret = aclnnAdd(workspace_, workspaceSize_, executor, stream);
    CHECK_RET(ret == ACLNN_SUCCESS, "aclnnAdd");
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
    return true;
}

bool OpRunner::Fetch(std::vector<float> &out)
{
    out.assign(Count(), 0.0f);
    const size_t bytes = Count() * sizeof(float);
    CHECK_RET(aclrtMemcpy(out.data(), bytes, outDev_, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
              "copy out to the host");
    return true;
}

OpRunner::~OpRunner()
{
    aclDestroyTensor(self_);
    aclDestroyTensor(other_);
    aclDestroyTensor(out_);
    aclDestroyScalar(alphaScalar_);
    for (void *p : {selfDev_, otherDev_, outDev_, workspace_}) {
        if (p != nullptr) aclrtFree(p);
    }
}
