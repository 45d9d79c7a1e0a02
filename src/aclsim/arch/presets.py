"""Chip presets, each number with its public source.

Sources (abbreviations as in ``design/reference/ascend-api.md``):

- [ASC-2201] asc-devkit ``docs/zh/guide/.../架构规格/NPU架构版本2201.md``: AIC/AIV split, per-core
  memory sizes and alignments, 8 event IDs per HardEvent, ``ASC_UB_SIZE = 192*1024 - 256``.
- [ASC-2002] asc-devkit ``include/utils/base/sys_constants.h`` (arch 2002, the 310P): ``ASC_UB_SIZE``.
- [ASC-SIMD] asc-devkit ``SIMD计算说明/高维切分.md``: 256 B per vector repeat, repeatTime <= 255.
- [ATC] hiascend.com ATC ``--aicore_num`` page: "ai_core_cnt=24, cube_core_cnt=24,
  vector_core_cnt=48" (split) and "ai_core_cnt=10, vector_core_cnt=8" (coupled).
- [INI] third-party dumps of CANN platform ini files (UNVERIFIED): Ascend910B2 cube_freq=1800 MHz,
  l2_size 192 MiB; Ascend310P3 ub_size 256 KiB, l0_c 256 KiB.
- [PRESS] press and vendor pages (UNVERIFIED): 910B 64 GB HBM2e; Atlas 300I Duo (2x 310P)
  96 GB LPDDR4X at 408 GB/s, i.e. 48 GB and 204 GB/s per chip.
- [OPPROF] msOpProf source (Ascend/msopprof @d6c29dfa): ``sim_defs.h`` (profiler clock per SoC),
  ``device_defs.h`` (single-core maximum bandwidth per data path and SoC, GiB/s).
- [ATT] CANN GE autofuse cost model v1 (hicann/ge @74573e24, ``perf_param_v1.cpp``): per-copy
  fixed cycles of GM loads (27.01) and stores (12.09).
- [ADD] asc-devkit "Add performance tuning" example (8192x8192 fp16 add on Atlas A2, 1.85 GHz,
  48 AIV): case 1 (one core, 8 KiB copies, back to back) gives the device-memory and L2
  latencies below (the only figures fitted to a measurement; see docs/simulator.md).
- [HIASC-L2] hiascend.com "Setting a Proper L2 CacheMode" (atlas_ascendc_best_practices_10_00014):
  data beyond the L2's capacity replaces old lines; a replaced line is written back to GM first.
- [MM] asc-devkit matmul tuning examples: HBM "about 1.8TB/s", L2 "about 5TB/s", 192 MB L2.
- [DVM] a runtime source's per-SoC table (UNVERIFIED; repository not identified): AIC counts,
  L2 sizes of 910B3/B4; [B4INI] a test embedding an Ascend910B4.ini excerpt (UNVERIFIED).
- Figures marked ESTIMATE have no public source; they are stated so the model is explicit.
  ``design/reference/calibration.md`` holds every figure above with its address.
"""

from __future__ import annotations

from aclsim.arch.spec import ChipSpec, GiB, KiB, MiB

#: Sources of the core-model figures that every preset shares (defaults of ``ChipSpec``).
CORE_MODEL_SOURCES = {
    "mte2_bytes_per_cycle": "[INI] ddr_rate=32 B/cycle/core (UNVERIFIED); HBM bandwidth is shared on top",
    "mte3_bytes_per_cycle": "ESTIMATE: same as MTE2",
    "mte1_l0a/l0b_bytes_per_cycle": "[ASC-2201] L1->L0A 256 B/cycle, L1->L0B 128 B/cycle",
    "fixpipe_bytes_per_cycle": "ESTIMATE: 64 B/cycle",
    "gm_latency_cycles, local_copy_latency_cycles": "ESTIMATE: 200 / 20 cycles to first byte",
    "vector_cycles_per_repeat": "ESTIMATE: one 256 B repeat per cycle (Hot Chips 2019: 2048-bit vector unit)",
    "vector_issue_cycles, cube_issue_cycles": "ESTIMATE: 8 cycles",
    "cube_cycles_per_fractal": "[ASC] 16x16x16 fp16 fractal per cycle = 4096 MAC/cycle",
    "scalar_cycles_per_op, flag_latency_cycles": "ESTIMATE: 1 and 4 cycles",
    "cross_core_flag_latency_cycles": "ESTIMATE: 100 cycles from the last CrossCoreSetFlag of a round to the "
    "waiting core's next issue (the flags pass through the AI Core's scheduling module; no public figure)",
}

