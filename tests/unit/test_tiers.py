"""tests/tiers.py: a test is in the fast tier unless it takes the ``processes`` fixture, itself
or through a fixture, and then the collection hook of tests/conftest.py marks it ``processes``
(``make test`` deselects it); an in-process test that starts a process anyway fails."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys

import pytest

from tests import tiers


@pytest.fixture
def a_server(processes) -> str:
    """Stands for a fixture that starts a server: it takes ``processes``."""
    return "started"


def test_a_test_without_the_processes_fixture_is_in_the_fast_tier(request):
    assert request.node.get_closest_marker(tiers.MARKER) is None
    assert not tiers.starts_processes(request.node.fixturenames)


def test_a_test_that_takes_the_processes_fixture_is_marked_for_test_all(processes, request):
    assert request.node.get_closest_marker(tiers.MARKER) is not None


def test_a_test_whose_fixture_takes_the_processes_fixture_is_marked_for_test_all(a_server, request):
    assert request.node.get_closest_marker(tiers.MARKER) is not None


def test_an_in_process_test_that_starts_a_subprocess_fails_naming_the_fixture():
    with tiers.guard_the_test("tests/x.py::test_y", ["tmp_path"]):
        with pytest.raises(
            tiers.ProcessStartedInProcessTest, match="tests/x.py::test_y started a process .*'processes' fixture"
        ):
            subprocess.run([sys.executable, "-c", "pass"], check=True)


@pytest.mark.parametrize("method", ["spawn", "forkserver", "fork"])
def test_an_in_process_test_that_starts_a_multiprocessing_child_fails(method):
    with tiers.guard_the_test("tests/x.py::test_y", ["tmp_path"]):
        with pytest.raises(tiers.ProcessStartedInProcessTest, match="multiprocessing"):
            multiprocessing.get_context(method).Process(target=print).start()


def test_a_test_that_takes_the_processes_fixture_may_start_one(processes):
    with tiers.guard_the_test("tests/x.py::test_y", ["processes"]):
        assert (
            subprocess.run(
                [sys.executable, "-c", "print('started')"], capture_output=True, text=True, check=True
            ).stdout
            == "started\n"
        )
