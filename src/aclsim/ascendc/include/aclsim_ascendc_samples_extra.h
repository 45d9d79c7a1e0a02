/* aclsim: class extras of the samples sweep (api_cxx.txt, section "## Samples sweep"), declared
   before the generated API (aclsim_ascendc_extra.h includes this file):
   - ListTensorDesc(data, length, shapeSize): the constructor that decodes at once, as Init does
     (the table's class row has the default constructor only). */
#ifndef ACLSIM_ASCENDC_SAMPLES_EXTRA_H
#define ACLSIM_ASCENDC_SAMPLES_EXTRA_H

#define ACLSIM_CLASS_EXTRA_ListTensorDesc                                                           \
    __aicore__ ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff,                      \
                              uint32_t shapeSize = 0xffffffff, const char* aclsim_file_ = __builtin_FILE(), \
                              int aclsim_line_ = __builtin_LINE())                                  \
        : ListTensorDesc(aclsim_file_, aclsim_line_)                                                \
    {                                                                                               \
        Init(data, length, shapeSize, aclsim_file_, aclsim_line_);                                  \
    }

#endif
