/*
 * aclnnop/aclnn_matmul.h - aclnn Matmul for aclsim: phase one (GetWorkspaceSize) and phase two.
 * GENERATED from aclsim/capi/aclnn_table.txt by `python -m aclsim.capi.aclnn_table --write`:
 * edit the table, not this file.  Statuses and semantics: docs/aclnn.md, docs/capi.md.
 */
#ifndef ACLSIM_ACLNNOP_ACLNN_MATMUL_H_
#define ACLSIM_ACLNNOP_ACLNN_MATMUL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out, int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMatmul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLSIM_ACLNNOP_ACLNN_MATMUL_H_ */
