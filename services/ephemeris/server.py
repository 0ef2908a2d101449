"""The ephemeris service process: a thin gRPC servicer over the single-moment computations."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2_grpc
from services.ephemeris import aspects, chart, houses, positions
from shared.rpc_server import serve_main, unary


class EphemerisServicer(ephemeris_service_pb2_grpc.EphemerisServiceServicer):
    """Routes each RPC to its module; RPCs not overridden answer UNIMPLEMENTED (HTTP 501)."""

    @unary
    def ComputePositions(self, request):
        return positions.compute(request)

    @unary
    def ComputeHouses(self, request):
        return houses.compute(request)

    @unary
    def ComputeChart(self, request):
        return chart.compute(request)

    @unary
    def ComputeAspects(self, request):
        return aspects.compute(request)


def main(argv: list[str] | None = None) -> None:
    serve_main(
        "ephemeris",
        ephemeris_service_pb2_grpc.add_EphemerisServiceServicer_to_server,
        EphemerisServicer(),
        "celestial.v1.EphemerisService",
        argv,
    )


if __name__ == "__main__":
    main()
