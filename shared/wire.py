"""The kernel's values in their wire form: moments from request one-ofs, Instants for replies."""

from __future__ import annotations

from google.protobuf.message import Message

from celestial.v1 import common_pb2
from shared.timescale import Moment


def moment_from(message: Message, datetime_field: str = "datetime", jd_field: str = "jd") -> Moment:
    """Return the Moment a request gives as ISO 8601 UTC ``datetime_field`` or UT1 ``jd_field``."""
    if message.HasField(datetime_field):
        return Moment.from_iso(getattr(message, datetime_field), param=datetime_field)
    return Moment.from_jd_ut1(getattr(message, jd_field))


def instant(moment: Moment) -> common_pb2.Instant:
    """Return the wire Instant (UT1 Julian Day and ISO 8601 UTC with milliseconds) of ``moment``."""
    rendered = moment.instant()
    return common_pb2.Instant(jd=rendered["jd"], datetime=rendered["datetime"])
