"""The host side of the cube rows in a CPU-debug host program: the host tiling's errors (printed, -1,
nothing else changes) and the samples' memcpy_s (securec's return codes)."""

from __future__ import annotations

from pathlib import Path

from ascendc_support import run_program

HOST = r"""
#include <cstdio>
#include "tikicpulib.h"
#include "tiling/tiling_api.h"
int main()
{
    using namespace matmul_tiling;
    MatmulApiTiling api;  /* no types: GetTiling has nothing to tile */
    optiling::TCubeTiling t;
    t.set_baseM(7);
    std::printf("get %lld base %d\n", (long long)api.GetTiling(t), t.get_baseM());
    std::printf("size %zu\n", t.GetDataSize());
    char src[8] = "abcdefg", dst[4] = {1, 1, 1, 1};
    const int too_long = memcpy_s(dst, 4, src, 8);
    const int zeroed = dst[0];
    const int null_src = memcpy_s(dst, 4, nullptr, 2);
    const int overlap = memcpy_s(src, 8, src + 2, 4);
    const int cleared = src[0];
    const int ok = memcpy_s(dst, 4, "xy", 2);
    std::printf("memcpy_s %d %d %d %d %d %d %c\n", too_long, zeroed, null_src, overlap, cleared, ok, dst[1]);
    std::fflush(stdout);
    api.SetTraverse(static_cast<MatrixTraverse>(9));  /* not a MatrixTraverse: the bridge says so */
    return 0;
}
"""


def test_host_tiling_errors_and_memcpy_s(host_program, tmp_path: Path) -> None:
    src = tmp_path / "host_cube.cpp"
    src.write_text(HOST)
    done = run_program(host_program([src], "host_cube"), env={"ACLSIM_CHIP": "tiny"})
    out = done.stdout.splitlines()
    assert out[0] == "get -1 base 7"  # a failed GetTiling leaves the host's tiling data as it was
    assert "GetTiling" in done.stderr or "MatmulApi Tiling" in done.stderr
    assert out[1] == "size 192"  # CANN's 48 words
    assert out[2] == "memcpy_s 162 0 22 182 0 0 y"
    # a value no enum member has stops the host program, with the line and the reason
    assert done.returncode != 0
    assert "host_cube.cpp:" in done.stderr and "SetTraverse failed" in done.stderr
    assert "MatrixTraverse" in done.stderr
