/* aclsim: ListTensorDesc and TensorDesc under the include name of Ascend C's tensor-list interface
   (they are in kernel_operator.h: the rows of api_cxx.txt). */
#ifndef ACLSIM_KERNEL_OPERATOR_LIST_TENSOR_INTF_H
#define ACLSIM_KERNEL_OPERATOR_LIST_TENSOR_INTF_H
#include "kernel_operator.h"
#endif
