/*
 * acl_base.h - AscendCL base types, error codes and host-side descriptions, for aclsim.
 *
 * Written for aclsim from the AscendCL documentation (names, prototypes and values as
 * documented); the functions are implemented by aclsim's libascendcl.so (docs/capi.md).
 * Every function declared with ACL_FUNC_VISIBILITY is in the C face's prototype table:
 * aclsim's build parses these declarations to generate the library.
 */
#ifndef ACLSIM_ACL_BASE_H_
#define ACLSIM_ACL_BASE_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ACL_FUNC_VISIBILITY
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#endif

#ifdef __GNUC__
#define ACL_DEPRECATED __attribute__((deprecated))
#define ACL_DEPRECATED_MESSAGE(message) __attribute__((deprecated(message)))
#else
#define ACL_DEPRECATED
#define ACL_DEPRECATED_MESSAGE(message)
#endif

typedef void *aclrtStream;
typedef void *aclrtEvent;
typedef void *aclrtContext;
typedef int aclError;
typedef uint16_t aclFloat16;
typedef struct aclDataBuffer aclDataBuffer;
typedef struct aclTensorDesc aclTensorDesc;

/* error codes (the values of aclsim.errors) */
static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_INVALID_FILE = 100003;
static const int ACL_ERROR_PARSE_FILE = 100006;
static const int ACL_ERROR_OP_TYPE_NOT_MATCH = 100020;
static const int ACL_ERROR_OP_INPUT_NOT_MATCH = 100021;
static const int ACL_ERROR_OP_OUTPUT_NOT_MATCH = 100022;
static const int ACL_ERROR_OP_ATTR_NOT_MATCH = 100023;
static const int ACL_ERROR_OP_NOT_FOUND = 100024;
static const int ACL_ERROR_OP_LOAD_FAILED = 100025;
static const int ACL_ERROR_UNSUPPORTED_DATA_TYPE = 100026;
static const int ACL_ERROR_FORMAT_NOT_MATCH = 100027;
static const int ACL_ERROR_REPEAT_SUBSCRIBE = 100033;
static const int ACL_ERROR_REPEAT_FINALIZE = 100037;
static const int ACL_ERROR_RT_PARAM_INVALID = 107000;
static const int ACL_ERROR_RT_INVALID_DEVICEID = 107001;
static const int ACL_ERROR_RT_CONTEXT_NULL = 107002;
static const int ACL_ERROR_RT_STREAM_CONTEXT = 107003;
static const int ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID = 107006;
static const int ACL_ERROR_RT_ADDR_UNALIGNED = 107008;
static const int ACL_ERROR_RT_STREAM_SUBSCRIBE = 107011;
static const int ACL_ERROR_RT_THREAD_SUBSCRIBE = 107012;
static const int ACL_ERROR_RT_STREAM_NO_CB_REG = 107015;
static const int ACL_ERROR_RT_INVALID_MEMORY_TYPE = 107016;
static const int ACL_ERROR_RT_INVALID_HANDLE = 107017;
static const int ACL_ERROR_RT_WAIT_TIMEOUT = 107019;
static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_FEATURE_UNSUPPORTED = 200006;
static const int ACL_ERROR_RT_FEATURE_NOT_SUPPORT = 207000;
static const int ACL_ERROR_RT_MEMORY_ALLOCATION = 207001;
static const int ACL_ERROR_RT_MEMORY_FREE = 207002;
static const int ACL_ERROR_RT_AICORE_OVER_FLOW = 207003;
static const int ACL_ERROR_RT_AIVEC_OVER_FLOW = 207016;
static const int ACL_ERROR_INTERNAL_ERROR = 500000;
static const int ACL_ERROR_RT_INTERNAL_ERROR = 507000;
static const int ACL_ERROR_RT_EVENT_NOT_COMPLETE = 507006;
static const int ACL_ERROR_RT_REPORT_TIMEOUT = 507012;
static const int ACL_ERROR_RT_AICORE_TIMEOUT = 507014;
static const int ACL_ERROR_RT_AICORE_EXCEPTION = 507015;
static const int ACL_ERROR_RT_VECTOR_CORE_TIMEOUT = 507034;
static const int ACL_ERROR_RT_VECTOR_CORE_EXCEPTION = 507035;
static const int ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW = 507042;
static const int ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW = 507043;
static const int ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW = 507044;
static const int ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW = 507045;
static const int ACL_ERROR_RT_STREAM_SYNC_TIMEOUT = 507046;
static const int ACL_ERROR_RT_EVENT_SYNC_TIMEOUT = 507047;

