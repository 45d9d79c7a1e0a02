/* aclsim: the names of LogSoftMax's tiling that the table cannot declare (api_cxx.txt, "LogSoftMax").
 *  - LogSoftMaxTiling under CANN's other names: AscendC::tiling::LogSoftMaxTiling and, as CANN's
 *    kernel_tiling.h exports it for older kernels, the global LogSoftMaxTiling;
 *  - optiling::LogSoftMaxTiling: the host's tiling data (set_<field>/get_<field>, GetDataSize,
 *    SaveToBuffer), laid out as the kernel's struct (it derives from it, so a kernel passes it as is);
 *  - AscendC::LogSoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, tiling) for both: each
 *    field from the table's AclsimLogSoftMaxTilingValue row (aclsim.kernel.log_soft_max_tiling_func).
 * Written from Ascend's public documentation (LogSoftMax Tiling). */
#ifndef ACLSIM_ASCENDC_LOGSOFTMAX_H
#define ACLSIM_ASCENDC_LOGSOFTMAX_H

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace AscendC {
namespace tiling {
using ::AscendC::LogSoftMaxTiling;
}  // namespace tiling
}  // namespace AscendC
using ::AscendC::LogSoftMaxTiling;

namespace optiling {
class LogSoftMaxTiling : public ::AscendC::LogSoftMaxTiling {
public:
#define ACLSIM_LSM_ACCESSORS(T, NAME)                  \
    void set_##NAME(T value) { this->NAME = value; }   \
    T get_##NAME() const { return this->NAME; }
    ACLSIM_FIELDS_LogSoftMaxTiling(ACLSIM_LSM_ACCESSORS)
#undef ACLSIM_LSM_ACCESSORS
    size_t GetDataSize() const { return sizeof(::AscendC::LogSoftMaxTiling); }
    void SaveToBuffer(void* buf, size_t size) const
    {
        const size_t n = size < sizeof(::AscendC::LogSoftMaxTiling) ? size : sizeof(::AscendC::LogSoftMaxTiling);
        std::memcpy(buf, static_cast<const ::AscendC::LogSoftMaxTiling*>(this), n);
    }
};
}  // namespace optiling

namespace AscendC {
template <class Shape>
inline void LogSoftMaxTilingFunc(const Shape& srcShape, uint32_t dataTypeSize, uint32_t localWorkSpaceSize,
                                 ::AscendC::LogSoftMaxTiling& softmaxTiling,
                                 const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
{
    uint32_t i = 0;
#define ACLSIM_LSM_FIELD(T, NAME)                                                                        \
    softmaxTiling.NAME = static_cast<T>(                                                                 \
        AclsimLogSoftMaxTilingValue(srcShape, dataTypeSize, localWorkSpaceSize, i++, aclsim_file_, aclsim_line_));
    ACLSIM_FIELDS_LogSoftMaxTiling(ACLSIM_LSM_FIELD)
#undef ACLSIM_LSM_FIELD
}
}  // namespace AscendC

#endif
