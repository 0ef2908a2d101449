"""The Delta T warning of an answer: a reply whose request moments or result instants lie
outside the Delta T table (``kernel/delta_t_table.py``) carries its prose in ``warnings``, and
each chart cast for a moment outside it the ``low_precision`` condition in its own typed
``warnings`` (interface.md: the top-level list gives the same conditions as prose).

``compute_reply`` applies it to every reply a service computes, so no handler names it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import chain

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from celestial.v1 import common_pb2, options_pb2
from kernel.delta_t_table import clock_time_conditions
from kernel.timescale import JD_UT1_MAX, JD_UT1_MIN
from shared.runtime.request_model import message_spec
from shared.runtime.request_reading import RequestReading
from shared.runtime.wire import read_moment

_MOMENT_VOCABULARIES = (options_pb2.VOCABULARY_DATETIME, options_pb2.VOCABULARY_JULIAN_DAY)
_CHART = common_pb2.Chart.DESCRIPTOR
_INSTANT = common_pb2.Instant.DESCRIPTOR
#: A chart's moment is its metadata's ``datetime``, a UT1 Julian Day.
_CHART_METADATA = common_pb2.ChartMetadata.DESCRIPTOR.full_name


def with_clock_time_warnings(reading: RequestReading, reply: Message) -> Message:
    """Return ``reply`` with the Delta T conditions of the request's moments and of the reply's
    instants added to its ``warnings`` (each once), and to the typed ``warnings`` of each chart
    it holds cast for a moment outside the table; a reply without ``warnings`` as it is."""
    if "warnings" not in reply.DESCRIPTOR.fields_by_name:
        return reply
    conditions = clock_time_conditions(chain(request_jds(reading), reply_jds(reply)))
    for condition in conditions:
        if condition.message not in reply.warnings:
            reply.warnings.append(condition.message)
    if conditions:
        for chart in _charts(reply):
            cast_at = chart.metadata.datetime
            if not JD_UT1_MIN <= cast_at <= JD_UT1_MAX:
                continue  # a chart of no single moment (none is cast outside the span)
            for condition in clock_time_conditions([cast_at]):
                if all(typed.details != condition.message for typed in chart.warnings):
                    chart.warnings.add(kind=condition.kind, details=condition.message)
    return reply


def request_jds(reading: RequestReading) -> Iterator[float]:
    """Yield the UT1 Julian Day of each moment the request sent (as validation read it)."""
    for path in _moment_paths(reading.DESCRIPTOR):
        moment, _ = read_moment(reading, path)
        if moment is not None:
            yield moment.jd_ut1


@cache
def _moment_paths(descriptor: Descriptor) -> tuple[str, ...]:
    """Return the dotted paths of a request's flattened Moment values, each once."""
    paths = {}
    for field in message_spec(descriptor).fields.values():
        if field.rule.vocabulary in _MOMENT_VOCABULARIES and field.path:
            paths[".".join(field.path)] = None
    return tuple(paths)


def reply_jds(message: Message) -> list[float]:
    """Return every instant of a reply as a UT1 Julian Day: each ``Instant``'s and each double
    member named ``jd`` or ``..._jd`` (a Terrestrial Time ``jd_tt`` is no clock time), and each
    chart's moment; a value outside the supported span is no instant (an unset member's 0.0).
    Walked with a stack, into the members that may hold one only (a reply of thousands of
    instants is walked in milliseconds)."""
    found: list[float] = []
    stack = [message]
    while stack:
        held = stack.pop()
        jd_fields, instant_fields, repeated_fields, singular_fields = _instant_fields(held.DESCRIPTOR)
        for name, repeated in jd_fields:
            if repeated:
                found.extend(getattr(held, name))
            else:
                found.append(getattr(held, name))
        for name, repeated in instant_fields:  # read in place: the most common holder by far
            if repeated:
                found.extend([instant.jd for instant in getattr(held, name)])
            else:
                found.append(getattr(held, name).jd)
        for name in repeated_fields:
            stack.extend(getattr(held, name))
        if len(singular_fields) > 2:  # a record of many kinds, one set: one look at what is set
            stack.extend(value for field, value in held.ListFields() if field.name in singular_fields)
        else:
            stack.extend(getattr(held, name) for name in singular_fields if held.HasField(name))
    return [jd for jd in found if JD_UT1_MIN <= jd <= JD_UT1_MAX]


_Fields = tuple[tuple[str, bool], ...]


@cache
def _instant_fields(descriptor: Descriptor) -> tuple[_Fields, _Fields, tuple[str, ...], frozenset[str]]:
    """Return (name, repeated) of a message's double fields that hold a UT1 Julian Day and of
    its Instant fields, then the names of its other repeated and singular message fields whose
    messages may hold one (those holding none are never walked)."""
    jds = tuple(
        (field.name, field.is_repeated)
        for field in descriptor.fields
        if field.type == FieldDescriptor.TYPE_DOUBLE
        and (_names_a_jd(field.name) or (descriptor.full_name == _CHART_METADATA and field.name == "datetime"))
    )
    instants = tuple(
        (field.name, field.is_repeated)
        for field in descriptor.fields
        if field.type == FieldDescriptor.TYPE_MESSAGE and field.message_type is _INSTANT
    )
    walked = [
        field
        for field in descriptor.fields
        if field.type == FieldDescriptor.TYPE_MESSAGE
        and field.message_type is not _INSTANT
        and _may_hold_a_jd(field.message_type, frozenset())
    ]
    repeated = tuple(field.name for field in walked if field.is_repeated)
    return jds, instants, repeated, frozenset(field.name for field in walked if not field.is_repeated)


def _names_a_jd(name: str) -> bool:
    return name == "jd" or name.endswith("_jd")


def _may_hold_a_jd(descriptor: Descriptor, seen: frozenset[str]) -> bool:
    """Return True when a message of ``descriptor``, or one it holds, has a Julian Day field."""
    if descriptor.full_name in seen:
        return False
    if descriptor.full_name == _CHART_METADATA:
        return True
    seen = seen | {descriptor.full_name}
    return any(
        (field.type == FieldDescriptor.TYPE_DOUBLE and _names_a_jd(field.name))
        or (field.type == FieldDescriptor.TYPE_MESSAGE and _may_hold_a_jd(field.message_type, seen))
        for field in descriptor.fields
    )


def _charts(message: Message) -> Iterator[Message]:
    """Yield every Chart message a reply holds, at any depth."""
    if message.DESCRIPTOR is _CHART:
        yield message
        return
    for field in _chart_fields(message.DESCRIPTOR):
        if field.is_repeated:
            for item in getattr(message, field.name):
                yield from _charts(item)
        elif message.HasField(field.name):
            yield from _charts(getattr(message, field.name))


@cache
def _chart_fields(descriptor: Descriptor) -> tuple[FieldDescriptor, ...]:
    """Return a message's fields whose messages are, or may hold, a Chart."""
    return tuple(
        field
        for field in descriptor.fields
        if field.type == FieldDescriptor.TYPE_MESSAGE and _may_hold_a_chart(field.message_type, frozenset())
    )


def _may_hold_a_chart(descriptor: Descriptor, seen: frozenset[str]) -> bool:
    if descriptor is _CHART:
        return True
    if descriptor.full_name in seen:
        return False
    seen = seen | {descriptor.full_name}
    return any(
        field.type == FieldDescriptor.TYPE_MESSAGE and _may_hold_a_chart(field.message_type, seen)
        for field in descriptor.fields
    )
