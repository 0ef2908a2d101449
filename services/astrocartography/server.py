"""The astrocartography service process: each built RPC and the module that computes it."""

from __future__ import annotations

from celestial.v1 import astrocartography_service_pb2
from services.astrocartography import lines, parans
from shared.runtime.server import serve_main

SERVICE = astrocartography_service_pb2.DESCRIPTOR.services_by_name["AstrocartographyService"]

HANDLERS = {
    "ComputeAstrocartography": lines.compute,
    "ComputeParans": parans.compute,
}


def main(argv: list[str] | None = None) -> None:
    serve_main("astrocartography", SERVICE, HANDLERS, argv)


if __name__ == "__main__":
    main()
