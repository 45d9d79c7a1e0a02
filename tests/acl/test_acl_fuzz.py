"""The pyACL face under random calls with good and bad arguments (``face_fuzz.py``): no raise,
no hang, the predicted code, no state change on failure, the model's objects and data.

A larger run: ``python tests/acl/face_fuzz.py --calls 200000 --seeds 4`` (one JSON line), or
``python -m pytest -m slow tests/acl/test_acl_fuzz.py``.
"""

from __future__ import annotations

import pytest
from face_fuzz import FaceFuzzer


@pytest.mark.parametrize("seed", range(4))
def test_face_fuzz(seed: int) -> None:
    figures = FaceFuzzer(seed).run(calls=800)
    assert figures["calls"] >= 800
    assert figures["failed_as_predicted"] > 0  # bad arguments were really tried


@pytest.mark.slow
def test_face_fuzz_large() -> None:
    for seed in range(100, 104):
        figures = FaceFuzzer(seed).run(calls=25_000)
        assert figures["checked_reads"] > 0