#define ACL_UNKNOWN_RANK 0xFFFFFFFFFFFFFFFE

/* aclDataType and aclFormat (the values of aclsim.aclnn.dtypes) */
typedef enum {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_STRING = 13,
    ACL_COMPLEX64 = 16,
    ACL_COMPLEX128 = 17,
    ACL_BF16 = 27,
    ACL_INT4 = 29,
    ACL_UINT1 = 30,
    ACL_COMPLEX32 = 33,
    ACL_HIFLOAT8 = 34,
    ACL_FLOAT8_E5M2 = 35,
    ACL_FLOAT8_E4M3FN = 36,
    ACL_FLOAT8_E8M0 = 37,
    ACL_FLOAT6_E3M2 = 38,
    ACL_FLOAT6_E2M3 = 39,
    ACL_FLOAT4_E2M1 = 40,
    ACL_FLOAT4_E1M2 = 41
} aclDataType;

typedef enum {
    ACL_FORMAT_UNDEFINED = -1,
    ACL_FORMAT_NCHW = 0,
    ACL_FORMAT_NHWC = 1,
    ACL_FORMAT_ND = 2,
    ACL_FORMAT_NC1HWC0 = 3,
    ACL_FORMAT_FRACTAL_Z = 4,
    ACL_FORMAT_NC1HWC0_C04 = 12,
    ACL_FORMAT_HWCN = 16,
    ACL_FORMAT_NDHWC = 27,
    ACL_FORMAT_FRACTAL_NZ = 29,
    ACL_FORMAT_NCDHW = 30,
    ACL_FORMAT_NDC1HWC0 = 32,
    ACL_FRACTAL_Z_3D = 33,
    ACL_FORMAT_NC = 35,
    ACL_FORMAT_NCL = 47,
    ACL_FORMAT_FRACTAL_NZ_C0_16 = 50,
    ACL_FORMAT_FRACTAL_NZ_C0_32 = 51,
    ACL_FORMAT_FRACTAL_NZ_C0_2 = 52,
    ACL_FORMAT_FRACTAL_NZ_C0_4 = 53,
    ACL_FORMAT_FRACTAL_NZ_C0_8 = 54
} aclFormat;

typedef enum {
    ACL_DEBUG = 0,
    ACL_INFO = 1,
    ACL_WARNING = 2,
    ACL_ERROR = 3
} aclLogLevel;

typedef enum {
    ACL_MEMTYPE_DEVICE = 0,
    ACL_MEMTYPE_HOST = 1,
    ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT = 2
} aclMemType;

/* data buffers: an address and a size, host objects */
/* half-precision conversions (round to nearest even, as IEEE 754 binary16) */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size);
ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer);
ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size);
ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer);
ACL_DEPRECATED_MESSAGE("aclGetDataBufferSize is deprecated, use aclGetDataBufferSizeV2 instead")
ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer);
ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer);
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);

/* tensor descriptions of the single-op API */
ACL_FUNC_VISIBILITY aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t *dims,
                                                       aclFormat format);
ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc *desc);
ACL_FUNC_VISIBILITY aclDataType aclGetTensorDescType(const aclTensorDesc *desc);
ACL_FUNC_VISIBILITY aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc);
ACL_FUNC_VISIBILITY size_t aclGetTensorDescSize(const aclTensorDesc *desc);
ACL_FUNC_VISIBILITY size_t aclGetTensorDescElementCount(const aclTensorDesc *desc);
ACL_FUNC_VISIBILITY size_t aclGetTensorDescNumDims(const aclTensorDesc *desc);
ACL_DEPRECATED_MESSAGE("aclGetTensorDescDim is deprecated, use aclGetTensorDescDimV2 instead")
ACL_FUNC_VISIBILITY int64_t aclGetTensorDescDim(const aclTensorDesc *desc, size_t index);
ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, size_t index, int64_t *dimSize);

/* the messages of this thread's failed calls, latest first; NULL when none */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif

#endif /* ACLSIM_ACL_BASE_H_ */
