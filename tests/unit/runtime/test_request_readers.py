"""The readers of request messages by name (shared/runtime/request_readers.py).

References: options.proto (``(message).reader`` names a request's reader);
contributing.md, Adding an endpoint (a reader is listed in READERS and named in the
message's option); FindLunationsRequest.end (search_service.proto: at most 10 calendar years).
"""

from __future__ import annotations

import pytest

from celestial.v1 import (
    astrocartography_service_pb2,
    ephemeris_service_pb2,
    options_pb2,
    search_service_pb2,
    timelords_service_pb2,
    vedic_pb2,
)
from celestial.v1.common_pb2 import Moment
from kernel.errors import RangeTooLong
from shared.runtime.request_readers import READERS

#: The protos of the pools' requests. Not account_service.proto: its requests are the account
#: resources' (gateway/account_resources.py reads their query or body; their rules are each
#: resource's own), never a service's computation, so they name no reader.
MODULES = (astrocartography_service_pb2, ephemeris_service_pb2, search_service_pb2, timelords_service_pb2, vedic_pb2)


def named_readers() -> dict[str, str]:
    """Return each request message's full name and the reader its options name."""
    named = {}
    for module in MODULES:
        for message in module.DESCRIPTOR.message_types_by_name.values():
            reader = message.GetOptions().Extensions[options_pb2.message].reader
            if reader:
                named[message.full_name] = reader
    return named


def test_every_reader_a_message_names_is_listed():
    assert {message: reader for message, reader in named_readers().items() if reader not in READERS} == {}


def test_every_request_message_names_one_reader():
    """Issue 35, part 1: each request is read once, by the reader its message names, in the
    gateway before any charge and in the service at its edge."""
    requests = {
        message.full_name
        for module in MODULES
        for message in module.DESCRIPTOR.message_types_by_name.values()
        if message.name.endswith("Request")
    }
    assert requests - set(named_readers()) == set()


def test_every_listed_reader_is_named_by_a_message():
    assert set(READERS) - set(named_readers().values()) == set()


def lunations(end: str) -> search_service_pb2.FindLunationsRequest:
    return search_service_pb2.FindLunationsRequest(
        start=Moment(datetime="2000-01-01T00:00:00Z"), end=Moment(datetime=end)
    )


def test_lunations_are_searched_over_at_most_10_calendar_years():
    start, end = READERS["lunations_range"](lunations("2010-01-01T00:00:00Z"))
    assert (start.iso_utc(), end.iso_utc()) == ("2000-01-01T00:00:00.000Z", "2010-01-01T00:00:00.000Z")
    with pytest.raises(RangeTooLong) as caught:
        READERS["lunations_range"](lunations("2010-01-01T00:00:01Z"))
    assert caught.value.param == "end"
