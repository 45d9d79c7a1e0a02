/* aclsim: kernel_tiling/kernel_tiling.h, the tiling structs a kernel and its host share (TCubeTiling, ...):
   in kernel_operator.h (the rows of api_cxx.txt), TCubeTiling also at global scope as CANN has it. */
#ifndef ACLSIM_KERNEL_TILING_H
#define ACLSIM_KERNEL_TILING_H
#include "kernel_operator.h"
#endif
