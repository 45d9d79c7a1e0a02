/* aclsim: the cube loads' handwritten C++ (api_cxx.txt's "Cube loads, fixpipe, int4" section), where the
 * table cannot express the Ascend C declaration:
 *   - SetFmatrix(l1H, l1W, const uint8_t padList[4], fmatrixMode): the array crosses as four fields
 *     (the SetFmatrixFields row);
 *   - IsResetLoad3dConfig: a constexpr struct, so that it can be LoadData's template parameter
 *     (LoadData<T, CFG>(dst, src, LoadData3DParamsV2<U>)); its fields cross as LoadData3DFieldsConfig's
 *     last two, rebuilt as aclsim.kernel.IsResetLoad3dConfig; IS_RESER_LOAD3D_DEFAULT_CONFIG is
 *     {true, true} (the load sets the Feature Map and pad registers from its parameters), as in Ascend C;
 *   - int4b_t, an element type (DtypeCode 14: aclsim.kernel.int4b_t);
 *   - FixpipeParams<T> (with QuantParams, Nz2NdParams) and Fixpipe's older form over it.
 */
#ifndef ACLSIM_ASCENDC_2_H
#define ACLSIM_ASCENDC_2_H

/* int4b_t: the 4-bit integer element type.  Two elements share a byte (element 2k in the low nibble), so
   a tensor's sizes and offsets count elements, as in aclsim.kernel (a byte of this struct holds two; its
   sizeof is not an element's size: buffer sizes in bytes are elements / 2).  Its values are not read or
   written one by one from C++ (GetValue/SetValue of int4b_t do not cross). */
struct int4b_t {
    uint8_t bits = 0;
};

namespace aclsim {
namespace detail {
template <> struct DtypeCode<::int4b_t> { static constexpr int value = 14; };
}  // namespace detail
}  // namespace aclsim

namespace AscendC {
using ::int4b_t;

__aicore__ inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode& fmatrixMode,
                                  const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
{
    SetFmatrixFields(l1H, l1W, padList[0], padList[1], padList[2], padList[3], fmatrixMode, aclsim_file_,
                     aclsim_line_);
}

struct IsResetLoad3dConfig {
    bool isSetFMatrix = true;
    bool isSetPadding = true;
};

inline constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG{true, true};

/* LoadData<T, config>(dst, src, LoadData3DParamsV2<U>): config says whether the load sets the Feature Map
   and padding registers from its parameters or reads what SetFmatrix / SetLoadDataPaddingValue set */
template <class T, const IsResetLoad3dConfig& config, class U>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& p,
                                const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
{
    LoadData3DFieldsConfig(dst, src, p.padList[0], p.padList[1], p.padList[2], p.padList[3], p.l1H, p.l1W,
                           p.channelSize, p.kExtension, p.mExtension, p.kStartPt, p.mStartPt, p.strideW, p.strideH,
                           p.filterW, p.filterH, p.dilationFilterW, p.dilationFilterH, p.enTranspose, p.enSmallK,
                           static_cast<T>(p.padValue), p.filterSizeW, p.filterSizeH, p.fMatrixCtrl,
                           config.isSetFMatrix, config.isSetPadding, aclsim_file_, aclsim_line_);
}

/* Fixpipe(dst, src, FixpipeParams<T>): the older form of the L0C -> GM/L1 move (arch 220).  Its fields cross
   as FixpipeOldFields's; adapters/last2.py's fixpipe_old maps them onto FixpipeParamsV220. */
struct QuantParams {
    __aicore__ QuantParams() = default;
    __aicore__ QuantParams(QuantMode_t quantPreIn) : quantPre(quantPreIn) {}
    __aicore__ QuantParams(QuantMode_t quantPreIn, uint64_t deqScalarIn) : quantPre(quantPreIn), deqScalar(deqScalarIn)
    {
    }
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
};

struct Nz2NdParams {
    __aicore__ Nz2NdParams() = default;
    __aicore__ Nz2NdParams(bool nz2ndEnIn, uint16_t ndNumIn, uint16_t srcNdStrideIn, uint16_t dstNdStrideIn,
                           uint16_t originalNSizeIn)
        : nz2ndEn(nz2ndEnIn), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn),
          originalNSize(originalNSizeIn)
    {
    }
    bool nz2ndEn = false;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    uint16_t originalNSize = 0;
};

template <class T = int32_t> struct FixpipeParams {
    __aicore__ FixpipeParams() = default;
    __aicore__ FixpipeParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint32_t dstStrideIn)
        : cburstNum(count), burstLen(len), dstStride(dstStrideIn), srcStride(srcStrideIn)
    {
    }
    uint16_t cburstNum = 1;
    uint16_t burstLen = 1;
    uint32_t dstStride = 0;
    uint16_t srcStride = 0;
    QuantParams quantParams;
    bool reluEn = false;
    Nz2NdParams nz2ndParams;
    uint8_t unitFlag = 0;
};

template <class T, class U, class V>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParams<V>& p,
                               const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
{
    FixpipeOldFields(dst, src, p.cburstNum, p.burstLen, p.dstStride, p.srcStride, p.quantParams.quantPre,
                     p.quantParams.deqScalar, p.reluEn, p.nz2ndParams.nz2ndEn, p.nz2ndParams.ndNum,
                     p.nz2ndParams.srcNdStride, p.nz2ndParams.dstNdStride, p.nz2ndParams.originalNSize, p.unitFlag,
                     aclsim_file_, aclsim_line_);
}
template <class T, class U, class V>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParams<V>& p,
                               const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
{
    FixpipeOldFields(dst, src, p.cburstNum, p.burstLen, p.dstStride, p.srcStride, p.quantParams.quantPre,
                     p.quantParams.deqScalar, p.reluEn, p.nz2ndParams.nz2ndEn, p.nz2ndParams.ndNum,
                     p.nz2ndParams.srcNdStride, p.nz2ndParams.dstNdStride, p.nz2ndParams.originalNSize, p.unitFlag,
                     aclsim_file_, aclsim_line_);
}

}  // namespace AscendC

#endif
