"""A request as one process read it (shared/runtime/request_reading.py).

References: the module's contract (each value read from a request is parsed once per process;
a handler reads the message's plain fields through the reading); contributing.md, Adding an
endpoint (``request.query`` is the reader's query).
"""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from shared.runtime.request_reading import RequestReading, kept, message_of


def counting():
    calls = []

    def read():
        calls.append(None)
        return object()

    return calls, read


def test_a_reading_reads_the_messages_fields_as_its_own():
    message = pb.ComputePositionsRequest(bodies=["sun"], equatorial=True)
    reading = RequestReading(message)
    assert (list(reading.bodies), reading.equatorial, reading.HasField("speed")) == (["sun"], True, False)


def test_a_fresh_reading_has_no_query():
    assert RequestReading(pb.ComputePositionsRequest()).query is None


def test_a_value_kept_by_a_reading_is_read_once():
    calls, read = counting()
    reading = RequestReading(pb.ComputePositionsRequest())
    first = kept(reading, ("moment", "moment"), read)
    assert kept(reading, ("moment", "moment"), read) is first
    assert len(calls) == 1


def test_values_under_different_keys_are_read_apart():
    calls, read = counting()
    reading = RequestReading(pb.ComputePositionsRequest())
    assert kept(reading, "a", read) is not kept(reading, "b", read)
    assert len(calls) == 2


def test_a_bare_message_keeps_nothing():
    calls, read = counting()
    message = pb.ComputePositionsRequest()
    kept(message, "a", read)
    kept(message, "a", read)
    assert len(calls) == 2


def test_the_message_of_a_reading_or_of_a_message_is_the_message():
    message = pb.ComputePositionsRequest()
    assert message_of(RequestReading(message)) is message
    assert message_of(message) is message
