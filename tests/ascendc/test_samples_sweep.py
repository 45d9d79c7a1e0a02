"""The samples sweep (api_cxx.txt's "## Samples sweep", aclsim_ascendc_samples.h): the older spellings
of the public kernel-invocation samples (namespace tik2, ParamOffset, block_idx, IsSameType, the buffer
qualifiers), ListTensorDesc's decoding constructor and kernel_operator_list_tensor_intf.h, run from
our own C++ kernels (samples_sweep.cpp) on the tiny chip and checked against NumPy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import aclsim
import aclsim.kernel as asc

SOURCE = Path(__file__).with_name("samples_sweep.cpp")
LEN = 64


@pytest.fixture
def device(cpp_kernels, request):
    kernels = cpp_kernels([SOURCE])
    aclsim.init(chip=getattr(request, "param", "tiny"))
    aclsim.set_device(0)
    made: list[object] = []

    def put(a: np.ndarray) -> object:
        d = aclsim.malloc(max(a.nbytes, 32))
        made.append(d)
        aclsim.memcpy(d, a.nbytes, a, a.nbytes, aclsim.MemcpyKind.HOST_TO_DEVICE)
        return d

    yield kernels, put
    for d in made:
        aclsim.free(d)


def _get(d: object, like: np.ndarray) -> np.ndarray:
    out = np.empty_like(like)
    aclsim.memcpy(out, out.nbytes, d, out.nbytes, aclsim.MemcpyKind.DEVICE_TO_HOST)
    return out


@pytest.mark.parametrize(("name", "dtype", "bias"), [("sweep_offsets_half", np.float16, 1.0),
                                                      ("sweep_offsets_float", np.float32, 2.0)])
def test_param_offset_block_idx_and_block_num(device, name: str, dtype: type, bias: float) -> None:
    kernels, put = device
    blocks = 4
    x = np.random.default_rng(3).uniform(-8, 8, blocks * LEN).astype(dtype)
    y = np.zeros_like(x)
    dx, dy = put(x), put(y)
    stream = aclsim.create_stream()
    launch = getattr(kernels, name)[blocks, stream](dx, dy)
    aclsim.synchronize_stream(stream)
    got = _get(dy, y)
    for b in range(blocks):
        part = slice(b * LEN, (b + 1) * LEN)
        expect = (x[part].astype(np.float32) + np.float32(dtype(bias + b * blocks))).astype(dtype)
        assert np.array_equal(got[part], expect), b
    # GetBlockIdx / GetBlockNum (ParamOffset, block_idx, block_num) record no instruction; Adds has its line
    adds = [i for i in launch.streams[0] if i.op.startswith("adds")]
    assert adds and adds[0].file.endswith("samples_sweep.cpp")


def test_list_tensor_desc_constructor_decodes(device) -> None:
    kernels, put = device
    t0 = np.arange(LEN, dtype=np.float16)
    t1 = (np.arange(LEN, dtype=np.float16) * np.float16(-0.5)).astype(np.float16)
    d0, d1 = put(t0), put(t1)
    words = asc.list_tensor_desc_words([int(d0), int(d1)], [(2, 32), (8, 8)])
    ddesc = put(words)
    y, info = np.zeros(LEN, np.float16), np.zeros(8, np.int32)
    dy, dinfo = put(y), put(info)
    stream = aclsim.create_stream()
    kernels.sweep_list_desc[1, stream](ddesc, dy, dinfo)
    aclsim.synchronize_stream(stream)
    assert np.array_equal(_get(dy, y), t1)
    assert _get(dinfo, info)[:5].tolist() == [2, 2, 8, 8, 1]


@pytest.mark.parametrize("device", ["310P"], indirect=True)
def test_older_proposal_concat_and_extract(device) -> None:
    """Concat / Extract (dst, src, repeatTimes, modeNumber): the region proposals' older names, here in a
    class of a reopened namespace tik2, as ProposalConcat / ProposalExtract."""
    kernels, put = device
    rng = np.random.default_rng(5)
    x = rng.uniform(-50, 50, 32).astype(np.float16)
    y = np.zeros(32, np.float16)
    dx, dy = put(x), put(y)
    stream = aclsim.create_stream()
    launch = kernels.sweep_proposals[1, stream](dx, dy)
    aclsim.synchronize_stream(stream)
    assert np.array_equal(_get(dy, y), np.concatenate([x[16:], x[:16]]))
    ops = [i.op for i in launch.streams[0]]
    assert ops.count("proposal_concat") == 2 and ops.count("proposal_extract") == 2


@pytest.mark.parametrize(("soc", "chip"), [("Ascend310P1", "310P"), ("Ascend910B2", "910B2")])
def test_platform_of_a_host_program(host_program, soc: str, chip: str) -> None:
    """PlatformAscendCManager::GetInstance(soc): the figures of the preset the SoC names (the chip aclsim
    starts on), and MultiCoreMatmulTiling(platform) tiles for that chip as the Python tiling does."""
    from ascendc_support import run_program

    from aclsim.arch.presets import get_chip
    from aclsim.kernel.multicore import sys_workspace_size

    exe = host_program([Path(__file__).with_name("samples_platform.cpp")], "samples_platform")
    proc = run_program(exe, soc, env={"ACLSIM_QUIET": "1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    got = {k: int(v) for k, v in (line.split() for line in proc.stdout.splitlines())}
    spec = get_chip(chip)
    assert got["core"] == got["aiv"] == spec.vector_cores and got["aic"] == spec.cube_cores
    assert got["sys_ws"] == sys_workspace_size(spec)
    assert got["soc_version"] == (2 if spec.coupled else 1)  # SocVersion::ASCEND310P / ASCEND910B
    assert (got["ub"], got["l1"], got["l0c"]) == (spec.ub_bytes, spec.l1_bytes, spec.l0c_bytes)
    assert got["same"] == 1
    api = asc.MultiCoreMatmulTiling(spec)
    api.set_dim(2)
    api.set_a_type(asc.TPosition.GM, asc.CubeFormat.ND, asc.half, False)
    api.set_b_type(asc.TPosition.GM, asc.CubeFormat.ND, asc.half, False)
    api.set_c_type(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32)
    api.set_org_shape(128, 256, 64)
    api.set_shape(128, 256, 64)
    api.set_bias(False)
    api.set_buffer_space(-1, -1, -1)
    tiling = asc.TCubeTiling()
    assert api.get_tiling(tiling) == 0
    for name in ("used_core_num", "single_core_m", "single_core_n", "base_m", "base_n"):
        assert got[name] == int(getattr(tiling, name)), name
