"""The astrocartography service process. Its RPCs are not built yet: each answers UNIMPLEMENTED (HTTP 501)."""

from __future__ import annotations

from celestial.v1 import astrocartography_service_pb2
from shared.runtime.server import serve_main

SERVICE = astrocartography_service_pb2.DESCRIPTOR.services_by_name["AstrocartographyService"]

HANDLERS: dict = {}


def main(argv: list[str] | None = None) -> None:
    serve_main("astrocartography", SERVICE, HANDLERS, argv)


if __name__ == "__main__":
    main()
