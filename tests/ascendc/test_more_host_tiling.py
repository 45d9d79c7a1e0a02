"""The host-side tmp-size functions of the high-level APIs from a C++ host program (ge::Shape, two
output arguments each) give what the Python functions give."""

from __future__ import annotations

from pathlib import Path

from ascendc_support import run_program

import aclsim.kernel as asc


def test_host_tmp_sizes_match_python(host_program) -> None:
    exe = host_program([Path(__file__).with_name("more_host_tiling.cpp")], "more_host_tiling")
    done = run_program(exe, env={"ACLSIM_CHIP": "tiny"})
    assert done.returncode == 0, done.stderr
    got = {line.split()[0]: [int(v) for v in line.split()[1:]] for line in done.stdout.splitlines()}
    shape = [4, 64]
    assert got["sin"] == [*asc.get_sin_max_min_tmp_size(shape, 4, False),
                          *asc.get_sin_tmp_buffer_factor_size(2)]
    assert got["erf"] == list(asc.get_erf_max_min_tmp_size(shape, 2, False))
    assert got["power"] == [*asc.get_power_max_min_tmp_size(shape, [1], False, 4, False),
                            *asc.get_power_tmp_buffer_factor_size(True, False, False, 4)]
    assert got["layernorm"] == list(asc.get_layer_norm_max_min_tmp_size([2, 4, 32], 4, False))
    assert got["softmax"] == [asc.get_soft_max_max_tmp_size(shape, 4, False),
                              asc.get_soft_max_min_tmp_size(shape, 4, False)]
    assert all(v > 0 for v in got["sin"][:3])
