/* Error paths: each misuse returns its documented AscendCL code, changes nothing, and
 * aclGetRecentErrMsg names the failed C function and the line of this file that called it.
 *
 *   cc -g 03_error_paths.c $(aclsim capi --cflags --libs) -o error_paths && ./error_paths
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

static int g_failures = 0;
static int g_checks = 0;

#define EXPECT(call, code)                                                                 \
    do {                                                                                   \
        aclError ret_ = (call);                                                            \
        ++g_checks;                                                                        \
        if (ret_ != (code)) {                                                              \
            const char *msg_ = aclGetRecentErrMsg();                                       \
            printf("line %d: %s -> %d, expected %d (%s)\n%s\n", __LINE__, #call, ret_,     \
                   (int)(code), #code, msg_ ? msg_ : "");                                  \
            ++g_failures;                                                                  \
        }                                                                                  \
    } while (0)

#define EXPECT_TRUE(cond, what)                                                            \
    do {                                                                                   \
        ++g_checks;                                                                        \
        if (!(cond)) {                                                                     \
            printf("line %d: %s\n", __LINE__, what);                                       \
            ++g_failures;                                                                  \
        }                                                                                  \
    } while (0)

int main(void)
{
    /* before aclInit */
    EXPECT(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
    EXPECT(aclFinalize(), ACL_ERROR_UNINITIALIZE);
    (void)aclGetRecentErrMsg();

    EXPECT(aclInit(NULL), ACL_SUCCESS);
    EXPECT(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    EXPECT(aclrtSetDevice(9999), ACL_ERROR_RT_INVALID_DEVICEID);
    int32_t device = -1;
    EXPECT(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);

    /* memory */
    void *dev = NULL;
    EXPECT(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMalloc(&dev, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    EXPECT_TRUE(dev == NULL, "a refused aclrtMalloc leaves its OUT parameter alone");
    EXPECT(aclrtMalloc(&dev, (size_t)1 << 50, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    char host[256] = {0};
    EXPECT(aclrtMemcpy(dev, 128, host, 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemcpy(dev, 256, host, 256, (aclrtMemcpyKind)99), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtMemcpy(dev, 256, host, 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT(aclrtMemset(dev, 256, 0, 512), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtFree(dev), ACL_SUCCESS);
    EXPECT(aclrtFree(dev), ACL_ERROR_RT_MEMORY_FREE); /* the double free of line 65 */
    const char *msg = aclGetRecentErrMsg();
    EXPECT_TRUE(msg != NULL && strstr(msg, "aclrtFree") != NULL, "the message names aclrtFree");
    EXPECT_TRUE(msg != NULL && strstr(msg, "03_error_paths.c:65") != NULL,
                "the message names the calling line (needs -g)");
    EXPECT_TRUE(aclGetRecentErrMsg() == NULL, "messages are cleared once read");

    /* host memory: aclrtMallocHost keeps its checks, any other address is host memory */
    void *pinned = NULL;
    EXPECT(aclrtMallocHost(&pinned, 4096), ACL_SUCCESS);
    void *heap = malloc(64);
    EXPECT(aclrtFreeHost(heap), ACL_ERROR_RT_MEMORY_FREE);
    free(heap);
    EXPECT(aclrtFreeHost(pinned), ACL_SUCCESS);
    EXPECT(aclrtFreeHost(pinned), ACL_ERROR_RT_MEMORY_FREE);
    EXPECT(aclrtMemcpy(host, sizeof host, pinned, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
    msg = aclGetRecentErrMsg();
    EXPECT_TRUE(msg != NULL && strstr(msg, "use after free") != NULL, "a freed aclrtMallocHost buffer");

    /* streams, events, callbacks */
    aclrtStream stream = NULL;
    EXPECT(aclrtCreateStream(&stream), ACL_SUCCESS);
    EXPECT(aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_BLOCK, stream), ACL_ERROR_INVALID_PARAM);
    aclrtEvent start = NULL, end = NULL;
    EXPECT(aclrtCreateEvent(&start), ACL_SUCCESS);
    EXPECT(aclrtCreateEvent(&end), ACL_SUCCESS);
    float ms = 0.0f;
    EXPECT(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    EXPECT(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    EXPECT(aclrtDestroyEvent(start), ACL_SUCCESS);
    EXPECT(aclrtDestroyEvent(end), ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(stream), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM); /* the default stream */

    /* tensor descriptions and data buffers */
    int64_t dims[2] = {2, 3};
    aclTensorDesc *desc = aclCreateTensorDesc(ACL_FLOAT16, 2, dims, ACL_FORMAT_ND);
    EXPECT_TRUE(desc != NULL, "aclCreateTensorDesc");
    EXPECT_TRUE(aclGetTensorDescSize(desc) == 12, "2x3 float16 is 12 B");
    int64_t dim = 0;
    EXPECT(aclGetTensorDescDimV2(desc, 5, &dim), ACL_ERROR_INVALID_PARAM);
    aclDestroyTensorDesc(desc);
    EXPECT_TRUE(aclGetTensorDescType(desc) == ACL_DT_UNDEFINED, "a destroyed description has no type");
    EXPECT_TRUE(aclCreateTensorDesc(ACL_FLOAT, 1, NULL, ACL_FORMAT_ND) == NULL, "dims NULL is refused");
    EXPECT(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();

    /* teardown */
    EXPECT(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT(aclFinalize(), ACL_SUCCESS);
    EXPECT(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    printf("%d checks, %d failed\n", g_checks, g_failures);
    printf(g_failures == 0 ? "PASS\n" : "FAIL\n");
    return g_failures == 0 ? 0 : 1;
}
