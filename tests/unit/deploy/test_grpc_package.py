"""``make sdk``'s gRPC package (deploy/grpc_package.py): its dependencies' lowest versions are
the ones the generated code needs, and its helpers read what the server sends and open the
channel the gateway opens. The package's folder is generated once (protoc, no build)."""

from __future__ import annotations

import ast
import importlib
import json
import re
import sys
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from celestial.v1 import options_pb2
from deploy.client_contract import error_statuses
from deploy.grpc_package import dependency_floors, generate_grpc, pinned_version
from kernel.errors import BodyNotFound
from shared.errors import InvalidParameter
from shared.runtime.config import REPO_ROOT, SERVICE_NAMES
from shared.runtime.pool_channel import channel_options, service_config
from shared.runtime.status import ERROR_DOMAIN, to_status


@pytest.fixture(scope="module")
def project(processes, tmp_path_factory) -> Path:
    return generate_grpc(tmp_path_factory.mktemp("grpc-project"))


@pytest.fixture(scope="module")
def helpers(project):
    """Return the generated ``celestial_grpc`` package, imported from the project folder."""
    sys.path.insert(0, str(project))
    try:
        yield importlib.import_module("celestial_grpc")
    finally:
        sys.path.remove(str(project))
        for name in [name for name in sys.modules if name == "celestial_grpc" or name.startswith("celestial_grpc.")]:
            del sys.modules[name]


class FailedCall(grpc.RpcError):
    """A failed blocking call as grpcio raises it: its code and trailers."""

    def __init__(self, code: grpc.StatusCode, trailers: tuple = ()):
        self._code, self._trailers = code, trailers

    @classmethod
    def carrying(cls, status: grpc.Status) -> FailedCall:
        return cls(status.code, status.trailing_metadata)

    def code(self) -> grpc.StatusCode:
        return self._code

    def trailing_metadata(self) -> tuple:
        return self._trailers


def runtime_version_checked(module: Path) -> str:
    """Return the protobuf version the generated ``module`` refuses to import below (the
    arguments of its ValidateProtobufRuntimeVersion call)."""
    call = next(
        node
        for node in ast.walk(ast.parse(module.read_text()))
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "ValidateProtobufRuntimeVersion"
    )
    return ".".join(str(argument.value) for argument in call.args[1:4])


def test_the_requirement_floors_are_what_the_generated_code_checks_at_import(project):
    stubs = project / "celestial" / "v1"
    floors = dependency_floors(stubs, "googleapis-common-protos==1.76.0\n")
    # The generated code's own words: it raises below these versions.
    assert f"GRPC_GENERATED_VERSION = '{floors['grpcio']}'" in (stubs / "ephemeris_service_pb2_grpc.py").read_text()
    assert {runtime_version_checked(module) for module in stubs.glob("*_pb2.py")} == {floors["protobuf"]}
    assert floors["googleapis_common_protos"] == "1.76.0"


def test_the_pinned_version_is_read_from_its_own_line_only():
    requirements = (
        "grpcio==1.85.1\ngrpcio-status==1.85.1\n# googleapis-common-protos==0.1\ngoogleapis-common-protos==1.76.0  # "
        "rich errors\n"
    )
    assert pinned_version(requirements, "googleapis-common-protos") == "1.76.0"
    with pytest.raises(LookupError):
        pinned_version(requirements, "protobuf")


def test_the_pyproject_names_the_apis_version_and_the_floors(project):
    pyproject = (project / "pyproject.toml").read_text()
    floors = dependency_floors(project / "celestial" / "v1", (REPO_ROOT / "requirements.txt").read_text())
    assert f'"grpcio>={floors["grpcio"]},<2"' in pyproject and f'"protobuf>={floors["protobuf"]},<8"' in pyproject
    assert "$" not in pyproject


def test_every_error_code_of_the_server_has_its_http_status_in_the_package(helpers):
    assert helpers.ERROR_STATUS == error_statuses()


def test_error_details_reads_the_code_param_suggestion_and_http_status_the_server_sends(helpers):
    sent = BodyNotFound("Unknown body 'plutoo' in bodies.", suggestion="Did you mean 'pluto'?", param="bodies")
    details = helpers.error_details(FailedCall.carrying(to_status(sent)))
    assert details == helpers.ErrorDetails(
        code="body_not_found",
        message="Unknown body 'plutoo' in bodies.",
        suggestion="Did you mean 'pluto'?",
        param="bodies",
        grpc_code=grpc.StatusCode.INVALID_ARGUMENT,
        http_status=400,
    )


def test_an_error_without_a_param_has_none(helpers):
    details = helpers.error_details(
        FailedCall.carrying(to_status(InvalidParameter("Bad.", suggestion="Send another.")))
    )
    assert details.param is None and details.code == "invalid_parameter"


def test_a_status_without_the_apis_error_info_has_no_details(helpers):
    # A process whose queue is full refuses without details; another domain's ErrorInfo is not ours.
    assert helpers.error_details(FailedCall(grpc.StatusCode.RESOURCE_EXHAUSTED)) is None
    foreign = to_status(InvalidParameter("Bad.", suggestion="Send another."))
    status = status_pb2.Status.FromString(dict(foreign.trailing_metadata)[helpers.errors.STATUS_DETAILS_KEY])
    info = error_details_pb2.ErrorInfo()
    status.details[0].Unpack(info)
    info.domain = "example.com"
    status.details[0].Pack(info)
    trailers = ((helpers.errors.STATUS_DETAILS_KEY, status.SerializeToString()),)
    assert helpers.error_details(FailedCall(grpc.StatusCode.INVALID_ARGUMENT, trailers)) is None
    assert helpers.ERROR_DOMAIN == ERROR_DOMAIN


def test_the_packages_channel_is_the_gateways(helpers):
    for processes in (1, 3, 8):
        assert helpers.service_config(processes) == service_config(processes)
        assert helpers.channel_options(processes, 1.0, 2.0) == channel_options(processes, 1.0, 2.0)
    assert json.loads(helpers.service_config(3))["methodConfig"][0]["retryPolicy"]["maxAttempts"] == 3


def documented_rpcs(page: str) -> set[tuple[str, str, str, str, str]]:
    """Return each (pool, service, RPC, HTTP path, deadline class) of the table of RPCs in
    docs/grpc.md: the rows whose first cell is a pool's name."""
    rows = set()
    for line in page.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] not in SERVICE_NAMES:
            continue
        pool, service, rpcs, deadline = cells
        for rpc, path in re.findall(r"`(\w+)` \((/v1/[^)]+)\)", rpcs):
            rows.add((pool, service.strip("`"), rpc, path, deadline))
    return rows


def test_the_pages_table_names_every_rpc_of_each_pool_with_its_path_and_deadline_class():
    expected = set()
    for pool in SERVICE_NAMES:
        module = importlib.import_module(f"celestial.v1.{pool}_service_pb2")
        for service in module.DESCRIPTOR.services_by_name.values():
            for method in service.methods:
                http = method.GetOptions().Extensions[options_pb2.http]
                deadline = (
                    options_pb2.DeadlineClass.Name(http.deadline)
                    .removeprefix("DEADLINE_CLASS_")
                    .lower()
                    .replace("_", " ")
                )
                expected.add((pool, service.full_name, method.name, http.path, deadline))
    assert documented_rpcs((REPO_ROOT / "docs" / "grpc.md").read_text()) == expected
