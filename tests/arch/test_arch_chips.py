"""Chip presets and the ChipSpec dataclass."""

from __future__ import annotations

import dataclasses

import pytest

import aclsim
from aclsim.arch import (
    ASCEND_310P,
    ASCEND_910B,
    DEFAULT_CHIP,
    PRESETS,
    TINY,
    ChipSpec,
    GiB,
    KiB,
    MiB,
    get_chip,
    list_chips,
)


def _minimal(**overrides: object) -> dict[str, object]:
    kwargs: dict[str, object] = dict(
        name="x", arch_version="2201", description="test chip", cube_cores=1, vector_cores=2,
        coupled=False, clock_hz=1e9, ub_bytes=192 * KiB, l1_bytes=512 * KiB, l0a_bytes=64 * KiB,
        l0b_bytes=64 * KiB, l0c_bytes=128 * KiB, dram_bytes=1 * MiB, dram_bandwidth=1e9,
        host_link_bandwidth=1e9, host_link_latency_s=1e-6, dma_latency_s=1e-6,
    )
    kwargs.update(overrides)
    return kwargs


def test_units() -> None:
    assert (KiB, MiB, GiB) == (1024, 1024**2, 1024**3)


def test_presets_registered() -> None:
    assert set(PRESETS) == {"910b", "310p", "tiny", "910b1", "910b2", "910b3", "910b4"}
    assert list_chips()[:3] == [ASCEND_910B, ASCEND_310P, TINY]
    assert get_chip(DEFAULT_CHIP) is ASCEND_910B
    assert aclsim.get_chip is get_chip and aclsim.list_chips is list_chips


def test_910b_numbers() -> None:
    c = get_chip("910B")
    assert (c.cube_cores, c.vector_cores, c.coupled) == (24, 48, False)
    assert c.ub_bytes == 192 * KiB
    assert c.l1_bytes == 512 * KiB
    assert c.l0a_bytes == c.l0b_bytes == 64 * KiB
    assert c.l0c_bytes == 128 * KiB
    assert c.ub_align == 32 and c.l1_align == 32 and c.l0ab_align == 512 and c.l0c_align == 64
    assert c.events_per_pipe_pair == 8
    assert c.ub_usable_bytes == 192 * 1024 - 256
    assert c.dram_kind == "HBM" and c.dram_bytes == 64 * GiB
    assert c.arch_version == "2201"


def test_310p_and_tiny_numbers() -> None:
    assert ASCEND_310P.coupled is True and ASCEND_310P.dram_kind == "DDR"
    assert ASCEND_310P.l0c_bytes == 256 * KiB
    assert TINY.dram_kind == "HBM" and TINY.dram_bytes == 64 * MiB
    assert (TINY.cube_cores, TINY.vector_cores) == (2, 4)


@pytest.mark.parametrize("chip", list_chips(), ids=lambda c: c.name)
def test_every_preset_has_sources(chip: ChipSpec) -> None:
    assert chip.sources, f"{chip.name} has no sources"
    assert all(isinstance(k, str) and isinstance(v, str) and v for k, v in chip.sources.items())
    assert chip.description


@pytest.mark.parametrize("name", ["910B", "910b", "tiny", "TINY", "Tiny", "310p", "310P"])
def test_get_chip_case_insensitive(name: str) -> None:
    assert get_chip(name) is PRESETS[name.lower()]


def test_get_chip_passes_chipspec_through() -> None:
    assert get_chip(TINY) is TINY


def test_get_chip_unknown() -> None:
    with pytest.raises(ValueError, match="unknown chip 'nope'") as info:
        get_chip("nope")
    assert "910b" in str(info.value) and "tiny" in str(info.value)


def test_chipspec_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        TINY.ub_bytes = 1  # type: ignore[misc]


def test_chipspec_keyword_only() -> None:
    with pytest.raises(TypeError):
        ChipSpec("x", "2201", "d")  # type: ignore[misc]
    spec = ChipSpec(**_minimal())  # type: ignore[arg-type]
    assert spec.ub_align == 32 and spec.dram_kind == "HBM"


