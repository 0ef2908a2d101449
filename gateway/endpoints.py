"""The HTTP endpoints, read from the service descriptors and their ``(http)`` method option."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache

from google.protobuf import symbol_database
from google.protobuf.descriptor import MethodDescriptor
from google.protobuf.message import Message

from celestial.v1 import options_pb2
from shared.runtime.config import SERVICE_NAMES


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
    def scan(self) -> bool:
        """Return whether the call is a long one (a scan, or an engine search): it counts
        against its account's share of the pool's processes."""
        return self.http.deadline in (options_pb2.DEADLINE_CLASS_SCAN, options_pb2.DEADLINE_CLASS_ENGINE_SEARCH)


def service_modules() -> dict[str, object]:
    """Return the generated ``*_service_pb2`` module of every service, by service name."""
    return {name: importlib.import_module(f"celestial.v1.{name}_service_pb2") for name in SERVICE_NAMES}


@lru_cache(maxsize=1)
def discover_endpoints() -> tuple[Endpoint, ...]:
    """Return every RPC that declares an HTTP path, in declaration order."""
    database = symbol_database.Default()
    found: list[Endpoint] = []
    for service_name, module in service_modules().items():
        for service in module.DESCRIPTOR.services_by_name.values():
            for method in service.methods:
                http = method.GetOptions().Extensions[options_pb2.http]
                if not http.path:
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
    paths = [e.path for e in found]
    duplicates = {p for p in paths if paths.count(p) > 1}
    if duplicates:
        raise RuntimeError(f"Several RPCs declare the same HTTP path: {sorted(duplicates)}")
    return tuple(found)
