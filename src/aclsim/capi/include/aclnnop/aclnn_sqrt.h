/*
 * aclnnop/aclnn_sqrt.h - aclnn Sqrt, InplaceSqrt for aclsim: phase one (GetWorkspaceSize) and phase two.
 * GENERATED from aclsim/capi/aclnn_table.txt by `python -m aclsim.capi.aclnn_table --write`:
 * edit the table, not this file.  Statuses and semantics: docs/aclnn.md, docs/capi.md.
 */
#ifndef ACLSIM_ACLNNOP_ACLNN_SQRT_H_
#define ACLSIM_ACLNNOP_ACLNN_SQRT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSqrtGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSqrt(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceSqrtGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceSqrt(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLSIM_ACLNNOP_ACLNN_SQRT_H_ */
