"""gateway/endpoints.py: the gateway's endpoints are discovered from the service descriptors:
every RPC with an ``(http)`` option is one, at its path (contributing.md, "Adding an
endpoint": no gateway code changes). The account's operations (``account_service.proto``,
``(http).gateway``) are the gateway's own, never a pool's endpoint. The expected sets are read
independently, from the ``.proto`` sources' text."""

from __future__ import annotations

import re

from celestial.v1 import options_pb2
from gateway.endpoints import account_operations, discover_endpoints, path_parameters
from shared.runtime.config import REPO_ROOT

ACCOUNT_PROTO = "account_service.proto"
_RPC_WITH_HTTP = re.compile(
    r"rpc\s+(\w+)\s*\((\w+)\)\s*returns\s*\((\w+)\)\s*\{\s*option\s*\(http\)\s*=\s*\{[^}]*?path:\s*\"([^\"]+)\"", re.S
)


def _declared() -> dict[str, tuple[str, str, str, str]]:
    """Return path → (service file, rpc, request, response) of every rpc the .proto sources give an (http) path."""
    found = {}
    for proto in sorted((REPO_ROOT / "protos" / "celestial" / "v1").glob("*_service.proto")):
        if proto.name == ACCOUNT_PROTO:
            continue
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


def _account_rpcs() -> list[tuple[str, str]]:
    """Return (rpc, path) of every rpc of account_service.proto, from its text, in order."""
    text = (REPO_ROOT / "protos" / "celestial" / "v1" / ACCOUNT_PROTO).read_text()
    return [(rpc, path) for rpc, _request, _response, path in _RPC_WITH_HTTP.findall(text)]


def test_every_account_rpc_is_an_operation_the_gateway_serves_and_never_a_pools_endpoint():
    declared = _account_rpcs()
    operations = account_operations()
    assert declared and [(e.method.name, e.path) for e in operations] == declared
    assert all(e.gateway_served and e.service == "account" for e in operations)
    assert not any(e.gateway_served for e in discover_endpoints())
    assert not {(e.method.name, e.path) for e in discover_endpoints()} & set(declared)


def test_every_account_operation_is_free_and_names_its_http_method():
    for endpoint in account_operations():
        assert endpoint.http.credits == 0 and not endpoint.http.conditional_credits, endpoint.method.name
        assert endpoint.http.gateway.method in ("GET", "POST", "PATCH", "DELETE"), endpoint.method.name


def test_a_path_parameter_of_an_account_operation_is_a_required_field_of_its_request():
    for endpoint in account_operations():
        for name in path_parameters(endpoint.path):
            field = endpoint.request_cls.DESCRIPTOR.fields_by_name[name]
            assert field.GetOptions().Extensions[options_pb2.field].required, (endpoint.method.name, name)


def test_path_parameters_are_the_names_in_braces():
    assert path_parameters("/v1/webhooks/{webhook_id}/test") == ("webhook_id",)
    assert path_parameters("/v1/usage") == ()
