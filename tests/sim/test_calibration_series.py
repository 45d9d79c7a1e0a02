"""The core model against the published Add series (benchmarks/calibration.py): the issue's
target, MAPE <= 10 % on task duration and every case within 15 %.  Slow (a minute or two):
``python -m pytest -m slow tests/sim/test_calibration_series.py``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.slow
def test_add_series_task_duration_within_target(capsys: pytest.CaptureFixture[str]) -> None:
    sys.path.insert(0, str(BENCH))
    try:
        import calibration
    finally:
        sys.path.remove(str(BENCH))
    assert calibration.main([]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    errors = {c["case"]: c["task_error"] for c in out["cases"]}
    assert out["mape_task"] <= 0.10, errors
    assert out["worst_task_error"] <= 0.15, errors
