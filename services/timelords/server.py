"""The timelords service process. Its RPCs are not built yet: each answers UNIMPLEMENTED (HTTP 501)."""

from __future__ import annotations

from celestial.v1 import timelords_service_pb2_grpc
from shared.rpc_server import serve_main


class TimeLordsServicer(timelords_service_pb2_grpc.TimeLordsServiceServicer):
    """Every RPC is inherited from the generated base, which answers UNIMPLEMENTED."""


def main(argv: list[str] | None = None) -> None:
    serve_main(
        "timelords",
        timelords_service_pb2_grpc.add_TimeLordsServiceServicer_to_server,
        TimeLordsServicer(),
        "celestial.v1.TimeLordsService",
        argv,
    )


if __name__ == "__main__":
    main()
