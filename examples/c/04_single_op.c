/* The single-op API from C: tensor descriptions and data buffers, an op handle made once and
 * executed ("Muls" with the float attribute "value"), aclopExecuteV2 ("Add", then "Cast" to
 * float16 with the data-type attribute "dst_type"), results checked on the host.
 *
 *   cc 04_single_op.c $(aclsim capi --cflags --libs) -o single_op && ./single_op
 */
#include <math.h>
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

#define ROWS 4
#define COLS 16
#define N (ROWS * COLS)

typedef struct {
    aclTensorDesc *desc;
    void *dev;
    aclDataBuffer *buf;
    size_t size;
} Tensor;

static int make(Tensor *t, aclDataType type)
{
    int64_t dims[2] = {ROWS, COLS};
    t->desc = aclCreateTensorDesc(type, 2, dims, ACL_FORMAT_ND);
    t->size = aclGetTensorDescSize(t->desc);
    if (t->desc == NULL || aclrtMalloc(&t->dev, t->size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
    t->buf = aclCreateDataBuffer(t->dev, t->size);
    return t->buf == NULL;
}

static void release(Tensor *t)
{
    aclDestroyDataBuffer(t->buf);
    aclrtFree(t->dev);
    aclDestroyTensorDesc(t->desc);
}

static float half_to_float(uint16_t h)
{
    int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    float v = exp == 0 ? ldexpf((float)mant, -24) : ldexpf((float)(mant | 0x400), exp - 25);
    return (h & 0x8000) ? -v : v;
}

int main(void)
{
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK(aclrtCreateStream(&stream));
    Tensor x, y, z, h;
    if (make(&x, ACL_FLOAT) || make(&y, ACL_FLOAT) || make(&z, ACL_FLOAT) || make(&h, ACL_FLOAT16)) {
        printf("FAIL tensors: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    float host[N];
    for (int i = 0; i < N; ++i) host[i] = (float)i - 10.0f;
    CHECK(aclrtMemcpy(x.dev, x.size, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE));

    /* y = 0.5 * x through a handle */
    aclopAttr *muls = aclopCreateAttr();
    CHECK(aclopSetAttrFloat(muls, "value", 0.5f));
    aclopHandle *handle = NULL;
    CHECK(aclopCreateHandle("Muls", 1, (const aclTensorDesc *const *)&x.desc, 1,
                            (const aclTensorDesc *const *)&y.desc, muls, &handle));
    CHECK(aclopExecWithHandle(handle, 1, (const aclDataBuffer *const *)&x.buf, 1, &y.buf, stream));

    /* z = x + y, then h = (float16)z */
    aclTensorDesc *addIn[2] = {x.desc, y.desc};
    aclDataBuffer *addBufs[2] = {x.buf, y.buf};
    CHECK(aclopExecuteV2("Add", 2, addIn, addBufs, 1, &z.desc, &z.buf, NULL, stream));
    aclopAttr *cast = aclopCreateAttr();
    CHECK(aclopSetAttrDataType(cast, "dst_type", ACL_FLOAT16));
    CHECK(aclopExecuteV2("Cast", 1, &z.desc, &z.buf, 1, &h.desc, &h.buf, cast, stream));
    aclError unknown = aclopExecuteV2("NoSuchOp", 1, &x.desc, &x.buf, 1, &y.desc, &y.buf, NULL, stream);
    const char *msg = aclGetRecentErrMsg();
    CHECK(aclrtSynchronizeStream(stream));

    float out[N];
    uint16_t halves[N];
    CHECK(aclrtMemcpy(out, sizeof out, z.dev, z.size, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(aclrtMemcpy(halves, sizeof halves, h.dev, h.size, ACL_MEMCPY_DEVICE_TO_HOST));
    int failures = 0;
    for (int i = 0; i < N; ++i) {
        float expected = 1.5f * host[i];
        if (out[i] != expected || half_to_float(halves[i]) != expected) {
            if (failures++ < 3) printf("element %d: %g / %g, expected %g\n", i, out[i], half_to_float(halves[i]),
                                       expected);
        }
    }
    if (unknown != ACL_ERROR_OP_NOT_FOUND || msg == NULL || strstr(msg, "aclopExecuteV2") == NULL) {
        printf("an unknown op type: %d (%s)\n", unknown, msg ? msg : "no message");
        ++failures;
    }

    aclopDestroyHandle(handle);
    aclopDestroyAttr(muls);
    aclopDestroyAttr(cast);
    release(&x);
    release(&y);
    release(&z);
    release(&h);
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("Muls (handle), Add, Cast on %d x %d: %d mismatches\n", ROWS, COLS, failures);
    printf(failures == 0 ? "PASS\n" : "FAIL\n");
    return failures == 0 ? 0 : 1;
}
