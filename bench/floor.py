"""The floor of the architecture: a bare Starlette endpoint making one gRPC call to a server
that answers a constant message. Run as `python -m bench.floor grpc PORT` or
`python -m bench.floor http HTTP_PORT GRPC_PORT`."""

from __future__ import annotations

import asyncio
import sys

import grpc
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1 import ephemeris_service_pb2_grpc as pb_grpc
from celestial.v1.common_pb2 import Moment

CONSTANT = pb.ComputePositionsResponse()


class ConstantServicer(pb_grpc.EphemerisServiceServicer):
    async def ComputePositions(self, request, context):
        return CONSTANT


async def serve_grpc(port: int) -> None:
    server = grpc.aio.server()
    pb_grpc.add_EphemerisServiceServicer_to_server(ConstantServicer(), server)
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    await server.wait_for_termination()


def http_app(grpc_port: int) -> Starlette:
    state: dict = {}

    async def endpoint(request):
        stub = state.get("stub")
        if stub is None:
            channel = grpc.aio.insecure_channel(f"127.0.0.1:{grpc_port}")
            stub = state["stub"] = pb_grpc.EphemerisServiceStub(channel)
        await stub.ComputePositions(pb.ComputePositionsRequest(moment=Moment(jd=2451545.0)))
        return Response(b'{"data":[]}', media_type="application/json")

    return Starlette(routes=[Route("/floor", endpoint)])


def main() -> None:
    if sys.argv[1] == "grpc":
        asyncio.run(serve_grpc(int(sys.argv[2])))
    else:
        import uvicorn

        uvicorn.run(
            http_app(int(sys.argv[3])),
            host="127.0.0.1",
            port=int(sys.argv[2]),
            loop="uvloop",
            http="httptools",
            access_log=False,
            log_level="warning",
        )


if __name__ == "__main__":
    main()