def _per_cycle(gib_per_s: float, clock_hz: float) -> float:
    """A path rate from msOpProf's table (GiB/s at the SoC's clock) in bytes per cycle."""
    return gib_per_s * GiB / clock_hz


#: msOpProf's single-core maximum bandwidth per data path (GiB/s): GM->UB, UB->GM, GM->L1,
#: L1->L0A, L1->L0B, L0C->GM.  910B3 uses the 910B2 table ([OPPROF] device_defs.h).
_A2_PATHS = {
    "910B1": (220.06, 186.8, 264.0, 437.5, 210.5, 209.32),
    "910B2": (214.11, 181.75, 256.86, 425.68, 204.81, 203.66),
    "910B3": (214.11, 181.75, 256.86, 425.68, 204.81, 203.66),
    "910B4": (195.27, 176.75, 222.0, 368.2, 173.81, 190.7),
}

#: The vendor's fitted vector costs on arch 2201 ([ATT] kParamV1Info): ``cycles = k * elements + b``
#: per API, by aclsim's instruction name: ``(k fp16, k fp32, b fp16, b fp32)``.
_ATT_VECTOR = {
    "add": (0.0103, 0.0206, 22.2, 23.2), "adds": (0.0071, 0.0141, 22.1, 22.1),
    "mul": (0.0110, 0.0206, 23.1, 23.2), "muls": (0.0071, 0.0142, 23.1, 23.1),
    "sub": (0.0107, 0.0213, 22.1, 22.1), "max": (0.0111, 0.0215, 20.1, 20.1),
    "min": (0.0111, 0.0215, 20.1, 20.1), "relu": (0.0077, 0.0154, 20.0, 20.0),
    "abs": (0.0077, 0.0147, 20.0, 20.0), "exp": (0.0311, 0.0307, 28.0, 28.0),
    "sqrt": (0.0312, 0.0313, 29.0, 29.0), "rsqrt": (0.0071, 0.0143, 21.1, 21.1),
    "reciprocal": (0.0078, 0.0146, 21.0, 21.0), "div": (0.0460, 0.0454, 29.1, 29.1),
    "duplicate": (0.0078, 0.0156, 17.0, 17.0), "data_copy": (0.0078, 0.0157, 13.0, 13.0),
    "copy": (0.0078, 0.0157, 13.0, 13.0), "select": (0.0118, 0.0229, 46.0, 44.0),
    "whole_reduce_sum": (0.0547, 0.1094, 35.0, 32.0), "sigmoid": (0.1011, 0.1256, 116.0, 116.0),
    "tanh": (0.1976, 0.1570, 182.0, 154.0), "erf": (0.6996, 0.6038, 478.0, 458.0),
    # Compares (CompareScalar's vcmpvs): the mean of [ATT]'s CompareScalarEQ/GE/GT/LE/NE/LT rows
    "compares": (0.0084, 0.0161, 21.92, 22.31),
    "compare_scalar": (0.0084, 0.0161, 21.92, 22.31),  # the same instruction (CompareScalar)
    "maxs": (0.0071, 0.0141, 20.09, 20.09), "mins": (0.0071, 0.0142, 20.09, 20.09),
    "and": (0.0107, 0.0112, 17.14, 17.56),
    # Or: [ATT] fits uint16 only (aclsim's And/Or take 16-bit types only; the 32-bit slot is unused)
    "or": (0.0132, 0.0132, 12.40, 12.40),
    "brcb": (0.0074, 0.0146, 13.06, 13.07),
    "gather": (0.1873, 0.1875, 17.02, 15.0), "gather_mask": (0.0156, 0.0313, 14.02, 14.02),
    "whole_reduce_max": (0.0547, 0.1094, 21.0, 20.0), "whole_reduce_min": (0.0547, 0.1094, 21.0, 20.0),
    "block_reduce_max": (0.0547, 0.0198, 18.0, 16.74), "block_reduce_min": (0.0547, 0.0198, 18.0, 16.74),
    "pair_reduce_sum": (0.0547, 0.1094, 37.16, 36.96),
}


