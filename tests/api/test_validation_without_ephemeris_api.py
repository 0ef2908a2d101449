"""The gateway validates without the ephemeris files: a gateway whose process never gave the
engine its files refuses every kind of bad request with the same 400 as one that has them,
and calls no service (issue 22)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from shared.runtime.config import REPO_ROOT
from tests.api.refusals_without_ephemeris import REFUSALS, answers, refusing_pools


@pytest.fixture(scope="module")
def without_files(processes, tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("without-ephemeris")
    run = subprocess.run(
        [sys.executable, "-m", "tests.api.refusals_without_ephemeris", str(folder)],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def with_files(module_stacks) -> dict:
    calls: list[str] = []
    stack = module_stacks.in_process("with-ephemeris", pools=refusing_pools(calls))
    return {"answers": answers(stack), "calls": calls}


def test_a_gateway_without_the_ephemeris_files_never_gave_the_engine_any(without_files):
    assert without_files["ephemeris_files_path"] is None


def test_every_refusal_without_the_ephemeris_files_is_its_400_and_calls_no_service(without_files):
    found = [
        (a["path"], a["status"], a["errors"][0]["code"], a["errors"][0].get("param")) for a in without_files["answers"]
    ]
    assert found == [(path, 400, code, param) for path, _, code, param in REFUSALS]
    assert without_files["calls"] == []


def test_the_gateway_refuses_the_same_way_with_and_without_the_ephemeris_files(without_files, with_files):
    assert with_files["calls"] == []
    assert without_files["answers"] == with_files["answers"]
