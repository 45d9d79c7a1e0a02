"""benchmarks/seed003.py runs (a few iterations) and its columns mean what they say."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import aclsim


def test_seed003_benchmark_few_iterations(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "seed003.py"
    spec = importlib.util.spec_from_file_location("bench_seed003", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--iterations", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    data = json.loads(lines[0])
    assert "config" in lines[1] and len(lines) == 6
    c = data["configs"]
    chip = aclsim.get_chip("310P")
    copy_us = 2 * chip.host_copy_seconds(1 << 20) * 1e6  # H2D + D2H of 1 MB, modeled
    for name in ("basic", "pooled"):
        assert c[name]["copy_us"] == pytest.approx(copy_us, rel=1e-9)
        assert c[name]["zero_copy_share"] == 0.0 and c[name]["kernel_us"] > 0
    for name in ("zero_copy", "combined"):
        assert c[name]["copy_us"] == 0.0 and c[name]["zero_copy_share"] == 1.0
        assert c[name]["hit_rate"] is None  # no device allocation at all
    assert c["basic"]["hit_rate"] == 0.0  # the pool bypassed: every malloc maps pages
    assert c["pooled"]["hit_rate"] >= 4 / 6  # only the first iteration's two mallocs miss
    assert all(cfg["leaks"] == 0 for cfg in c.values())
    assert not aclsim.is_initialized()
