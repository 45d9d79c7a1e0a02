/* aclsim: the high-level Matmul of Ascend C on top of the generated API (api_cxx.txt, "Cube and Matmul").
 *
 * Matmul<MatmulType<POS, FORMAT, T, ISTRANS, LAYOUT, IBSHARE>, B, C, BIAS> is the generated MatmulObject
 * whose template parameters are the four MatmulTypes' fields: every member is a row of the table (one
 * aclsim.kernel.Matmul object on the Python side).  REGIST_MATMUL_OBJ takes the TPipe and the tilings by
 * address, as Ascend C writes it.  Written from Ascend's public documentation. */
#ifndef ACLSIM_ASCENDC_MATMUL_H
#define ACLSIM_ASCENDC_MATMUL_H

namespace AscendC {

using LoadData2dParams = LoadData2DParams;

/* bytes of a C0 block (the fractal's row: 32 B), as aclsim.kernel.DEFAULT_C0_SIZE */
constexpr int32_t DEFAULT_C0_SIZE = 32;

/* a matrix's place, format, type, transposition, batch layout and IBShare flag */
template <TPosition POSITION, CubeFormat FORMAT, class TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
    static constexpr TPosition pos = POSITION;
    static constexpr CubeFormat format = FORMAT;
    using T = TYPE;
    static constexpr bool isTrans = ISTRANS;
    static constexpr LayoutMode layout = LAYOUT;
    static constexpr bool ibShare = IBSHARE;
};

/* SparseMatmulType: a MatmulType (as aclsim.kernel.SparseMatmulType) */
template <TPosition POSITION, CubeFormat FORMAT, class TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
using SparseMatmulType = MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LAYOUT, IBSHARE>;

namespace detail_matmul {
template <class A, class B, class C, class BIAS>
using Object = MatmulObject<A::pos, A::format, typename A::T, A::isTrans, A::layout, A::ibShare,
                            B::pos, B::format, typename B::T, B::isTrans, B::layout, B::ibShare,
                            C::pos, C::format, typename C::T, C::layout,
                            BIAS::pos, BIAS::format, typename BIAS::T>;
}  // namespace detail_matmul

/* Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE = C_TYPE, MM_CFG = CFG_NORM, MM_CB>: MM_CFG (a MatmulConfig or a
   MatmulApiStaticTiling, aclsim_ascendc_last1.h) reaches the Python Matmul object, and MM_CB's functions too
   (aclsim_ascendc_mmcb.h). */
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<>>
class Matmul : public detail_matmul::Object<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {
    using Base = detail_matmul::Object<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>;
    static constexpr bool kConstant =
        std::is_same<std::decay_t<decltype(MM_CFG)>, MatmulApiStaticTiling>::value;

public:
    __aicore__ Matmul(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
        : Base(detail_mmcfg::ConfigOf(MM_CFG), aclsim_file_, aclsim_line_)
    {
        detail_mmcb::Install<MM_CB>::Run(*this, aclsim_file_, aclsim_line_);
    }
    using Base::Init;
    /* a null tiling: the constant one of MM_CFG = GetMatmulApiTiling<...>(cfg, l1Size) */
    __aicore__ inline void Init(const TCubeTiling* tiling, const char* aclsim_file_ = __builtin_FILE(),
                                int aclsim_line_ = __builtin_LINE()) const
    {
        if (tiling != nullptr) {
            Base::Init(*tiling, aclsim_file_, aclsim_line_);
        } else if constexpr (kConstant) {
            Base::InitConstantTiling(detail_mmcfg::FieldsOf(MM_CFG), MM_CFG.l1Size, aclsim_file_, aclsim_line_);
        } else {
            Base::InitStaticTiling(detail_mmcfg::L1SizeOf(MM_CFG), aclsim_file_, aclsim_line_);
        }
    }
    __aicore__ inline void Init(const TCubeTiling* tiling, TPipe* tpipe, const char* aclsim_file_ = __builtin_FILE(),
                                int aclsim_line_ = __builtin_LINE()) const
    {
        if (tiling != nullptr) {
            Base::Init(*tiling, *tpipe, aclsim_file_, aclsim_line_);
        } else if constexpr (kConstant) {
            Base::InitConstantTiling(detail_mmcfg::FieldsOf(MM_CFG), MM_CFG.l1Size, *tpipe, aclsim_file_,
                                     aclsim_line_);
        } else {
            Base::InitStaticTiling(detail_mmcfg::L1SizeOf(MM_CFG), *tpipe, aclsim_file_, aclsim_line_);
        }
    }
};

/* MatmulImpl: the class behind Matmul in Ascend C (`using Matmul = MatmulImpl<...>`) */
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<>>
using MatmulImpl = Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB>;

/* Ceil(a, b): a / b rounded up (the helper Ascend C's matmul library gives kernels) */
template <class T> __aicore__ inline T Ceil(T num1, T num2)
{
    return num2 == 0 ? T(0) : static_cast<T>((num1 + num2 - 1) / num2);
}

/* InitConstValueParams<T>: (repeatTimes, blockNum, dstGap, initValue) or (repeatTimes, initValue) */
template <class T> struct InitConstValueParams {
    uint16_t repeatTimes = 0;
    uint16_t blockNum = 0;
    uint16_t dstGap = 0;
    T initValue = 0;
    __aicore__ InitConstValueParams() = default;
    __aicore__ InitConstValueParams(uint16_t repeatTimes_, uint16_t blockNum_, uint16_t dstGap_, T initValue_)
        : repeatTimes(repeatTimes_), blockNum(blockNum_), dstGap(dstGap_), initValue(initValue_)
    {
    }
    __aicore__ InitConstValueParams(uint16_t repeatTimes_, T initValue_)
        : repeatTimes(repeatTimes_), initValue(initValue_)
    {
    }
};

template <class T, class U>
__aicore__ inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& p,
                                      const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
{
    InitConstValueFields(dst, p.repeatTimes, p.blockNum, p.dstGap, static_cast<T>(p.initValue), aclsim_file_,
                         aclsim_line_);
}

template <class T, class U>
__aicore__ inline void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& p,
                            const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
{
    FillFields(dst, p.repeatTimes, p.blockNum, p.dstGap, static_cast<T>(p.initValue), aclsim_file_, aclsim_line_);
}

/* LoadData3DParamsV2<T>: img2col of a feature map in L1 (padList: left, right, top, bottom) */
template <class T> struct LoadData3DParamsV2 {
    uint8_t padList[4] = {0, 0, 0, 0};
    uint16_t l1H = 0;
    uint16_t l1W = 0;
    uint16_t channelSize = 0;
    uint16_t kExtension = 0;
    uint16_t mExtension = 0;
    uint16_t kStartPt = 0;
    uint16_t mStartPt = 0;
    uint8_t strideW = 1;
    uint8_t strideH = 1;
    uint8_t filterW = 1;
    uint8_t filterH = 1;
    uint8_t dilationFilterW = 1;
    uint8_t dilationFilterH = 1;
    bool enTranspose = false;
    bool enSmallK = false;
    T padValue = 0;
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
};

template <class T, class U>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& p,
                                const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
{
    LoadData3DFields(dst, src, p.padList[0], p.padList[1], p.padList[2], p.padList[3], p.l1H, p.l1W,
                     p.channelSize, p.kExtension, p.mExtension, p.kStartPt, p.mStartPt, p.strideW, p.strideH,
                     p.filterW, p.filterH, p.dilationFilterW, p.dilationFilterH, p.enTranspose, p.enSmallK,
                     static_cast<T>(p.padValue), p.filterSizeW, p.filterSizeH, p.fMatrixCtrl, aclsim_file_,
                     aclsim_line_);
}

/* Fixpipe's layouts: Fixpipe<T, U, CFG_NZ>(dst, src, params); without the parameter, row major */
inline const FixpipeConfig CFG_ROW_MAJOR{CO2Layout::ROW_MAJOR, false};
inline const FixpipeConfig CFG_NZ{CO2Layout::NZ, false};
inline const FixpipeConfig CFG_COLUMN_MAJOR{CO2Layout::COLUMN_MAJOR, false};

template <class T, class U, const FixpipeConfig& config>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& params,
                               const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
{
    FixpipeWithConfig(dst, src, params, config, aclsim_file_, aclsim_line_);
}
template <class T, class U, const FixpipeConfig& config>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& params,
                               const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
{
    FixpipeWithConfig(dst, src, params, config, aclsim_file_, aclsim_line_);
}

}  // namespace AscendC

namespace aclsim {
namespace matmul {
/* REGIST_MATMUL_OBJ(&pipe, workspace, mm[, &tiling][, mm2, &tiling2]) */
template <class M>
inline void regist(const char* f, int l, ::AscendC::TPipe* p, uint8_t* ws, const M& mm)
{
    ::AscendC::RegistMatmulObj(*p, ws, mm, f, l);
}
template <class M>
inline void regist(const char* f, int l, ::AscendC::TPipe* p, uint8_t* ws, const M& mm,
                   const ::AscendC::TCubeTiling* t)
{
    if (t == nullptr) {  // the constant tiling of GetMatmulApiTiling (Matmul::Init(nullptr))
        ::AscendC::RegistMatmulObj(*p, ws, mm, f, l);
        mm.Init(t, f, l);
    } else {
        ::AscendC::RegistMatmulObj(*p, ws, mm, *t, f, l);
    }
}
template <class M, class N>
inline void regist(const char* f, int l, ::AscendC::TPipe* p, uint8_t* ws, const M& mm,
                   const ::AscendC::TCubeTiling* t, const N& mm2, const ::AscendC::TCubeTiling* t2)
{
    if (t == nullptr || t2 == nullptr) {  // a constant tiling: each object as registered alone
        regist(f, l, p, ws, mm, t);
        regist(f, l, p, ws, mm2, t2);
    } else {
        ::AscendC::RegistMatmulObj(*p, ws, mm, *t, mm2, *t2, f, l);
    }
}
}  // namespace matmul
}  // namespace aclsim

#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) \
    ::aclsim::matmul::regist(__FILE__, __LINE__, tpipe, (uint8_t*)(workspace), __VA_ARGS__)

/* Ascend C's older kernels name the Matmul API's namespace `matmul` */
namespace matmul {
using namespace ::AscendC;
}

#endif
