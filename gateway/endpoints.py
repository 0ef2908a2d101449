"""The HTTP endpoints, read from the service descriptors and their ``(http)`` method option:
the services' RPCs, which the gateway sends to their pools, and the account's operations
(``account_service.proto``), which it serves itself (``(http).gateway``)."""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import lru_cache

from google.protobuf import symbol_database
from google.protobuf.descriptor import MethodDescriptor
from google.protobuf.message import Message

from celestial.v1 import account_service_pb2, options_pb2
from shared.runtime.config import SERVICE_NAMES

#: The service name of the account's operations (their ``Endpoint.service``).
ACCOUNT_SERVICE = "account"


@dataclass(frozen=True)
class Endpoint:
    """One RPC as the gateway serves it."""

    path: str
    service: str
    method: MethodDescriptor
    request_cls: type[Message]
    response_cls: type[Message]
    http: options_pb2.HttpEndpoint

    @property
    def rpc_path(self) -> str:
        """Return the gRPC method path, ``/celestial.v1.Service/Method``."""
        return f"/{self.method.containing_service.full_name}/{self.method.name}"

    @property
    def gateway_served(self) -> bool:
        """Return whether the gateway serves the operation itself (an account resource's), not a pool."""
        return self.http.HasField("gateway")

    @property
    def scan(self) -> bool:
        """Return whether the call is a long one (a scan, or an engine search): it counts
        against its account's share of the pool's processes."""
        return self.http.deadline in (options_pb2.DEADLINE_CLASS_SCAN, options_pb2.DEADLINE_CLASS_ENGINE_SEARCH)


def path_parameters(path: str) -> tuple[str, ...]:
    """Return the names of a path template's parameters (``chart_id`` of ``/v1/charts/{chart_id}``)."""
    return tuple(re.findall(r"\{(\w+)\}", path))


def service_modules() -> dict[str, object]:
    """Return the generated ``*_service_pb2`` module of every service, by service name."""
    return {name: importlib.import_module(f"celestial.v1.{name}_service_pb2") for name in SERVICE_NAMES}


def _declared(service_name: str, module, gateway_served: bool) -> list[Endpoint]:
    """Return the RPCs of ``module`` that declare an HTTP path and are (``gateway_served``) or
    are not served by the gateway itself, in declaration order."""
    database = symbol_database.Default()
    found: list[Endpoint] = []
    for service in module.DESCRIPTOR.services_by_name.values():
        for method in service.methods:
            http = method.GetOptions().Extensions[options_pb2.http]
            if not http.path or http.HasField("gateway") != gateway_served:
                continue
            found.append(
                Endpoint(
                    path=http.path,
                    service=service_name,
                    method=method,
                    request_cls=database.GetSymbol(method.input_type.full_name),
                    response_cls=database.GetSymbol(method.output_type.full_name),
                    http=http,
                )
            )
    return found


@lru_cache(maxsize=1)
def discover_endpoints() -> tuple[Endpoint, ...]:
    """Return every RPC of the services' pools that declares an HTTP path, in declaration order
    (an operation the gateway serves itself is never among them)."""
    found = [e for name, module in service_modules().items() for e in _declared(name, module, gateway_served=False)]
    paths = [e.path for e in found]
    duplicates = {p for p in paths if paths.count(p) > 1}
    if duplicates:
        raise RuntimeError(f"Several RPCs declare the same HTTP path: {sorted(duplicates)}")
    return tuple(found)


@lru_cache(maxsize=1)
def account_operations() -> tuple[Endpoint, ...]:
    """Return the operations of the account's resources (``AccountService``), which the
    gateway serves itself, in declaration order; RuntimeError when one lacks ``(http).gateway``
    or two declare the same method and path."""
    module = account_service_pb2
    found = _declared(ACCOUNT_SERVICE, module, gateway_served=True)
    declared = [m.name for s in module.DESCRIPTOR.services_by_name.values() for m in s.methods]
    if len(found) != len(declared):
        served = {e.method.name for e in found}
        raise RuntimeError(f"Account operations without (http).gateway: {sorted(set(declared) - served)}")
    routes = [(e.http.gateway.method, e.path) for e in found]
    duplicates = {r for r in routes if routes.count(r) > 1}
    if duplicates:
        raise RuntimeError(f"Several account operations declare the same method and path: {sorted(duplicates)}")
    return tuple(found)
