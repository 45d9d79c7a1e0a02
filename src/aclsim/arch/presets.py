"""Chip presets, each number with its public source.

Sources (abbreviations as in ``design/reference/ascend-api.md``):

- [ASC-2201] asc-devkit ``docs/zh/guide/.../架构规格/NPU架构版本2201.md``: AIC/AIV split, per-core
  memory sizes and alignments, 8 event IDs per HardEvent, ``ASC_UB_SIZE = 192*1024 - 256``.
- [ASC-SIMD] asc-devkit ``SIMD计算说明/高维切分.md``: 256 B per vector repeat, repeatTime <= 255.
- [ATC] hiascend.com ATC ``--aicore_num`` page: "ai_core_cnt=24, cube_core_cnt=24,
  vector_core_cnt=48" (split) and "ai_core_cnt=10, vector_core_cnt=8" (coupled).
- [INI] third-party dumps of CANN platform ini files (UNVERIFIED): Ascend910B2 cube_freq=1800 MHz,
  l2_size 192 MiB; Ascend310P3 ub_size 256 KiB, l0_c 256 KiB.
- [PRESS] press and vendor pages (UNVERIFIED): 910B 64 GB HBM2e; Atlas 300I Duo (2x 310P)
  96 GB LPDDR4X at 408 GB/s, i.e. 48 GB and 204 GB/s per chip.
- Figures marked ESTIMATE have no public source; they are stated so the model is explicit.
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
}

ASCEND_910B = ChipSpec(
    name="910B",
    arch_version="2201",
    description="Ascend 910B-like training chip (Atlas A2): 24 AIC + 48 AIV, 64 GiB HBM",
    cube_cores=24,
    vector_cores=48,
    coupled=False,
    clock_hz=1.8e9,
    ub_bytes=192 * KiB,
    l1_bytes=512 * KiB,
    l0a_bytes=64 * KiB,
    l0b_bytes=64 * KiB,
    l0c_bytes=128 * KiB,
    ub_reserved_bytes=256,
    events_per_pipe_pair=8,
    que_buffers_per_position=8,
    dram_kind="HBM",
    dram_bytes=64 * GiB,
    dram_bandwidth=1.6e12,
    l2_bytes=192 * MiB,
    host_link_bandwidth=32e9,
    host_link_latency_s=10e-6,
    dma_latency_s=2e-6,
    sources={
        "cube_cores, vector_cores": "[ATC] 24 cube + 48 vector cores",
        "coupled": "[ASC-2201] AIC and AIV are separate cores, ratio 1:2",
        "clock_hz": "[INI] cube_freq=1800 (UNVERIFIED)",
        "ub/l1/l0a/l0b/l0c bytes and alignments": "[ASC-2201] 192/512/64/64/128 KiB; 32/32/512/512/64 B",
        "ub_reserved_bytes": "[ASC-2201] ASC_UB_SIZE = 192*1024 - 256",
        "events_per_pipe_pair": "[ASC-2201] event IDs 0-7 on Atlas A2/A3",
        "que_buffers_per_position": "[ASC] TQue简介: 8 buffers per TPosition on A2/A3",
        "vector_repeat_bytes, max_repeat": "[ASC-SIMD] 8 x 32 B blocks per repeat; repeatTime <= 255",
        "cube_fractal, cube_macs_per_cycle": "[ASC] 16x16x16 fractal -> 4096 fp16 MAC/cycle",
        "dram_bytes": "[PRESS] 64 GB HBM2e (UNVERIFIED)",
        "dram_bandwidth": "third-party analyses quote ~1.6 TB/s (UNVERIFIED)",
        "l2_bytes": "[INI] l2_size=201326592 (UNVERIFIED)",
        "host_link_bandwidth": "ESTIMATE: PCIe 4.0 x16 practical ~32 GB/s per direction",
        "host_link_latency_s": "ESTIMATE: ~10 us per host<->device DMA task",
        "dma_latency_s": "ESTIMATE: ~2 us per on-device copy/memset task",
        **CORE_MODEL_SOURCES,
    },
)

ASCEND_310P = ChipSpec(
    name="310P",
    arch_version="2002",
    description="Ascend 310P-like inference chip (Atlas inference): coupled cores, LPDDR memory",
    cube_cores=8,
    vector_cores=8,
    coupled=True,
    clock_hz=1.08e9,
    ub_bytes=256 * KiB,
    l1_bytes=1 * MiB,
    l0a_bytes=64 * KiB,
    l0b_bytes=64 * KiB,
    l0c_bytes=256 * KiB,
    ub_reserved_bytes=256,
    events_per_pipe_pair=8,
    que_buffers_per_position=8,
    dram_kind="DDR",
    dram_bytes=24 * GiB,
    dram_bandwidth=204e9,
    l2_bytes=0,
    host_link_bandwidth=16e9,
    host_link_latency_s=10e-6,
    dma_latency_s=2e-6,
    sources={
        "cube_cores, vector_cores, coupled": "[ATC] coupled example ai_core_cnt=10, vector_core_cnt=8; "
        "ESTIMATE 8 AI cores for one 310P die",
        "clock_hz": "ESTIMATE: 1.08 GHz",
        "ub_bytes, l0c_bytes": "[INI] Ascend310P3 ub_size=262144, l0_c=256 KiB (UNVERIFIED)",
        "l1_bytes": "ESTIMATE: 1 MiB",
        "l0a/l0b bytes, alignments": "[INI] 64 KiB; [ASC] same alignment table as 2201",
        "events_per_pipe_pair": "[ASC] event IDs 0-7 on Atlas inference AI Core",
        "dram_kind, dram_bytes, dram_bandwidth": "[PRESS] Atlas 300I Duo: 96 GB LPDDR4X, 408 GB/s "
        "for two chips -> 48 GB / 204 GB/s per chip; ESTIMATE 24 GiB for a single-chip card",
        "host_link_bandwidth": "ESTIMATE: PCIe 4.0 x8 practical ~16 GB/s",
        "host_link_latency_s, dma_latency_s": "ESTIMATE",
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
    sources={"*": "a test fixture, not a real chip: 910B-shaped cores with round, small numbers",
             **CORE_MODEL_SOURCES},
)

PRESETS: dict[str, ChipSpec] = {c.name.lower(): c for c in (ASCEND_910B, ASCEND_310P, TINY)}
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


# --- AI CPU figures (appended block): count, task cost and element rate of each preset ---------
_AICPU: dict[str, tuple[dict[str, float], dict[str, str]]] = {
    "910b": (
        {"aicpu_count": 6, "aicpu_launch_s": 30e-6, "aicpu_elements_per_s": 2.5e8},
        {"aicpu_count": "[INI] Ascend910B2C.ini [SoCInfo] ai_cpu_cnt=6 (UNVERIFIED)",
         "aicpu_launch_s": "ESTIMATE: ~30 us per AI CPU task (launch, args, scheduling)",
         "aicpu_elements_per_s": "ESTIMATE: 2.5e8 elements/s per AI CPU core (an ARM core, NEON)"},
    ),
    "310p": (
        {"aicpu_count": 4, "aicpu_launch_s": 30e-6, "aicpu_elements_per_s": 2.0e8},
        {"aicpu_count": "ESTIMATE: 4 of the chip's ARM cores as AI CPUs",
         "aicpu_launch_s": "ESTIMATE: ~30 us per AI CPU task",
         "aicpu_elements_per_s": "ESTIMATE: 2e8 elements/s per AI CPU core"},
    ),
    "tiny": (
        {"aicpu_count": 2, "aicpu_launch_s": 5e-6, "aicpu_elements_per_s": 1e8},
        {"aicpu_*": "a test fixture: round numbers"},
    ),
}
for _key, (_values, _sources) in _AICPU.items():
    PRESETS[_key] = PRESETS[_key].with_changes(**_values, sources={**PRESETS[_key].sources, **_sources})
ASCEND_910B, ASCEND_310P, TINY = PRESETS["910b"], PRESETS["310p"], PRESETS["tiny"]
