/* aclsim: what the cube rows' generated structs need before the generated API (aclsim_ascendc_extra.h
   includes it): the documented constructors that do not take every field. */
#ifndef ACLSIM_ASCENDC_CUBE_EXTRA_H
#define ACLSIM_ASCENDC_CUBE_EXTRA_H

/* MmadParams(m, n, k, isBias, fmOffset, enSsparse, enWinogradA, enWinogradB) and
   MmadParams(m, n, k, unitFlag, cmatrixSource, cmatrixInitVal); the other fields keep their defaults */
#define ACLSIM_STRUCT_EXTRA_MmadParams                                                               \
    __aicore__ MmadParams(uint16_t m_, uint16_t n_, uint16_t k_, bool isBias_, int32_t fmOffset_,     \
                          bool enSsparse_, bool enWinogradA_, bool enWinogradB_)                      \
        : m(m_), n(n_), k(k_), isBias(isBias_), fmOffset(fmOffset_), enSsparse(enSsparse_),          \
          enWinogradA(enWinogradA_), enWinogradB(enWinogradB_)                                        \
    {                                                                                                 \
    }                                                                                                 \
    __aicore__ MmadParams(uint16_t m_, uint16_t n_, uint16_t k_, uint8_t unitFlag_, bool cmatrixSource_, \
                          bool cmatrixInitVal_)                                                       \
        : m(m_), n(n_), k(k_), unitFlag(unitFlag_), cmatrixSource(cmatrixSource_),                   \
          cmatrixInitVal(cmatrixInitVal_)                                                             \
    {                                                                                                 \
    }

#endif
