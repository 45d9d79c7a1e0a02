/* aclsim: Ascend C's high-level Matmul under its older header name (see lib/matmul_intf.h). */
#ifndef ACLSIM_LIB_MATRIX_MATMUL_MATMUL_H
#define ACLSIM_LIB_MATRIX_MATMUL_MATMUL_H
#include "kernel_operator.h"
#endif
