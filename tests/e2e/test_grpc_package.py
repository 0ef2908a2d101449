"""The gRPC package ``make sdk`` builds (issue 38, part 6), installed as an internal consumer
installs it: the wheel alone in a fresh venv, calling a real ephemeris process over loopback
with a deadline, reading a refusal's rich error details, and listing the services by
reflection. The wheel is built once for the module."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from deploy.grpc_package import build_grpc, generate_grpc, package_version
from deploy.local_stack import free_port_block
from deploy.supervisor import grpc_serving
from shared.runtime.config import REPO_ROOT

PROGRAMS = Path(__file__).parent / "grpc_package"
PROGRAM = PROGRAMS / "call_pool.py"
# The type stubs of grpcio and protobuf (typeshed's): a consumer type-checking strictly installs them.
TYPE_STUBS = ("types-grpcio", "types-protobuf")
# What the server needs and a gRPC consumer must never pull in.
SERVER_DEPENDENCIES = {
    "pyswisseph",
    "starlette",
    "uvicorn",
    "nats-py",
    "numpy",
    "structlog",
    "grpcio-health-checking",
    "celestial",
}
START_TIMEOUT_S = 60


@pytest.fixture(scope="module")
def package(processes, tmp_path_factory) -> dict[str, Path]:
    """Return the built wheel and sdist."""
    folder = tmp_path_factory.mktemp("grpc-package")
    built = build_grpc(generate_grpc(folder / "project"), folder / "dist")
    return {path.suffix: path for path in built}


def wheel_metadata(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as archive:
        return archive.read(next(name for name in archive.namelist() if name.endswith(".dist-info/METADATA"))).decode()


@pytest.fixture(scope="module")
def venv(package, tmp_path_factory) -> Path:
    """Return the python of a fresh venv holding the wheel (with its reflection extra) and its
    own dependencies from the indexes pip is configured with, nothing of this checkout."""
    folder = tmp_path_factory.mktemp("grpc-venv")
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    python = folder / "bin" / "python"
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            f"{package['.whl']}[reflection]",
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return python


@pytest.fixture(scope="module")
def pool(processes, tmp_path_factory) -> str:
    """Return the address of one ephemeris process (the server's own command) on a free
    loopback port, once it answers its health check SERVING."""
    address = f"127.0.0.1:{free_port_block(1)}"
    log_path = tmp_path_factory.mktemp("grpc-pool") / "ephemeris.log"
    with open(log_path, "wb") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "services.ephemeris.server", "--port", address.rsplit(":", 1)[1]],
            cwd=REPO_ROOT,
            env={**os.environ, "CELESTIAL_LOG_FORMAT": "json"},
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + START_TIMEOUT_S
    while not grpc_serving(address):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"the ephemeris process did not start:\n{log_path.read_text(errors='replace')[-2000:]}")
        time.sleep(0.2)
    yield address
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)


@pytest.fixture(scope="module")
def answers(venv, pool) -> list[dict]:
    """Return the JSON lines the consumer's program printed, run by the fresh venv outside the checkout."""
    ran = subprocess.run([str(venv), str(PROGRAM), pool], cwd=venv.parent, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    return [json.loads(line) for line in ran.stdout.splitlines()]


def test_the_wheel_holds_each_protos_stubs_types_the_descriptor_set_and_py_typed(package):
    with zipfile.ZipFile(package[".whl"]) as wheel:
        names = set(wheel.namelist())
    for proto in (REPO_ROOT / "protos" / "celestial" / "v1").glob("*.proto"):
        assert {f"celestial/v1/{proto.stem}_pb2{suffix}" for suffix in (".py", "_grpc.py", ".pyi")} <= names
    assert {
        "celestial/v1/descriptor_set.binpb",
        "celestial/v1/py.typed",
        "celestial_grpc/py.typed",
        "celestial_grpc/error_codes.py",
    } <= names


def test_the_wheel_depends_on_grpcio_protobuf_and_googleapis_common_protos_only(package):
    required = [
        Requirement(line.split(":", 1)[1])
        for line in wheel_metadata(package[".whl"]).splitlines()
        if line.startswith("Requires-Dist:")
    ]
    plain = {requirement.name for requirement in required if requirement.marker is None}
    assert plain == {"grpcio", "protobuf", "googleapis-common-protos"}
    assert {requirement.name for requirement in required if requirement.marker} == {"grpcio-reflection"}


def test_the_packages_say_their_mit_licence_and_hold_it(package):
    with zipfile.ZipFile(package[".whl"]) as wheel:
        assert any(name.endswith(".dist-info/licenses/LICENSE") for name in wheel.namelist())
    assert "License-Expression: MIT" in wheel_metadata(package[".whl"]).splitlines()
    with tarfile.open(package[".gz"]) as sdist:
        names = sdist.getnames()
    assert any(name.endswith("/LICENSE") for name in names) and any(
        name.endswith("/celestial/v1/ephemeris_service_pb2_grpc.py") for name in names
    )


def test_the_packages_carry_the_apis_version(package):
    assert package[".whl"].name == f"celestial_grpc-{package_version()}-py3-none-any.whl"
    assert package[".gz"].name == f"celestial_grpc-{package_version()}.tar.gz"


def test_the_fresh_venv_holds_no_server_dependency(venv, answers):
    listed = subprocess.run(
        [str(venv), "-m", "pip", "list", "--format", "json"], capture_output=True, text=True, check=True
    )
    installed = {package["name"].lower() for package in json.loads(listed.stdout)}
    assert "celestial-grpc" in installed and not installed & SERVER_DEPENDENCIES


def test_a_call_with_a_deadline_answers_the_positions_asked_for(answers):
    answer = answers[0]
    assert answer["bodies"] == ["sun", "moon"]
    # The March equinox of 2024 fell at 03:06 UTC (IMCCE); at noon the Sun is ~0.37° into
    # Aries (it moves ~0.99°/day): inside [0.2, 0.5] holds either side of a timescale slip.
    assert answer["sun_sign"] == "Aries" and 0.2 < answer["sun_degree"] < 0.5


def test_a_refusal_carries_its_code_param_and_suggestion_as_the_http_api_answers_them(answers):
    refused = answers[1]
    assert refused["grpc_code"] == "INVALID_ARGUMENT" and refused["http_status"] == 400
    assert refused["code"] == "body_not_found" and refused["param"] == "bodies"
    assert "pluto" in refused["suggestion"] and "plutoo" in refused["message"]


def test_a_deadline_that_passes_during_the_computation_is_deadline_exceeded(answers):
    passed = answers[2]
    assert passed["grpc_code"] == "DEADLINE_EXCEEDED"
    # The client's own timer usually ends the call (no details); when the pool's answer that
    # it stopped the computation comes first, that answer names deadline_exceeded.
    assert passed["details_code"] in (None, "deadline_exceeded")


def test_reflection_lists_the_service_health_and_reflection(answers):
    assert answers[3]["services"] == [
        "celestial.v1.EphemerisService",
        "grpc.health.v1.Health",
        "grpc.reflection.v1alpha.ServerReflection",
    ]


def test_reflection_gives_the_protos_of_the_service(answers):
    assert answers[4]["file"] == "celestial/v1/ephemeris_service.proto" and "ComputePositions" in answers[4]["rpcs"]


@pytest.fixture(scope="module")
def typed_venv(venv, answers) -> Path:
    """Return the fresh venv once its calls have run, with the type stubs of grpcio and
    protobuf added, as a consumer that type-checks has them."""
    subprocess.run(
        [str(venv), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *TYPE_STUBS],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return venv


def test_a_consumers_program_passes_mypy_strict_with_the_packages_types(typed_venv):
    # mypy of this checkout, reading the packages of the fresh venv (PEP 561: py.typed).
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--python-executable",
            str(typed_venv),
            str(PROGRAMS / "typed_call.py"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
