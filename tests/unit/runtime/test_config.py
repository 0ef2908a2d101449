"""Settings read from the environment: defaults and overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.runtime.config import default_process_counts, load_settings


def test_the_ephemeris_service_takes_every_core_but_one():
    assert default_process_counts(8)["ephemeris"] == 7
    assert default_process_counts(2)["ephemeris"] == 1


def test_every_service_has_at_least_one_process():
    assert all(count >= 1 for count in default_process_counts(1).values())


def test_process_counts_and_addresses_follow_the_environment():
    settings = load_settings({"CELESTIAL_EPHEMERIS_PROCESSES": "3", "CELESTIAL_SERVICE_BASE_PORT": "61000"})
    assert settings.service_addresses["ephemeris"] == ("127.0.0.1:61000", "127.0.0.1:61001", "127.0.0.1:61002")
    assert settings.service_addresses["timelords"] == ("127.0.0.1:61003",)


def test_nats_is_selected_only_when_its_url_is_set():
    assert load_settings({}).nats_url is None
    assert load_settings({"CELESTIAL_NATS_URL": "nats://127.0.0.1:4222"}).nats_url == "nats://127.0.0.1:4222"


def test_make_runs_default_ports_lie_below_every_ephemeral_port_range():
    # Linux hands out 32768-60999 and IANA reserves 49152-65535 for outgoing connections: a
    # default in there would now and then be held by one and make `make run` fail to bind.
    settings = load_settings({})
    ports = [
        int(address.rsplit(":", 1)[1]) for addresses in settings.service_addresses.values() for address in addresses
    ]
    assert max(ports) < 32768


def test_the_process_recovery_timings_follow_the_environment():
    defaults = load_settings({})
    assert (defaults.service_keepalive_s, defaults.service_ping_timeout_s, defaults.restart_unhealthy_after_s) == (
        1.0,
        2.0,
        5.0,
    )
    short = load_settings(
        {
            "CELESTIAL_SERVICE_KEEPALIVE_S": "0.5",
            "CELESTIAL_SERVICE_PING_TIMEOUT_S": "1",
            "CELESTIAL_RESTART_UNHEALTHY_AFTER_S": "3",
        }
    )
    assert (short.service_keepalive_s, short.service_ping_timeout_s, short.restart_unhealthy_after_s) == (0.5, 1.0, 3.0)


def test_the_queue_wait_follows_the_environment():
    assert load_settings({}).queue_wait_s == 5.0
    assert load_settings({"CELESTIAL_QUEUE_WAIT_S": "2.5"}).queue_wait_s == 2.5


def test_the_mode_is_development_unless_the_environment_says_production():
    assert load_settings({}).production is False
    assert load_settings({"CELESTIAL_MODE": "production"}).production is True


def test_an_unknown_mode_is_refused_rather_than_read_as_development():
    with pytest.raises(ValueError, match="CELESTIAL_MODE"):
        load_settings({"CELESTIAL_MODE": "prod"})


def test_the_development_outbox_lies_in_the_data_folder():
    assert load_settings({"CELESTIAL_DATA_DIR": "/srv/celestial"}).dev_outbox_dir == Path("/srv/celestial/dev-outbox")