def _vector_costs() -> tuple[tuple[str, float, float, float, float], ...]:
    """``(op, head fp16, cycles per repeat fp16, head fp32, cycles per repeat fp32)``: the heads
    are [ATT]'s ``b``; the cycles per repeat are [ATT]'s ``k`` times the elements of a 256 B
    repeat (128 fp16, 64 fp32), relative to fp16 Add's, which is anchored on its documented one
    repeat per cycle ([ADD]: "128 half data per cycle"), and never below one (the unit's 256 B
    datapath).  Bank conflicts multiply the repeats' cycles (``ub_bank_groups``)."""
    add = _ATT_VECTOR["add"][0] * 128
    return tuple((op, b16, max(1.0, round(k16 * 128 / add, 3)), b32, max(1.0, round(k32 * 64 / add, 3)))
                 for op, (k16, k32, b16, b32) in _ATT_VECTOR.items())


#: Sources of the core-model figures of the Atlas A2 presets.
A2_MODEL_SOURCES = {
    "mte2/mte3/mte2_l1/mte1_l0a/mte1_l0b/fixpipe_bytes_per_cycle": "[OPPROF] device_defs.h single-core "
    "maximum bandwidth (GiB/s) of GM->UB, UB->GM, GM->L1, L1->L0A, L1->L0B, L0C->GM at the SoC's clock",
    "mte2_copy_cycles, mte3_copy_cycles": "[ATT] fixed cycles of a GM load (27.01) and store (12.09)",
    "fixpipe_copy_cycles": "ESTIMATE: as a store (12.09)",
    "gm_latency_cycles": "fitted to [ADD] case 1: 2 x (27 + 8192 / 127.7) + latency = 701 cycles of MTE2 "
    "per loop (6208.762 us / 16384 at 1.85 GHz) -> 519 cycles",
    "l2_latency_cycles": "fitted to [ADD] case 1: 12.09 + 8192 / 108.4 + latency = 295 cycles of MTE3 per "
    "store (2613.205 us / 16384 at 1.85 GHz) -> 207 cycles (a store lands in L2)",
    "l2_bandwidth": "[MM] 'peak bandwidth of L2Cache is about 5TB/s'",
    "l2_line_bytes": "[DVM] kC220L2CacheLineBytes = 512 (UNVERIFIED)",
    "l2_writes_first": "no public description of the replacement policy ([HIASC-L2]: a replaced dirty line "
    "is written back to GM first, taking GM bandwidth). ESTIMATE chosen on [ADD]: z is written back in full "
    "during cases 3 and 4 (384 MiB through HBM in 261.5 / 257.6 us of aiv_time) yet stays in L2 in case 5 "
    "(its reads bypass L2: 256 MiB in 185 us); written lines leaving first gives both, plain LRU keeps "
    "64 MiB of z dirty (cases 3, 4: -20 %)",
    "dram_bandwidth": "third-party analyses: 1.6 TB/s (UNVERIFIED; [MM] says about 1.8TB/s)",
    "task_head_s": "derived from [ADD]: Task Duration - aiv_time with 1 block is 0.46-0.47 us (cases 0, 1)",
    "task_per_block_s": "derived from [ADD]: blocks are dispatched one after another, this far apart; "
    "Task Duration - aiv_time with 48 blocks is 2.5-9.4 us, mean 6.3 us (cases 2-6) = 0.46 us + 47 x "
    "0.124 us",
    "scalar_issue_cycles": "derived from [ADD] case 1: 231.166 us of scalar time at 1.85 GHz over "
    "16384 loops of 12 recorded instructions -> 2.2 cycles of control code per instruction",
    "vector_api_costs": "[ATT] fitted k and b per API and dtype (fp16, fp32); cycles per repeat = k x "
    "elements per repeat / fp16 Add's (at least 1), Add = 1 repeat per cycle ([ADD] '128 half data per "
    "cycle')",
    "vector_issue_cycles, vector_cycles_per_repeat": "ops not in [ATT]'s table: 22 cycles (the head of "
    "[ATT]'s binary ops) + 1 cycle per repeat ([ADD])",
    "ub_bank_groups, ub_bank_row_bytes, ub_bank_slice_bytes": "[ASC-2201 bank page] 48 banks of 128 rows "
    "x 32 B in 16 groups of 3; the page's address examples (0x10000 bank16, 0x10020 bank17, 0x20020 "
    "bank33) give rows interleaved over the 16 groups within 64 KiB slices",
}


