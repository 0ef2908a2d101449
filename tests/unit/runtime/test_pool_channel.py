"""shared/runtime/pool_channel.py: the channel every client opens to a pool. Targets follow
gRPC's name syntax (grpc/doc/naming.md: ``ipv4:`` address lists, ``dns:`` names); the service
config retries a busy or going-away process (gRPC A6 retry design, 2 to 5 attempts)."""

from __future__ import annotations

import json

import pytest

from shared.runtime.pool_channel import MAX_ATTEMPTS, channel_options, channel_target, service_config


def test_ipv4_literals_are_one_ipv4_target_and_a_name_a_dns_target():
    assert channel_target(("127.0.0.1:5001", "127.0.0.1:5002")) == "ipv4:127.0.0.1:5001,127.0.0.1:5002"
    assert channel_target(("ephemeris.svc:5001",)) == "dns:///ephemeris.svc:5001"
    assert channel_target(("dns://10.0.0.2/ephemeris:5001",)) == "dns://10.0.0.2/ephemeris:5001"


def test_several_addresses_must_all_be_ipv4_literals():
    with pytest.raises(ValueError, match="one DNS name"):
        channel_target(("a.svc:5001", "b.svc:5001"))


@pytest.mark.parametrize(("processes", "attempts"), [(1, 2), (2, 2), (4, 4), (5, 5), (12, 5)])
def test_a_call_is_retried_once_per_process_between_two_and_five_attempts(processes, attempts):
    config = json.loads(service_config(processes))
    policy = config["methodConfig"][0]["retryPolicy"]
    assert policy["maxAttempts"] == attempts and MAX_ATTEMPTS == 5
    assert set(policy["retryableStatusCodes"]) == {"UNAVAILABLE", "RESOURCE_EXHAUSTED", "CANCELLED"}
    assert config["loadBalancingConfig"] == [{"round_robin": {}}]


def test_keepalive_pings_are_in_milliseconds_and_sent_without_calls():
    options = dict(channel_options(3, keepalive_s=2.5, ping_timeout_s=1.25))
    assert (options["grpc.keepalive_time_ms"], options["grpc.keepalive_timeout_ms"]) == (2500, 1250)
    assert options["grpc.keepalive_permit_without_calls"] == 1 and options["grpc.enable_retries"] == 1


def _client_channel_module():
    """The gRPC package's own channel module (sdk/grpc-template), read from its file: a shipped
    package cannot import ours, so the two copies are held equal here."""
    import importlib.util

    from shared.runtime.config import REPO_ROOT

    path = REPO_ROOT / "sdk" / "grpc-template" / "celestial_grpc" / "channel.py"
    spec = importlib.util.spec_from_file_location("client_channel", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("processes", [1, 2, 3, 5, 12])
def test_the_grpc_packages_channel_is_the_gateways_channel(processes):
    client = _client_channel_module()
    assert client.MAX_ATTEMPTS == MAX_ATTEMPTS
    assert client.service_config(processes) == service_config(processes)
    assert client.channel_options(processes, 1.5, 3.0) == channel_options(processes, 1.5, 3.0)
