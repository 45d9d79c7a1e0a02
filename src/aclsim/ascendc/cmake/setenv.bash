# aclsim's CPU-debug toolkit tree (`aclsim ascendc --cmake-prefix`): what the Ascend samples'
# run.sh expects from `source <toolkit>/bin/setenv.bash`.  It only prepends this tree's
# directories: the ccec stand-in to PATH (for the samples whose CMake enables the CCE language),
# lib64 to LD_LIBRARY_PATH, and, where CMAKE_PREFIX_PATH is already set (the samples then use it
# instead of their own default), the tikicpulib package to it.
_aclsim_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ASCEND_TOOLKIT_HOME="${_aclsim_root}"
export ASCEND_HOME_PATH="${_aclsim_root}"
export PATH="${_aclsim_root}/compiler/ccec_compiler/bin${PATH:+:${PATH}}"
export LD_LIBRARY_PATH="${_aclsim_root}/lib64${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}"
if [ -n "${CMAKE_PREFIX_PATH:-}" ]; then
    export CMAKE_PREFIX_PATH="${_aclsim_root}/tools/tikicpulib/lib/cmake:${CMAKE_PREFIX_PATH}"
fi
unset _aclsim_root
