"""The vocabularies of request parameters, one row each: the proto enum a field names in its
``(field).vocabulary``, the check validation applies to its values (the kernel parser, or the
reader that calls it), and the note the reference adds to the parameter's description.

Validation (``validation.py``), the OpenAPI document (``gateway/reference/openapi.py``) and the readers
read it; a new vocabulary is its enum value in ``options.proto`` and its row here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from google.protobuf.message import Message

from celestial.v1 import options_pb2
from kernel.timescale import JD_UT1_MAX, JD_UT1_MIN, SUPPORTED_SPAN_TEXT
from shared.runtime.kernel_errors import BODY_ERRORS, naming
from shared.runtime.request_model import bool_parameter, message_spec
from shared.runtime.request_reading import kept

Check = Callable[[list, str, Message], None]


@dataclass(frozen=True)
class Vocabulary:
    """One vocabulary: its enum value, the check of a parameter's values (``check(values,
    parameter name, request reading)``, raising the parameter's error) and its note for the
    reference ("" for none), and the JSON Schema keywords a value of it always meets
    (the reference adds them to each parameter of it)."""

    enum: int
    check: Check
    note: str = ""
    schema: tuple[tuple[str, float], ...] = ()


# The kernel parsers are imported where they are called, so that importing this module stays
# cheap and free of cycles (the readers import validation, which imports this).
def _check_bodies(values: list[str], param: str, message: Message) -> None:
    from shared.runtime.eligible_body import body_use, eligible_bodies

    if body_use(message.DESCRIPTOR, param):
        eligible_bodies(message, param)
        return
    heliocentric = bool_parameter(message, "heliocentric")
    # Kept as wire.bodies_from keeps it, so the handler's reader finds the bodies read.
    kept(message, ("bodies", param, heliocentric), lambda: _bodies(values, heliocentric, param))


def _check_body(values: list[str], param: str, message: Message) -> None:
    from shared.runtime.eligible_body import body_use, eligible_body

    if body_use(message.DESCRIPTOR, param):
        eligible_body(message, param)
        return
    heliocentric = bool_parameter(message, "heliocentric")
    # Kept as wire.listed_bodies keeps it (a returns search's body: its reader checks the use).
    kept(message, ("bodies", param, heliocentric), lambda: _bodies(values, heliocentric, param))


def _bodies(values: list[str], heliocentric: bool, param: str) -> tuple[str, ...]:
    from kernel.bodies import resolve_bodies

    with naming(param, also=BODY_ERRORS):
        return tuple(resolve_bodies(list(values), heliocentric=heliocentric))


def _check_house_system(values: list[str], param: str, message: Message) -> None:
    from shared.runtime.wire import read_house_system

    # Kept as wire.house_system_from keeps it, so the request's reader finds the system read.
    for value in values:
        kept(message, ("house_system", param), lambda text=value: read_house_system(text, param))


def _check_ayanamsha(values: list[str], param: str, message: Message) -> None:
    from shared.runtime.wire import read_ayanamsha

    # Kept as wire.ayanamsha_from keeps it (the flags' sidereal, a Jyotish ayanamsha).
    for value in values:
        kept(message, ("ayanamsha", param), lambda text=value: read_ayanamsha(text, param))


def _check_aspects(values: list[str], param: str, message: Message) -> None:
    from shared.runtime.wire import read_aspect_types

    # Kept as wire.aspect_types_from keeps them.
    kept(message, ("aspects", param), lambda: read_aspect_types(values, param))


def _check_moment(values: list, param: str, message: Message) -> None:
    # Only the Moment value carries the datetime and jd vocabularies: read the moment holding
    # the parameter as the service reads it (UTC, or the civil time of the request's tz, with
    # its skipped and doubled times; a jd sent with tz).
    from shared.runtime.wire import read_moment

    read_moment(message, ".".join(message_spec(message.DESCRIPTOR).fields[param].path))


def _check_time_zone(values: list[str], param: str, message: Message) -> None:
    from kernel.civil_time import AUTO_ZONE
    from shared.runtime.wire import zone_from

    # Kept as the reading of the moment keeps its zone (wire.zone_from).
    for value in values:
        if value != AUTO_ZONE:
            zone_from(message, value, param)


def _check_place(values: list[str], param: str, message: Message) -> None:
    from shared.runtime.wire import town_from

    # Kept as the readers of the place and of the moment beside it keep the town (wire.town_from).
    for value in values:
        town_from(message, value, param)


VOCABULARIES: dict[int, Vocabulary] = {
    row.enum: row
    for row in (
        Vocabulary(options_pb2.VOCABULARY_BODIES, _check_bodies),
        Vocabulary(options_pb2.VOCABULARY_BODY, _check_body),
        Vocabulary(options_pb2.VOCABULARY_HOUSE_SYSTEM, _check_house_system),
        Vocabulary(
            options_pb2.VOCABULARY_AYANAMSHA,
            _check_ayanamsha,
            (
                "An ayanamsha name (fagan_bradley, lahiri, raman, krishnamurti, ...) or a Swiss Ephemeris "
                "id 2-46. The ids 0 and 1 read as booleans and are refused "
                "(400 invalid_parameter): send fagan_bradley or lahiri by name; leave the parameter out for "
                'the tropical zodiac. In a JSON body the id may be a JSON integer (3) as well as a string ("3").'
            ),
        ),
        Vocabulary(options_pb2.VOCABULARY_ASPECTS, _check_aspects),
        Vocabulary(
            options_pb2.VOCABULARY_DATETIME, _check_moment, f"ISO 8601, ASCII digits; from {SUPPORTED_SPAN_TEXT}."
        ),
        Vocabulary(
            options_pb2.VOCABULARY_JULIAN_DAY,
            _check_moment,
            schema=(("minimum", JD_UT1_MIN), ("maximum", JD_UT1_MAX)),
        ),
        Vocabulary(
            options_pb2.VOCABULARY_TIME_ZONE,
            _check_time_zone,
            (
                "An IANA time zone of the tz database (Europe/Paris, America/New_York, Asia/Kolkata). "
                "With it, a datetime without an offset is the civil time there on that date; the answer's "
                "meta.moment says how each was read (local time, zone, abbreviation, UTC offset, UTC). A "
                "time the clocks skipped is 400 nonexistent_local_time; one they showed twice is 400 "
                "ambiguous_local_time naming both instants, unless fold chooses."
            ),
        ),
        Vocabulary(options_pb2.VOCABULARY_PLACE, _check_place),
    )
}
