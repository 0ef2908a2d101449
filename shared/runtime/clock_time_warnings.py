"""The Delta T warning of an answer: a reply whose request moments or result instants lie
outside the Delta T table (``kernel/delta_t_table.py``) carries its prose in ``warnings``, and
each chart cast for a moment outside it the ``low_precision`` condition in its own typed
``warnings`` (interface.md: the top-level list gives the same conditions as prose).

``compute_reply`` applies it to every reply a service computes, so no handler names it.
"""

from __future__ import annotations

import keyword
from collections.abc import Callable, Iterator
from functools import cache
from itertools import chain
from typing import Any

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
    chart's moment; a value outside the supported span is no instant (an unset member's 0.0)."""
    found: list[float] = []
    _WALKERS[message.DESCRIPTOR](message, found)
    return [jd for jd in found if JD_UT1_MIN <= jd <= JD_UT1_MAX]


class _Walkers(dict):
    """The walker of each message type, compiled when first needed (as the reply renderer is,
    ``reply_rendering.py``: Python source from the descriptor, one statement per member that
    holds or may hold an instant, so a reply of thousands of instants is read in milliseconds,
    and a member that can hold none is never read)."""

    def __missing__(self, descriptor: Descriptor) -> Callable[[Message, list[float]], None]:
        walker = self[descriptor] = _compile(descriptor)
        return walker


_WALKERS = _Walkers()


def _compile(descriptor: Descriptor) -> Callable[[Message, list[float]], None]:
    namespace: dict[str, Any] = {"walkers": _WALKERS}
    lines = ["def walk(m, out):"]
    for index, field in enumerate(descriptor.fields):
        # A member named like a Python keyword ("from") is read with getattr.
        read = f"getattr(m, {field.name!r})" if keyword.iskeyword(field.name) else f"m.{field.name}"
        if field.type == FieldDescriptor.TYPE_DOUBLE and (
            _names_a_jd(field.name) or (descriptor.full_name == _CHART_METADATA and field.name == "datetime")
        ):
            lines.append(f"    out.{'extend' if field.is_repeated else 'append'}({read})")
        elif field.type != FieldDescriptor.TYPE_MESSAGE:
            continue
        elif field.message_type is _INSTANT:
            lines.append(
                f"    out.extend([i.jd for i in {read}])" if field.is_repeated else f"    out.append({read}.jd)"
            )
        elif _may_hold_a_jd(field.message_type, frozenset()):
            namespace[f"type_{index}"] = field.message_type
            if field.is_repeated:
                lines += [f"    walk = walkers[type_{index}]", f"    for i in {read}:", "        walk(i, out)"]
            else:
                lines += [f"    if m.HasField({field.name!r}):", f"        walkers[type_{index}]({read}, out)"]
    lines.append("    return None")
    exec(compile("\n".join(lines), f"<instant walker of {descriptor.full_name}>", "exec"), namespace)
    return namespace["walk"]


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
