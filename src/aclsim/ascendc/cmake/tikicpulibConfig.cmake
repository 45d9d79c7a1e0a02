# aclsim's tikicpulib package: the CPU-debug mode of Ascend C kernels, run on aclsim's simulated
# AI Core (docs/ascendc_cpp.md).  `aclsim ascendc --cmake-prefix` lays it out in a tree shaped
# like a CANN toolkit, at <root>/tools/tikicpulib/lib/cmake, so that a sample's
#     find_package(tikicpulib REQUIRED)
#     target_link_libraries(prog PRIVATE tikicpulib::${SOC_VERSION} ascendcl)
# builds unchanged.  Each tikicpulib::<soc> is an INTERFACE target: the headers (kernel_operator.h,
# tikicpulib.h, acl/acl.h), the CPU-debug defines (__CCE_KT_TEST__ and the newer samples' ASCENDC_CPU_DEBUG,
# ACLSIM_SOC="<soc>": the chip
# preset aclsim runs on, ACLSIM_CHIP overrides it), and the two libraries (libaclsim_ascendc.so,
# libascendcl.so) with an rpath to them.  <root>/lib64 is a link directory of every target: the
# other names CANN programs link (c_sec, tiling_api, register, platform, ascendalog, graph) are there.

get_filename_component(_aclsim_root "${CMAKE_CURRENT_LIST_DIR}/../../../.." ABSOLUTE)
set(tikicpulib_ROOT_DIR "${_aclsim_root}")

# the SoC names of the samples' run.sh (SOC_VERSION and its VersionMap) and of aclsim's chip presets
set(TIKICPULIB_SOC_VERSIONS
    Ascend910A Ascend910B Ascend910ProA Ascend910ProB Ascend910PremiumA
    Ascend910B1 Ascend910B2 Ascend910B3 Ascend910B4
    Ascend310P Ascend310P1 Ascend310P3 Ascend310B1 Ascend310B2 Ascend310B3 Ascend310B4)

# the older samples' product types (their run.sh's VersionMap keys, lower case) -> the SoC each names
set(TIKICPULIB_PRODUCT_TYPES ascend910=Ascend910A ascend310p=Ascend310P1 ascend910B1=Ascend910B1)

foreach(_aclsim_entry IN LISTS TIKICPULIB_SOC_VERSIONS TIKICPULIB_PRODUCT_TYPES)
    string(REPLACE "=" ";" _aclsim_pair "${_aclsim_entry}")
    list(GET _aclsim_pair 0 _aclsim_name)
    list(GET _aclsim_pair -1 _aclsim_soc)
    if(NOT TARGET tikicpulib::${_aclsim_name})
        add_library(tikicpulib::${_aclsim_name} INTERFACE IMPORTED)
        set_target_properties(tikicpulib::${_aclsim_name} PROPERTIES
            INTERFACE_INCLUDE_DIRECTORIES "${_aclsim_root}/include"
            INTERFACE_COMPILE_DEFINITIONS "__CCE_KT_TEST__;ASCENDC_CPU_DEBUG;ACLSIM_SOC=\"${_aclsim_soc}\""
            INTERFACE_LINK_DIRECTORIES "${_aclsim_root}/lib64"
            INTERFACE_LINK_LIBRARIES
                "${_aclsim_root}/lib64/libaclsim_ascendc.so;${_aclsim_root}/lib64/libascendcl.so"
            INTERFACE_LINK_OPTIONS "-Wl,-rpath,${_aclsim_root}/lib64")
    endif()
endforeach()

set(tikicpulib_FOUND TRUE)
unset(_aclsim_soc)
unset(_aclsim_name)
unset(_aclsim_pair)
unset(_aclsim_entry)
unset(_aclsim_root)
