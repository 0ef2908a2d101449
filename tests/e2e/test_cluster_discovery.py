"""Discovery as a Kubernetes cluster does it (issue 26), on real processes and a real DNS server.

A headless Service answers its name with the address of every ready replica. Here a DNS server
on loopback (dnslib) answers ``search.pool.test`` with several loopback addresses (127.0.0.2,
127.0.0.3, …), where service processes (``tests/service/slow_service.py``) listen on one port;
the gateway's channel targets ``dns://127.0.0.1:PORT/search.pool.test:PORT`` as it would
``dns:///search:PORT`` in a cluster. Each process closes its connections after 2 s
(CELESTIAL_SERVICE_CONNECTION_AGE_S), which makes the channel resolve the name again.

The same name serves internal gRPC consumers: a generated stub, and server reflection (what
grpcurl uses) with no protos at all, both reading the rich error details of a bad request.
"""

from __future__ import annotations

import asyncio
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from dnslib import QTYPE, RR, A
from dnslib.server import BaseResolver, DNSLogger, DNSServer
from google.protobuf import descriptor_pool, message_factory
from google.rpc import error_details_pb2
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase
from grpc_status import rpc_status

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Moment as MomentValue
from gateway.rpc import ServicePool
from tests.service.test_runtime import J2000, SERVICE, start_process

POOL_NAME = "search.pool.test"
CONNECTION_AGE_S = 2.0
# Within this long of a change in the DNS answer, calls follow it: the connection age, the
# channel's re-resolution and reconnection, on a machine running the rest of the suite.
FOLLOWS_WITHIN_S = 15.0


class PoolResolver(BaseResolver):
    """Answers POOL_NAME with the addresses in ``self.addresses`` (changed by the test)."""

    def __init__(self, addresses: list[str]):
        self.addresses = addresses

    def resolve(self, request, handler):
        reply = request.reply()
        name = str(request.q.qname).rstrip(".")
        if name == POOL_NAME and request.q.qtype in (QTYPE.A, QTYPE.ANY):
            for address in list(self.addresses):
                reply.add_answer(RR(request.q.qname, QTYPE.A, rdata=A(address), ttl=1))
        return reply


def free_port(hosts: tuple[str, ...]) -> int:
    """Return a TCP port free on every one of ``hosts`` (and UDP on 127.0.0.1, for the DNS server)."""
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        try:
            for host in hosts:
                with socket.socket() as taken:
                    taken.bind((host, port))
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
                udp.bind(("127.0.0.1", port))
            return port
        except OSError:
            continue


class Pool:
    """Service processes on loopback addresses sharing one port, and the DNS answer naming them."""

    def __init__(self, folder: Path, port: int, dns_port: int, resolver: PoolResolver):
        self.folder, self.port, self.dns_port, self.resolver = folder, port, dns_port, resolver
        self.processes: dict[str, subprocess.Popen] = {}

    @property
    def target(self) -> str:
        return f"dns://127.0.0.1:{self.dns_port}/{POOL_NAME}:{self.port}"

    def start(self, host: str) -> None:
        self.processes[host], _ = start_process(
            2,
            self.log(host),
            host=host,
            port=self.port,
            env={"CELESTIAL_SERVICE_CONNECTION_AGE_S": str(CONNECTION_AGE_S)},
        )

    def log(self, host: str) -> Path:
        return self.folder / f"{host}.log"

    def calls_answered(self, host: str) -> int:
        return len(re.findall(r"rpc_finished.*rpc=.?ComputePositions", self.log(host).read_text(errors="replace")))


@pytest.fixture(scope="module")
def pool(processes, tmp_path_factory) -> Iterator[Pool]:
    hosts = ("127.0.0.2", "127.0.0.3", "127.0.0.4")
    port = free_port(hosts)
    resolver = PoolResolver(["127.0.0.2", "127.0.0.3"])
    dns_port = free_port(("127.0.0.1",))
    quiet = DNSLogger(log="-request,-reply,-truncated,-data", prefix=False)
    dns = [DNSServer(resolver, address="127.0.0.1", port=dns_port, tcp=tcp, logger=quiet) for tcp in (False, True)]
    for server in dns:
        server.start_thread()
    running = Pool(tmp_path_factory.mktemp("discovery"), port, dns_port, resolver)
    try:
        for host in hosts[:2]:
            running.start(host)
        yield running
    finally:
        for process in running.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=20)
        for server in dns:
            server.stop()
            server.server.server_close()


