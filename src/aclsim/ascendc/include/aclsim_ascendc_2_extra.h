/* aclsim: what the "Cube loads, fixpipe, int4" rows' generated structs need before the generated API
   (aclsim_ascendc_extra.h includes it): the documented constructors that do not take every field. */
#ifndef ACLSIM_ASCENDC_2_EXTRA_H
#define ACLSIM_ASCENDC_2_EXTRA_H

/* DataCopyCO12DstParams(nSize, mSize, dstStride, srcStride, quantPre, reluPre, channelSplit, nz2ndEn); sid,
   unitFlag, clipReluPre and eltWiseOp keep their defaults */
#define ACLSIM_STRUCT_EXTRA_DataCopyCO12DstParams                                                        \
    __aicore__ DataCopyCO12DstParams(uint16_t nSize_, uint16_t mSize_, uint32_t dstStride_, uint16_t srcStride_, \
                                     QuantMode_t quantPre_, uint8_t reluPre_, bool channelSplit_, bool nz2ndEn_) \
        : nSize(nSize_), mSize(mSize_), dstStride(dstStride_), srcStride(srcStride_), quantPre(quantPre_),    \
          reluPre(reluPre_), channelSplit(channelSplit_), nz2ndEn(nz2ndEn_)                                   \
    {                                                                                                    \
    }

#endif
