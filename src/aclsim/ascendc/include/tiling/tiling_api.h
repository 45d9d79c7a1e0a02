/* aclsim's tiling/tiling_api.h: the host tiling of Ascend C's high-level Matmul (matmul_tiling::
 * MatmulApiTiling, MultiCoreMatmulTiling, optiling::TCubeTiling) in a CPU-debug host program.  Each call
 * runs aclsim.kernel's MatmulApiTiling / MultiCoreMatmulTiling (rows MatmulTilingHost of api_cxx.txt);
 * aclsim starts on the first one (the chip: ACLSIM_CHIP, else the SoC the build names).  Written from
 * Ascend's public documentation. */
#ifndef ACLSIM_TILING_API_H
#define ACLSIM_TILING_API_H

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernel_operator.h"
#include "tiling/platform/platform_ascendc.h"

#ifndef ACLSIM_SOC
#define ACLSIM_SOC ""
#endif

namespace aclsim {
namespace tiling {
/* the host tiling's last GetTiling, field by field, into a struct with TCubeTiling's fields */
template <class D> inline void fill(const ::AscendC::MatmulTilingHost& api, D& d)
{
    uint32_t i = 0;
#define ACLSIM_TILING_FIELD(T, NAME) d.NAME = static_cast<T>(api.TilingValue(i++));
    ACLSIM_FIELDS_TCubeTiling(ACLSIM_TILING_FIELD)
#undef ACLSIM_TILING_FIELD
}
}  // namespace tiling
}  // namespace aclsim

namespace optiling {
/* optiling::TCubeTiling: the tiling data a host fills (set_<field>/get_<field>) and saves for the kernel.
   Saved as CANN lays it out: 48 int32 words, aclsim's fields (the kernel's TCubeTiling, in order) first
   and the reserved rest zero. */
class TCubeTiling {
public:
#define ACLSIM_TILING_ACCESSORS(T, NAME)                     \
    void set_##NAME(T value) { data_.NAME = value; }         \
    T get_##NAME() const { return data_.NAME; }
    ACLSIM_FIELDS_TCubeTiling(ACLSIM_TILING_ACCESSORS)
#undef ACLSIM_TILING_ACCESSORS
    static constexpr size_t kDataSize = 48 * sizeof(int32_t);
    static_assert(sizeof(::AscendC::TCubeTiling) <= kDataSize, "aclsim: TCubeTiling outgrew its 48 words");
    size_t GetDataSize() const { return kDataSize; }
    void SaveToBuffer(void* buf, size_t size) const
    {
        std::memset(buf, 0, size);
        std::memcpy(buf, &data_, size < sizeof(data_) ? size : sizeof(data_));
    }
    ::AscendC::TCubeTiling data_;
};
}  // namespace optiling

namespace matmul_tiling {
using ::AscendC::CubeFormat;
using ::AscendC::DataType;
using ::AscendC::MatrixTraverse;
using ::AscendC::TPosition;

/* MatmulApiTiling: the tiling of one core's matmul; MultiCoreMatmulTiling: of a matmul across SetDim
   cores.  Setters return 0, or -1 with the reason printed; GetTiling -1 when no tiling fits. */
class MatmulApiTiling : public ::AscendC::MatmulTilingHost {
public:
    MatmulApiTiling(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : MatmulTilingHost(false, ACLSIM_SOC, aclsim_file_, aclsim_line_)
    {
    }
    /* the tiling for a platform's chip (the SoC it names starts aclsim, as a first GmAlloc would) */
    explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                             const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : MatmulTilingHost(false, ascendcPlatform.AclsimSoc(), aclsim_file_, aclsim_line_)
    {
    }
    int64_t GetTiling(optiling::TCubeTiling& tiling, const char* aclsim_file_ = __builtin_FILE(),
                      int aclsim_line_ = __builtin_LINE()) const
    {
        const int64_t rc = ComputeTiling(aclsim_file_, aclsim_line_);
        if (rc == 0) {
            ::aclsim::tiling::fill(*this, tiling.data_);
        }
        return rc;
    }
    int64_t GetTiling(::AscendC::TCubeTiling& tiling, const char* aclsim_file_ = __builtin_FILE(),
                      int aclsim_line_ = __builtin_LINE()) const
    {
        const int64_t rc = ComputeTiling(aclsim_file_, aclsim_line_);
        if (rc == 0) {
            ::aclsim::tiling::fill(*this, tiling);
        }
        return rc;
    }

protected:
    MatmulApiTiling(bool multiCore, const char* aclsim_file_, int aclsim_line_)
        : MatmulTilingHost(multiCore, ACLSIM_SOC, aclsim_file_, aclsim_line_)
    {
    }
    MatmulApiTiling(bool multiCore, const char* soc, const char* aclsim_file_, int aclsim_line_)
        : MatmulTilingHost(multiCore, soc, aclsim_file_, aclsim_line_)
    {
    }
};

class MultiCoreMatmulTiling : public MatmulApiTiling {
public:
    MultiCoreMatmulTiling(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : MatmulApiTiling(true, aclsim_file_, aclsim_line_)
    {
    }
    explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                   const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : MatmulApiTiling(true, ascendcPlatform.AclsimSoc(), aclsim_file_, aclsim_line_)
    {
    }
};
}  // namespace matmul_tiling

#endif /* ACLSIM_TILING_API_H */
