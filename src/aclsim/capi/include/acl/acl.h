/*
 * acl.h - AscendCL for aclsim: initialisation, versions, and the runtime (acl_rt.h).
 * Written for aclsim from the AscendCL documentation; see docs/capi.md.
 */
#ifndef ACLSIM_ACL_H_
#define ACLSIM_ACL_H_

#include "acl_rt.h"
#include "acl_op.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the version of the AscendCL interface these headers describe */
#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 0
#define ACL_PATCH_VERSION 0

ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion);

#ifdef __cplusplus
}
#endif

#endif /* ACLSIM_ACL_H_ */