@pytest.mark.parametrize("field", ["cube_cores", "ub_bytes", "l1_bytes", "l0c_bytes", "dram_bytes",
                                   "clock_hz", "dram_bandwidth", "host_link_latency_s", "dma_latency_s",
                                   "ub_reserved_bytes", "max_repeat"])
def test_chipspec_rejects_negative(field: str) -> None:
    with pytest.raises(ValueError, match=field):
        ChipSpec(**_minimal(**{field: -1}))  # type: ignore[arg-type]


@pytest.mark.parametrize("field", ["cube_cores", "vector_cores", "ub_bytes", "dram_bytes",
                                   "events_per_pipe_pair", "clock_hz", "dram_bandwidth",
                                   "host_link_bandwidth"])
def test_chipspec_rejects_zero_where_required(field: str) -> None:
    with pytest.raises(ValueError):
        ChipSpec(**_minimal(**{field: 0}))  # type: ignore[arg-type]


def test_chipspec_rejects_bad_dram_kind() -> None:
    with pytest.raises(ValueError, match="dram_kind"):
        ChipSpec(**_minimal(dram_kind="SRAM"))  # type: ignore[arg-type]


def test_with_changes_and_equality() -> None:
    small = TINY.with_changes(dram_bytes=8 * MiB)
    assert small.dram_bytes == 8 * MiB and TINY.dram_bytes == 64 * MiB
    assert small != TINY
    assert TINY.with_changes() == TINY
    with pytest.raises(ValueError):
        TINY.with_changes(ub_bytes=-5)


def test_timing_helpers() -> None:
    c = TINY
    assert c.cycle_s == pytest.approx(1e-9)
    assert c.host_copy_seconds(0) == pytest.approx(c.host_link_latency_s)
    assert c.host_copy_seconds(10_000) == pytest.approx(1e-6 + 10_000 / 10e9)
    assert c.device_copy_seconds(1000) == pytest.approx(1e-6 + 2 * 1000 / 100e9)
    assert c.device_fill_seconds(1000) == pytest.approx(1e-6 + 1000 / 100e9)
    assert c.memory_bound_seconds(300, 700) == pytest.approx(1e-6 + 1000 / 100e9)
    # monotonic in bytes
    assert c.host_copy_seconds(2 << 20) > c.host_copy_seconds(1 << 20)
    b = ASCEND_910B
    assert b.host_copy_seconds(32_000_000_000) == pytest.approx(1.0 + 10e-6)


def test_atlas_a2_family_from_the_profiler_tables() -> None:
    """Each A2 SKU: its profiler clock, its cores, and msOpProf's per-core path rates (GiB/s at
    that clock) as bytes per cycle; the default 910B is the 910B2."""
    b1, b2, b4 = get_chip("910B1"), get_chip("910B2"), get_chip("910B4")
    clocks = (b1.clock_hz, b2.clock_hz, get_chip("910B3").clock_hz, b4.clock_hz)
    assert clocks == (1.85e9, 1.8e9, 1.8e9, 1.65e9)
    assert (b4.cube_cores, b4.vector_cores, b4.l2_bytes, b4.dram_bytes) == (20, 40, 96 * MiB, 32 * GiB)
    assert b1.mte2_bytes_per_cycle == pytest.approx(220.06 * GiB / 1.85e9)
    assert b2.mte3_bytes_per_cycle == pytest.approx(181.75 * GiB / 1.8e9)
    assert b4.mte2_l1_bytes_per_cycle == pytest.approx(222.0 * GiB / 1.65e9)
    assert b1.mte2_bytes_per_cycle == pytest.approx(b2.mte2_bytes_per_cycle, rel=1e-3)  # same width
    base = get_chip("910B")
    assert all(getattr(base, f) == getattr(b2, f) for f in ("clock_hz", "mte2_bytes_per_cycle", "l2_bytes",
                                                            "gm_latency_cycles", "vector_api_costs"))
    for chip in (b1, b2, b4, base):
        keys = " ".join(chip.sources)
        for name in ("gm_latency_cycles", "l2_latency_cycles", "l2_bandwidth", "vector_api_costs",
                     "ub_bank_groups", "mte2_copy_cycles", "dram_bandwidth", "clock_hz"):
            assert name in keys, (chip.name, name)