#: The shared core-model sources the A2 presets keep (the others are replaced by A2_MODEL_SOURCES).
_A2_KEEPS = ("cube_cycles_per_fractal", "scalar_cycles_per_op, flag_latency_cycles",
             "cross_core_flag_latency_cycles")


def _atlas_a2(name: str, clock_hz: float, cube_cores: int, l2_bytes: int, dram_bytes: int,
              sources: dict[str, str]) -> ChipSpec:
    """An Atlas A2 (arch 2201) SoC: split AIC/AIV cores (1:2), the 2201 memories, msOpProf's
    per-core data paths for ``name``."""
    ub, ubg, l1, l0a, l0b, fix = (_per_cycle(x, clock_hz) for x in _A2_PATHS[name])
    return ChipSpec(
        name=name,
        arch_version="2201",
        description=f"Ascend {name} (Atlas A2): {cube_cores} AIC + {2 * cube_cores} AIV, "
        f"{dram_bytes // GiB} GiB HBM, {l2_bytes // MiB} MiB L2",
        cube_cores=cube_cores,
        vector_cores=2 * cube_cores,
        coupled=False,
        clock_hz=clock_hz,
        ub_bytes=192 * KiB,
        l1_bytes=512 * KiB,
        l0a_bytes=64 * KiB,
        l0b_bytes=64 * KiB,
        l0c_bytes=128 * KiB,
        ub_reserved_bytes=256,
        events_per_pipe_pair=8,
        que_buffers_per_position=8,
        dram_kind="HBM",
        dram_bytes=dram_bytes,
        dram_bandwidth=1.6e12,
        l2_bytes=l2_bytes,
        host_link_bandwidth=32e9,
        host_link_latency_s=10e-6,
        dma_latency_s=2e-6,
        mte2_bytes_per_cycle=ub,
        mte3_bytes_per_cycle=ubg,
        mte2_l1_bytes_per_cycle=l1,
        mte1_l0a_bytes_per_cycle=l0a,
        mte1_l0b_bytes_per_cycle=l0b,
        fixpipe_bytes_per_cycle=fix,
        mte2_copy_cycles=27.01,
        mte3_copy_cycles=12.09,
        fixpipe_copy_cycles=12.09,
        gm_latency_cycles=519,
        l2_latency_cycles=207,
        l2_bandwidth=5e12,
        l2_line_bytes=512,
        l2_writes_first=True,
        vector_api_costs=_vector_costs(),
        vector_issue_cycles=22,
        vector_cycles_per_repeat=1.0,
        ub_bank_groups=16,
        ub_bank_row_bytes=32,
        ub_bank_slice_bytes=64 * KiB,
        task_head_s=0.46e-6,
        task_per_block_s=0.124e-6,
        scalar_issue_cycles=2.2,
        aicpu_count=6,
        aicpu_launch_s=30e-6,
        aicpu_elements_per_s=2.5e8,
        sources={
            "coupled": "[ASC-2201] AIC and AIV are separate cores, ratio 1:2",
            "ub/l1/l0a/l0b/l0c bytes and alignments": "[ASC-2201] 192/512/64/64/128 KiB; 32/32/512/512/64 B",
            "ub_reserved_bytes": "[ASC-2201] ASC_UB_SIZE = 192*1024 - 256",
            "events_per_pipe_pair": "[ASC-2201] event IDs 0-7 on Atlas A2/A3",
            "que_buffers_per_position": "[ASC] TQue简介: 8 buffers per TPosition on A2/A3",
            "vector_repeat_bytes, max_repeat": "[ASC-SIMD] 8 x 32 B blocks per repeat; repeatTime <= 255",
            "cube_fractal, cube_macs_per_cycle": "[ASC] 16x16x16 fractal -> 4096 fp16 MAC/cycle",
            "host_link_bandwidth": "ESTIMATE: PCIe 4.0 x16 practical ~32 GB/s per direction",
            "host_link_latency_s": "ESTIMATE: ~10 us per host<->device DMA task",
            "dma_latency_s": "ESTIMATE: ~2 us per on-device copy/memset task",
            "aicpu_count": "[INI] Ascend910B2C.ini [SoCInfo] ai_cpu_cnt=6 (UNVERIFIED)",
            "aicpu_launch_s": "ESTIMATE: ~30 us per AI CPU task (launch, args, scheduling)",
            "aicpu_elements_per_s": "ESTIMATE: 2.5e8 elements/s per AI CPU core (an ARM core, NEON)",
            **{k: v for k, v in CORE_MODEL_SOURCES.items() if k in _A2_KEEPS},
            "local_copy_latency_cycles": "ESTIMATE: 20 cycles to the first byte of an on-chip copy",
            "cube_issue_cycles": "ESTIMATE: 8 cycles",
            **A2_MODEL_SOURCES,
            **sources,
        },
    )


