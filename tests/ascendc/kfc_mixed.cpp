/* The Matmul + LeakyRelu kernel of examples/cpp/matmul_leakyrelu.cpp declared a mixed kernel
   (one AIC serving two AIVs), for the twin test of aclsim.kernel.kfc (test_cube_twins.py). */
#include "../../examples/cpp/matmul_leakyrelu.cpp"

extern "C" __global__ __aicore__ void matmul_leakyrelu_mix(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    matmul_leakyrelu(a, b, bias, c, workspace, tiling);
}
