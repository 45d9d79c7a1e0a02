/* aclsim: Ascend C's high-level Matmul (the kernel side): Matmul, MatmulType, REGIST_MATMUL_OBJ, in
   kernel_operator.h (aclsim_ascendc_matmul.h). */
#ifndef ACLSIM_LIB_MATMUL_INTF_H
#define ACLSIM_LIB_MATMUL_INTF_H
#include "kernel_operator.h"
#endif
