/*
 * acl_dvpp.h - the memory calls of the media-processing (DVPP) module, for aclsim.
 * Written for aclsim from the AscendCL documentation.  aclsim models DVPP memory only
 * (device memory for media processing); the image and video calls are not provided.
 */
#ifndef ACLSIM_ACL_DVPP_H_
#define ACLSIM_ACL_DVPP_H_

#include "../acl.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclError acldvppMalloc(void **devPtr, size_t size);
ACL_FUNC_VISIBILITY aclError acldvppFree(void *devPtr);

#ifdef __cplusplus
}
#endif

#endif /* ACLSIM_ACL_DVPP_H_ */