def positions_request(body: str = "sun") -> pb.ComputePositionsRequest:
    return pb.ComputePositionsRequest(moment=MomentValue(jd=J2000), bodies=[body])


async def call_many(service_pool: ServicePool, count: int, tag: str) -> None:
    for index in range(count):
        reply = await service_pool.call(
            SERVICE + "ComputePositions",
            positions_request(),
            pb.ComputePositionsResponse,
            timeout_s=10,
            request_id=f"{tag}-{index}",
        )
        assert reply.data[0].ecliptic.body == "sun"


def test_calls_spread_over_every_address_the_name_resolves_to_skip_a_dead_one_and_reach_an_added_one(pool):
    async def scenario() -> None:
        service_pool = ServicePool("search", (pool.target,))
        try:
            await call_many(service_pool, 20, "spread")
            assert pool.calls_answered("127.0.0.2") >= 5 and pool.calls_answered("127.0.0.3") >= 5

            pool.processes["127.0.0.3"].kill()
            pool.processes["127.0.0.3"].wait()
            await call_many(service_pool, 10, "skipped")  # every call answered, none lost on the dead address

            pool.start("127.0.0.4")
            pool.resolver.addresses[:] = ["127.0.0.2", "127.0.0.4"]
            added_by = time.monotonic() + FOLLOWS_WITHIN_S
            while pool.calls_answered("127.0.0.4") == 0:
                assert time.monotonic() < added_by, "the added address took no call"
                await call_many(service_pool, 4, "added")
                await asyncio.sleep(0.2)
        finally:
            await service_pool.close()

    asyncio.run(scenario())


def test_an_internal_consumer_calls_the_pool_by_its_name_with_a_generated_stub_and_reads_rich_errors(pool):
    with grpc.insecure_channel(pool.target) as channel:
        call = channel.unary_unary(
            SERVICE + "ComputePositions",
            request_serializer=pb.ComputePositionsRequest.SerializeToString,
            response_deserializer=pb.ComputePositionsResponse.FromString,
        )
        assert call(positions_request("moon"), timeout=10).data[0].ecliptic.body == "moon"
        with pytest.raises(grpc.RpcError) as caught:
            call(positions_request("vulcan"), timeout=10)
    assert_rich_error(caught.value)


def test_server_reflection_lets_a_client_without_the_protos_call_the_pool_and_read_rich_errors(pool):
    with grpc.insecure_channel(pool.target) as channel:
        database = ProtoReflectionDescriptorDatabase(channel)
        assert "celestial.v1.EphemerisService" in database.get_services()
        pool_of_descriptors = descriptor_pool.DescriptorPool(database)
        method = pool_of_descriptors.FindServiceByName("celestial.v1.EphemerisService").FindMethodByName(
            "ComputePositions"
        )
        request_cls = message_factory.GetMessageClass(method.input_type)
        response_cls = message_factory.GetMessageClass(method.output_type)
        call = channel.unary_unary(
            SERVICE + "ComputePositions",
            request_serializer=request_cls.SerializeToString,
            response_deserializer=response_cls.FromString,
        )
        request = request_cls()
        request.moment.jd = J2000
        request.bodies.append("mars")
        assert call(request, timeout=10).data[0].ecliptic.body == "mars"
        request.bodies[0] = "vulcan"
        with pytest.raises(grpc.RpcError) as caught:
            call(request, timeout=10)
    assert_rich_error(caught.value)


def assert_rich_error(error: grpc.RpcError) -> None:
    status = rpc_status.from_call(error)
    assert status is not None and status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    assert (info.reason, info.domain, info.metadata["param"]) == ("BODY_NOT_FOUND", "celestial.v1", "bodies")
    assert info.metadata["suggestion"]
