"""The search service process. Its RPCs are not built yet: each answers UNIMPLEMENTED (HTTP 501)."""

from __future__ import annotations

from celestial.v1 import search_service_pb2_grpc
from shared.rpc_server import serve_main


class SearchServicer(search_service_pb2_grpc.SearchServiceServicer):
    """Every RPC is inherited from the generated base, which answers UNIMPLEMENTED."""


def main(argv: list[str] | None = None) -> None:
    serve_main(
        "search",
        search_service_pb2_grpc.add_SearchServiceServicer_to_server,
        SearchServicer(),
        "celestial.v1.SearchService",
        argv,
    )


if __name__ == "__main__":
    main()
