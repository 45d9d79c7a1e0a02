// The defines a tikicpulib::<product type> target gives a CPU-debug program.
#include <cstdio>
#include "tikicpulib.h"
#ifndef ASCENDC_CPU_DEBUG
#error "tikicpulib::<soc> defines ASCENDC_CPU_DEBUG (the newer samples' CPU-mode switch)"
#endif
#ifndef __CCE_KT_TEST__
#error "tikicpulib::<soc> defines __CCE_KT_TEST__"
#endif

int main()
{
    std::printf("soc %s\n", ACLSIM_SOC);
    return 0;
}
