/*
 * aclnn/aclnn_base.h - aclnn's status codes, aclnnInit / aclnnFinalize, and what every
 * aclnnop/aclnn_<op>.h needs, for aclsim.
 *
 * Written for aclsim from the aclnn documentation (names and values as documented); see
 * docs/capi.md.  The status codes are the values of aclsim.errors.
 */
#ifndef ACLSIM_ACLNN_ACLNN_BASE_H_
#define ACLSIM_ACLNN_ACLNN_BASE_H_

#include "acl/acl_rt.h"
#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif

/* aclnnStatus values */
#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_RUNTIME_ERROR 361001
#define ACLNN_ERR_INNER 561000
#define ACLNN_ERR_INNER_INFERSHAPE_ERROR 561001
#define ACLNN_ERR_INNER_TILING_ERROR 561002
#define ACLNN_ERR_INNER_FIND_KERNEL_ERROR 561003
#define ACLNN_ERR_INNER_CREATE_EXECUTOR 561101
#define ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR 561102
#define ACLNN_ERR_INNER_NULLPTR 561103

ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char *configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* ACLSIM_ACLNN_ACLNN_BASE_H_ */
