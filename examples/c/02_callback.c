/* Host callbacks on a stream (aclrtLaunchCallback with aclrtSubscribeReport): a report
 * thread runs aclrtProcessReport in a loop; callbacks queued between copies run there, in
 * stream order, with their userData; a blocking callback holds the stream, so the copy
 * queued after it sees what the callback wrote.
 *
 *   cc 02_callback.c $(aclsim capi --cflags --libs) -pthread -o callback && ./callback
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

#define CHECK(call)                                                                       \
    do {                                                                                  \
        aclError ret_ = (call);                                                           \
        if (ret_ != ACL_SUCCESS) {                                                        \
            const char *msg_ = aclGetRecentErrMsg();                                      \
            printf("FAIL %s -> %d\n%s\n", #call, ret_, msg_ ? msg_ : "");                 \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

#define N 256
static atomic_int g_stop;
static atomic_int g_calls;
static int g_order[8];
static pthread_t g_report_thread;
static int g_wrong_thread;
static int g_host[N];

static void *report_loop(void *arg)
{
    (void)arg;
    while (!atomic_load(&g_stop)) {
        aclrtProcessReport(50); /* ACL_ERROR_RT_REPORT_TIMEOUT when nothing came: keep looping */
    }
    return NULL;
}

static void on_stream(void *user_data)
{
    int index = *(int *)user_data;
    if (!pthread_equal(pthread_self(), g_report_thread)) g_wrong_thread = 1;
    g_order[atomic_fetch_add(&g_calls, 1)] = index;
}

static void fill_host(void *user_data)
{
    int value = *(int *)user_data;
    for (int i = 0; i < N; ++i) g_host[i] = value + i;
    on_stream(user_data);
}

int main(void)
{
    static int ids[4] = {0, 1, 2, 3};
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK(aclrtCreateStream(&stream));
    void *dev;
    CHECK(aclrtMalloc(&dev, sizeof g_host, ACL_MEM_MALLOC_HUGE_FIRST));
    if (pthread_create(&g_report_thread, NULL, report_loop, NULL) != 0) return 1;
    CHECK(aclrtSubscribeReport((uint64_t)g_report_thread, stream));

    CHECK(aclrtLaunchCallback(on_stream, &ids[0], ACL_CALLBACK_BLOCK, stream));
    CHECK(aclrtLaunchCallback(fill_host, &ids[1], ACL_CALLBACK_BLOCK, stream));
    /* queued after a blocking callback: copies what fill_host wrote */
    CHECK(aclrtMemcpyAsync(dev, sizeof g_host, g_host, sizeof g_host, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK(aclrtLaunchCallback(on_stream, &ids[2], ACL_CALLBACK_NO_BLOCK, stream));
    CHECK(aclrtLaunchCallback(on_stream, &ids[3], ACL_CALLBACK_BLOCK, stream));
    CHECK(aclrtSynchronizeStream(stream));

    int back[N];
    CHECK(aclrtMemcpy(back, sizeof back, dev, sizeof g_host, ACL_MEMCPY_DEVICE_TO_HOST));
    int failures = 0;
    for (int i = 0; i < N; ++i) failures += back[i] != 1 + i;
    if (failures) printf("the copy after the blocking callback did not see its data\n");
    if (atomic_load(&g_calls) != 4) {
        printf("%d callbacks ran, 4 expected\n", atomic_load(&g_calls));
        ++failures;
    }
    for (int i = 0; i < 4; ++i) {
        if (g_order[i] != i) {
            printf("callback %d ran at position %d\n", g_order[i], i);
            ++failures;
        }
    }
    if (g_wrong_thread) {
        printf("a callback ran outside the subscribed thread\n");
        ++failures;
    }
    CHECK(aclrtUnSubscribeReport((uint64_t)g_report_thread, stream));
    atomic_store(&g_stop, 1);
    pthread_join(g_report_thread, NULL);
    CHECK(aclrtFree(dev));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("%d callbacks ran in stream order in the report thread\n", atomic_load(&g_calls));
    printf(failures == 0 ? "PASS\n" : "FAIL\n");
    return failures == 0 ? 0 : 1;
}
