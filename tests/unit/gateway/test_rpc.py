"""gateway/rpc.py: the calls to the service pools and the one gRPC-to-HTTP error mapping.
A status without our ErrorInfo maps by google/rpc/code.proto's HTTP mapping; a pool's calls
are tried against a real gRPC server on an ephemeral port (the channel's options:
tests/unit/runtime/test_pool_channel.py)."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from google.protobuf import wrappers_pb2

from gateway.rpc import ServicePool, map_rpc_error
from shared.errors import CelestialError, InvalidParameter
from shared.runtime.status import rich_status

METHOD = "/test.Echo/Say"


def _error(code: grpc.StatusCode, details: str = "", trailing: tuple = ()) -> grpc.aio.AioRpcError:
    return grpc.aio.AioRpcError(code, grpc.aio.Metadata(), grpc.aio.Metadata(*trailing), details)


@pytest.mark.parametrize(
    ("code", "status", "error_code"),
    [
        (grpc.StatusCode.INVALID_ARGUMENT, 400, "invalid_parameter"),
        (grpc.StatusCode.OUT_OF_RANGE, 400, "invalid_parameter"),
        (grpc.StatusCode.UNIMPLEMENTED, 501, "not_implemented"),
        (grpc.StatusCode.RESOURCE_EXHAUSTED, 503, "service_unavailable"),
        (grpc.StatusCode.UNAVAILABLE, 503, "service_unavailable"),
        (grpc.StatusCode.CANCELLED, 503, "service_unavailable"),
        (grpc.StatusCode.DEADLINE_EXCEEDED, 504, "deadline_exceeded"),
        (grpc.StatusCode.INTERNAL, 500, "internal_error"),
        (grpc.StatusCode.UNKNOWN, 500, "internal_error"),
    ],
)
def test_a_bare_status_maps_to_its_http_error(code, status, error_code):
    error = map_rpc_error(_error(code, "detail"), "ephemeris")
    assert (error.http_status, error.code) == (status, error_code)


def test_a_busy_service_and_a_gone_one_are_told_apart_and_named():
    assert "ephemeris service is busy" in map_rpc_error(_error(grpc.StatusCode.RESOURCE_EXHAUSTED), "ephemeris").message
    assert "search service is unavailable" in map_rpc_error(_error(grpc.StatusCode.UNAVAILABLE), "search").message


def test_a_status_carrying_our_error_info_is_that_error():
    carried = InvalidParameter("Unknown body 'vulcan'.", suggestion="Use a listed body.", param="bodies")
    status = rich_status(carried)
    error = map_rpc_error(
        _error(
            grpc.StatusCode.INVALID_ARGUMENT, status.message, (("grpc-status-details-bin", status.SerializeToString()),)
        ),
        "ephemeris",
    )
    assert (error.code, error.message, error.suggestion, error.param) == (
        "invalid_parameter",
        carried.message,
        "Use a listed body.",
        "bodies",
    )


class _Echo:
    """A service of one method that refuses ``busy`` times (RESOURCE_EXHAUSTED, or ``code``),
    then echoes, reporting a compute time in the trailing metadata as the service processes do."""

    def __init__(self, busy: int, code: grpc.StatusCode = grpc.StatusCode.RESOURCE_EXHAUSTED):
        self.busy = busy
        self.code = code
        self.request_ids: list[str] = []

    async def say(
        self, request: wrappers_pb2.StringValue, context: grpc.aio.ServicerContext
    ) -> wrappers_pb2.StringValue:
        self.request_ids.append(dict(context.invocation_metadata())["x-request-id"])
        if self.busy > 0:
            self.busy -= 1
            await context.abort(self.code, "refused")
        context.set_trailing_metadata((("x-compute-ms", "40"),))
        return wrappers_pb2.StringValue(value=request.value.upper())


def _with_pool(busy: int, scenario, code: grpc.StatusCode = grpc.StatusCode.RESOURCE_EXHAUSTED):
    async def run():
        echo = _Echo(busy, code)
        handler = grpc.method_handlers_generic_handler(
            "test.Echo",
            {
                "Say": grpc.unary_unary_rpc_method_handler(
                    echo.say,
                    request_deserializer=wrappers_pb2.StringValue.FromString,
                    response_serializer=wrappers_pb2.StringValue.SerializeToString,
                ),
            },
        )
        server = grpc.aio.server()
        server.add_generic_rpc_handlers((handler,))
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        pool = ServicePool("echo", (f"127.0.0.1:{port}",))
        try:
            return echo, await scenario(pool)
        finally:
            await pool.close()
            await server.stop(None)

    return asyncio.run(run())


def _say(pool: ServicePool, timeout_s: float = 5.0):
    return pool.call(
        METHOD, wrappers_pb2.StringValue(value="hi"), wrappers_pb2.StringValue, timeout_s=timeout_s, request_id="req-7"
    )


def test_a_call_answers_sends_its_request_id_and_counts_the_reported_compute_time():
    async def scenario(pool):
        return await _say(pool), pool.costs.expected_s(METHOD)

    echo, (reply, cost) = _with_pool(0, scenario)
    assert reply.value == "HI" and echo.request_ids == ["req-7"] and cost == pytest.approx(0.04)


def test_a_busy_process_is_tried_again_until_it_takes_the_call():
    # One process and maxAttempts 2: the channel's own retry takes one refusal, the pool's
    # busy loop the others.
    echo, reply = _with_pool(4, _say)
    assert reply.value == "HI" and len(echo.request_ids) == 5


def test_a_call_cancelled_by_a_stopping_process_is_tried_again_not_a_500():
    # gRPC's server shutdown answers CANCELLED to a call it received but had not yet handed
    # to the service (grpc/grpc#41785; tests/unit/runtime/test_server.py drives that race).
    echo, reply = _with_pool(1, _say, grpc.StatusCode.CANCELLED)
    assert reply.value == "HI" and len(echo.request_ids) == 2


def test_a_process_busy_past_the_calls_time_is_503():
    async def scenario(pool):
        with pytest.raises(CelestialError) as raised:
            await _say(pool, timeout_s=0.2)
        return raised.value

    _, error = _with_pool(10_000, scenario)
    assert (error.http_status, error.code) == (503, "service_unavailable")