ASCEND_910B1 = _atlas_a2("910B1", 1.85e9, 24, 192 * MiB, 64 * GiB, {
    "clock_hz": "[OPPROF] sim_defs.h 1850 MHz; [ADD], [MM] 'main frequency of 1.85GHz'",
    "cube_cores, vector_cores": "[ADD], [MM] run on 24 AIC / 48 AIV ([DVM] lists 25 AIC, UNVERIFIED)",
    "l2_bytes": "[MM] 'actual chip L2Cache size is 192MB'",
    "dram_bytes": "[PRESS] 64 GB HBM2e (UNVERIFIED)",
})
ASCEND_910B2 = _atlas_a2("910B2", 1.8e9, 24, 192 * MiB, 64 * GiB, {
    "clock_hz": "[OPPROF] sim_defs.h 1800 MHz; [INI] cube_freq=1800",
    "cube_cores, vector_cores": "[ATC] 24 cube + 48 vector cores",
    "l2_bytes": "[INI] l2_size=201326592 (UNVERIFIED); [MM] 192 MB",
    "dram_bytes": "[PRESS] 64 GB HBM2e (UNVERIFIED)",
})
ASCEND_910B3 = _atlas_a2("910B3", 1.8e9, 20, 192 * MiB, 64 * GiB, {
    "clock_hz": "[OPPROF] sim_defs.h 1800 MHz",
    "cube_cores, vector_cores": "[DVM] 20 AIC (UNVERIFIED), 2 AIV per AIC",
    "l2_bytes": "[DVM] 192 MiB (UNVERIFIED)",
    "dram_bytes": "[PRESS] 64 GB HBM2e (UNVERIFIED)",
})
ASCEND_910B4 = _atlas_a2("910B4", 1.65e9, 20, 96 * MiB, 32 * GiB, {
    "clock_hz": "[OPPROF] sim_defs.h 1650 MHz ([B4INI] says cube_freq 1500, UNVERIFIED)",
    "cube_cores, vector_cores": "[B4INI] 20 AIC / 40 AIV (UNVERIFIED)",
    "l2_bytes": "[DVM] 96 MiB (UNVERIFIED)",
    "dram_bytes": "[B4INI] 32 GiB (UNVERIFIED)",
})
#: The default chip: a 910B2 under the family's name.
ASCEND_910B = ASCEND_910B2.with_changes(
    name="910B", description=ASCEND_910B2.description.replace("910B2", "910B"),
    sources={**ASCEND_910B2.sources, "*": "the 910B2 preset under the family's name (the default chip)"})

