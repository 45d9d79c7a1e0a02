/* aclsim: the host tiling of the high-level Matmul under its older include name (tiling/tiling_api.h). */
#include "tiling/tiling_api.h"
