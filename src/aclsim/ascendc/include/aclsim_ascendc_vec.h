/* aclsim: the vector API's pieces that table rows cannot express (api_cxx.txt, section "## Vector"):
   the event_t enum of the CCE flag intrinsics, the mask placeholders, DataCopyPadExtParams<T> (a
   template struct: its DataCopyPad passes the fields to the row aclsim_DataCopyPadExt) and
   GetTPipePtr() (a pointer to the block's TPipe, from the row aclsim_GetTPipe). */
#ifndef ACLSIM_ASCENDC_VEC_H
#define ACLSIM_ASCENDC_VEC_H

/* event ids of set_flag / wait_flag (a CCE type, outside namespace AscendC, as on the device) */
enum event_t : int32_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };
using AscendC::pipe_barrier;
using AscendC::set_flag;
using AscendC::wait_flag;

namespace AscendC {
using TEventID = int8_t;

/* the mask argument of an instruction that reads the mask register (isSetMask = false) */
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};

template <class T> struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = 0;
    __aicore__ DataCopyPadExtParams() = default;
    __aicore__ DataCopyPadExtParams(bool isPad_, uint8_t leftPadding_, uint8_t rightPadding_, T paddingValue_)
        : isPad(isPad_), leftPadding(leftPadding_), rightPadding(rightPadding_), paddingValue(paddingValue_)
    {
    }
};

template <class T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyExtParams& params, const DataCopyPadExtParams<T>& padParams,
                                   const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
{
    aclsim_DataCopyPadExt(dst, src, params, padParams.isPad, padParams.leftPadding, padParams.rightPadding,
                          padParams.paddingValue, aclsim_file_, aclsim_line_);
}

/* GetTPipePtr()->FetchEventID(...): the block's TPipe (each block runs on its own thread) */
__aicore__ inline TPipe* GetTPipePtr(const char* aclsim_file_ = __builtin_FILE(), int aclsim_line_ = __builtin_LINE())
{
    thread_local TPipe pipe{::aclsim::detail::Handle{0}};
    pipe = aclsim_GetTPipe(aclsim_file_, aclsim_line_);
    return &pipe;
}
}  // namespace AscendC

#endif
