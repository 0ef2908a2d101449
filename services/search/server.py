"""The search service process. Its RPCs are not built yet: each answers UNIMPLEMENTED (HTTP 501)."""

from __future__ import annotations

from celestial.v1 import search_service_pb2
from shared.runtime.server import serve_main

SERVICE = search_service_pb2.DESCRIPTOR.services_by_name["SearchService"]

HANDLERS: dict = {}


def main(argv: list[str] | None = None) -> None:
    serve_main("search", SERVICE, HANDLERS, argv)


if __name__ == "__main__":
    main()
