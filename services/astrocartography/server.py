"""The astrocartography service process. Its RPCs are not built yet: each answers UNIMPLEMENTED (HTTP 501)."""

from __future__ import annotations

from celestial.v1 import astrocartography_service_pb2_grpc
from shared.rpc_server import serve_main


class AstrocartographyServicer(astrocartography_service_pb2_grpc.AstrocartographyServiceServicer):
    """Every RPC is inherited from the generated base, which answers UNIMPLEMENTED."""


def main(argv: list[str] | None = None) -> None:
    serve_main(
        "astrocartography",
        astrocartography_service_pb2_grpc.add_AstrocartographyServiceServicer_to_server,
        AstrocartographyServicer(),
        "celestial.v1.AstrocartographyService",
        argv,
    )


if __name__ == "__main__":
    main()
