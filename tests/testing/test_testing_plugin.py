"""The pytest plug-in (entry point pytest11 ``aclsim``), run in inner pytest sessions."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

pytest_plugins = ["pytester"]

USES_FIXTURES = '''
import numpy as np
import aclsim
from aclsim.testing import sample_add, sample_add_get_workspace_size

def test_chip_and_harness(aclsim_runtime, aclsim_stream, aclsim_harness, assert_close):
    assert aclsim_runtime.chip.name == "{chip}"
    assert aclsim_harness.stream is aclsim_stream
    x = np.arange(64, dtype=np.float32)
    dx, dz = aclsim_harness.to_device(x), aclsim_harness.empty(x.nbytes)
    run = aclsim_harness.run(sample_add_get_workspace_size, sample_add, dx, dx, dz, 64)
    assert len(run.device_ms) == 3
    assert_close(aclsim_harness.from_device(dz, 64, np.float32), 2 * x)

def test_report_on_failure(assert_close):
    assert_close(np.float32([1, 2]), np.float32([1, 3]))

def test_left_clean():
    assert not aclsim.is_initialized()
'''


def test_the_entry_point_names_the_plugin() -> None:
    eps = [e for e in entry_points(group="pytest11") if e.name == "aclsim"]
    assert [e.value for e in eps] == ["aclsim.testing.plugin"]


@pytest.mark.parametrize("args, chip", [((), "tiny"), (("--aclsim-chip", "310P"), "310P")])
def test_fixtures_chip_option_and_report(pytester: pytest.Pytester, args: tuple[str, ...], chip: str) -> None:
    pytester.makepyfile(test_inner=USES_FIXTURES.format(chip=chip))
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "aclsim", *args)
    result.assert_outcomes(passed=3 - 1, failed=1)
    result.stdout.fnmatch_lines(["*AssertionError: FAIL: 1 of 2 element(s) over tolerance*",
                                 "*worst at index (1,): actual 2.0, expected 3.0*"])


def test_marker_wins(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_inner='''
import pytest

@pytest.mark.aclsim_chip("910B")
def test_marked(aclsim_runtime):
    assert aclsim_runtime.chip.name == "910B"
''')
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "aclsim", "--strict-markers",
                                "--aclsim-chip", "310P")
    result.assert_outcomes(passed=1)


def test_a_leaky_test_is_cleaned_up(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_inner='''
import aclsim

def test_leaks(aclsim_runtime):
    aclsim.malloc(100)
    aclsim.create_stream()

def test_after():
    assert not aclsim.is_initialized()
''')
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "aclsim")
    result.assert_outcomes(passed=2)


def test_unknown_chip_names_the_presets(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_inner="def test_x(aclsim_runtime):\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "aclsim", "--aclsim-chip", "nope")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*unknown chip 'nope'; presets: 310p, 910b, 910b1, 910b2, 910b3, "
                                 "910b4, tiny*"])


def test_the_plugin_adds_no_autouse_fixture(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_inner='''
def test_fixtures(request):
    assert "aclsim_runtime" not in request.fixturenames
    assert "assert_close" not in request.fixturenames
''')
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "aclsim")
    result.assert_outcomes(passed=1)
