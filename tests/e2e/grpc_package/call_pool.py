"""What an internal consumer writes against the celestial-grpc package alone: one line of JSON
per call to the pool at ``sys.argv[1]`` (host:port), each the README's example."""

from __future__ import annotations

import json
import sys

import grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

from celestial.v1 import common_pb2, ephemeris_service_pb2, ephemeris_service_pb2_grpc
from celestial_grpc import channel_options, error_details

EQUINOX = common_pb2.Moment(datetime="2024-03-20T12:00:00Z")

with grpc.insecure_channel(sys.argv[1], options=channel_options(processes=1)) as channel:
    stub = ephemeris_service_pb2_grpc.EphemerisServiceStub(channel)

    reply = stub.ComputePositions(
        ephemeris_service_pb2.ComputePositionsRequest(moment=EQUINOX, bodies=["sun", "moon"]),
        timeout=10,
        metadata=(("x-request-id", "grpc-package-e2e"),),
    )
    sun = reply.data[0].ecliptic
    print(
        json.dumps(
            {
                "bodies": [record.ecliptic.body for record in reply.data],
                "sun_sign": sun.sign,
                "sun_degree": sun.sign_degree,
            }
        )
    )

    try:
        stub.ComputePositions(
            ephemeris_service_pb2.ComputePositionsRequest(moment=EQUINOX, bodies=["plutoo"]), timeout=10
        )
    except grpc.RpcError as error:
        refused = error_details(error)
        assert refused is not None
        print(
            json.dumps(
                {
                    "grpc_code": refused.grpc_code.name,
                    "code": refused.code,
                    "param": refused.param,
                    "suggestion": refused.suggestion,
                    "http_status": refused.http_status,
                    "message": refused.message,
                }
            )
        )

    # A 4000-pixel PNG wheel takes about a second to draw: its 0.1 s deadline passes first.
    large_wheel = ephemeris_service_pb2.DrawChartWheelRequest(
        birth=ephemeris_service_pb2.WheelBirth(moment=EQUINOX, location=common_pb2.Place(lat=45.75, lon=4.85)),
        format="png",
        size=4000,
    )
    try:
        stub.DrawChartWheel(large_wheel, timeout=0.1)
    except grpc.RpcError as error:
        passed = error_details(error)
        print(json.dumps({"grpc_code": error.code().name, "details_code": passed.code if passed else None}))

    print(json.dumps({"services": sorted(ProtoReflectionDescriptorDatabase(channel).get_services())}))
    # Reflection gives the protos themselves too: a client without them can build requests.
    reflected = ProtoReflectionDescriptorDatabase(channel).FindFileContainingSymbol("celestial.v1.EphemerisService")
    print(
        json.dumps(
            {"file": reflected.name, "rpcs": [rpc.name for service in reflected.service for rpc in service.method]}
        )
    )