ASCEND_310P = ChipSpec(
    name="310P",
    arch_version="2002",
    description="Ascend 310P-like inference chip (Atlas inference): coupled cores, LPDDR memory",
    cube_cores=8,
    vector_cores=8,
    coupled=True,
    clock_hz=1.06e9,
    ub_bytes=256 * KiB,
    l1_bytes=1 * MiB,
    l0a_bytes=64 * KiB,
    l0b_bytes=64 * KiB,
    l0c_bytes=256 * KiB,
    bt_bytes=0,  # no bias table on Atlas inference AI Core ([ASC] Mmad: cmatrixSource false only)
    ub_reserved_bytes=0,
    events_per_pipe_pair=8,
    que_buffers_per_position=8,
    dram_kind="DDR",
    dram_bytes=24 * GiB,
    dram_bandwidth=204e9,
    l2_bytes=0,
    host_link_bandwidth=16e9,
    host_link_latency_s=10e-6,
    dma_latency_s=2e-6,
    aicpu_count=4,
    aicpu_launch_s=30e-6,
    aicpu_elements_per_s=2.0e8,
    sources={
        "cube_cores, vector_cores, coupled": "[ATC] coupled example ai_core_cnt=10, vector_core_cnt=8; "
        "ESTIMATE 8 AI cores for one 310P die",
        "clock_hz": "[OPPROF] sim_defs.h 1060 MHz (310P1-310P4)",
        "ub_bytes, l0c_bytes": "[INI] Ascend310P3 ub_size=262144, l0_c=256 KiB (UNVERIFIED)",
        "l1_bytes": "ESTIMATE: 1 MiB",
        "ub_reserved_bytes": "[ASC-2002] asc-devkit include/utils/base/sys_constants.h: ASC_UB_SIZE = "
        "256*1024 for arch 2002 (and kernel_utils_constants.h TOTAL_UB_SIZE = 256*1024): nothing reserved, "
        "where arch 2201 has 192*1024 - 256",
        "l0a/l0b bytes, alignments": "[INI] 64 KiB; [ASC] same alignment table as 2201",
        "events_per_pipe_pair": "[ASC] event IDs 0-7 on Atlas inference AI Core",
        "dram_kind, dram_bytes, dram_bandwidth": "[PRESS] Atlas 300I Duo: 96 GB LPDDR4X, 408 GB/s "
        "for two chips -> 48 GB / 204 GB/s per chip; ESTIMATE 24 GiB for a single-chip card",
        "host_link_bandwidth": "ESTIMATE: PCIe 4.0 x8 practical ~16 GB/s",
        "host_link_latency_s, dma_latency_s": "ESTIMATE",
        "aicpu_count": "ESTIMATE: 4 of the chip's ARM cores as AI CPUs",
        "aicpu_launch_s": "ESTIMATE: ~30 us per AI CPU task",
        "aicpu_elements_per_s": "ESTIMATE: 2e8 elements/s per AI CPU core",
        **CORE_MODEL_SOURCES,
    },
)

TINY = ChipSpec(
    name="tiny",
    arch_version="2201",
    description="A tiny 910B-shaped chip for fast tests: 2 AIC + 4 AIV, 64 MiB device memory",
    cube_cores=2,
    vector_cores=4,
    coupled=False,
    clock_hz=1.0e9,
    ub_bytes=192 * KiB,
    l1_bytes=512 * KiB,
    l0a_bytes=64 * KiB,
    l0b_bytes=64 * KiB,
    l0c_bytes=128 * KiB,
    ub_reserved_bytes=256,
    events_per_pipe_pair=8,
    que_buffers_per_position=8,
    dram_kind="HBM",
    dram_bytes=64 * MiB,
    dram_bandwidth=100e9,
    l2_bytes=0,
    host_link_bandwidth=10e9,
    host_link_latency_s=1e-6,
    dma_latency_s=1e-6,
    aicpu_count=2,
    aicpu_launch_s=5e-6,
    aicpu_elements_per_s=1e8,
    sources={"*": "a test fixture, not a real chip: 910B-shaped cores with round, small numbers",
             "aicpu_*": "a test fixture: round numbers", **CORE_MODEL_SOURCES},
)

PRESETS: dict[str, ChipSpec] = {c.name.lower(): c for c in (ASCEND_910B, ASCEND_310P, TINY, ASCEND_910B1,
                                                             ASCEND_910B2, ASCEND_910B3, ASCEND_910B4)}
DEFAULT_CHIP = "910B"


def get_chip(name: str | ChipSpec) -> ChipSpec:
    """Look up a preset by name (case-insensitive); a ``ChipSpec`` is returned as is.

    >>> get_chip("tiny").vector_cores
    4
    """
    if isinstance(name, ChipSpec):
        return name
    try:
        return PRESETS[name.lower()]
    except KeyError:
        raise ValueError(f"unknown chip {name!r}; presets: {', '.join(sorted(PRESETS))}") from None


def list_chips() -> list[ChipSpec]:
    """All presets, in registry order."""
    return list(PRESETS.values())
