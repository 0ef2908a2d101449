"""gateway/endpoints.py: the gateway's endpoints are discovered from the service descriptors:
every RPC with an ``(http)`` option is one, at its path (contributing.md, "Adding an
endpoint": no gateway code changes). The expected set is read independently, from the
``.proto`` sources' text."""

from __future__ import annotations

import re

from celestial.v1 import options_pb2
from gateway.endpoints import discover_endpoints
from shared.runtime.config import REPO_ROOT

_RPC_WITH_HTTP = re.compile(
    r"rpc\s+(\w+)\s*\((\w+)\)\s*returns\s*\((\w+)\)\s*\{\s*option\s*\(http\)\s*=\s*\{[^}]*?path:\s*\"([^\"]+)\"", re.S
)


def _declared() -> dict[str, tuple[str, str, str, str]]:
    """Return path → (service file, rpc, request, response) of every rpc the .proto sources give an (http) path."""
    found = {}
    for proto in sorted((REPO_ROOT / "protos" / "celestial" / "v1").glob("*_service.proto")):
        for rpc, request, response, path in _RPC_WITH_HTTP.findall(proto.read_text()):
            found[path] = (proto.stem.removesuffix("_service"), rpc, request, response)
    return found


def test_every_rpc_with_an_http_option_is_an_endpoint_and_nothing_else_is():
    declared = _declared()
    assert declared and {endpoint.path for endpoint in discover_endpoints()} == set(declared)


def test_each_endpoint_names_its_service_rpc_and_message_types():
    declared = _declared()
    for endpoint in discover_endpoints():
        service, rpc, request, response = declared[endpoint.path]
        assert (endpoint.service, endpoint.method.name) == (service, rpc), endpoint.path
        assert (endpoint.request_cls.DESCRIPTOR.name, endpoint.response_cls.DESCRIPTOR.name) == (request, response)


def test_the_rpc_path_is_the_grpc_method_path():
    transits = next(e for e in discover_endpoints() if e.path == "/v1/transits")
    assert transits.rpc_path == "/celestial.v1.SearchService/FindTransits"


def test_scans_and_engine_searches_are_long_calls_and_the_rest_are_not():
    for endpoint in discover_endpoints():
        long_call = endpoint.http.deadline in (
            options_pb2.DEADLINE_CLASS_SCAN,
            options_pb2.DEADLINE_CLASS_ENGINE_SEARCH,
        )
        assert endpoint.scan is long_call
    by_path = {e.path: e for e in discover_endpoints()}
    assert by_path["/v1/transits"].scan and by_path["/v1/heliacal"].scan and not by_path["/v1/positions"].scan


def test_endpoints_are_in_declaration_order_within_a_service():
    declared = list(_declared())
    discovered = [e.path for e in discover_endpoints()]
    for service in {e.service for e in discover_endpoints()}:
        of_service = [p for p in discovered if next(e for e in discover_endpoints() if e.path == p).service == service]
        assert of_service == [p for p in declared if p in of_service]
