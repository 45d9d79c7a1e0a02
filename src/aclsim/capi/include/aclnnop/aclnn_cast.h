/*
 * aclnnop/aclnn_cast.h - aclnn Cast for aclsim: phase one (GetWorkspaceSize) and phase two.
 * GENERATED from aclsim/capi/aclnn_table.txt by `python -m aclsim.capi.aclnn_table --write`:
 * edit the table, not this file.  Statuses and semantics: docs/aclnn.md, docs/capi.md.
 */
#ifndef ACLSIM_ACLNNOP_ACLNN_CAST_H_
#define ACLSIM_ACLNNOP_ACLNN_CAST_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor *self, const aclDataType dtype, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCast(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLSIM_ACLNNOP_ACLNN_CAST_H_ */
