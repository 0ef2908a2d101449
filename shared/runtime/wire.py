"""Request messages to kernel values, and kernel values to reply messages.

Every service reads its request here, once, at its edge: the moment, the observer, the
calculation flags, the bodies. The readers go by field name, so any request carrying the
spec's names reads the same way, and they raise the same errors, naming the same
parameters, as validation does in the gateway.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cache
from zoneinfo import ZoneInfo

from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message

from celestial.v1 import common_pb2, options_pb2
from kernel.aspects import parse_aspect_types
from kernel.ayanamshas import Ayanamsha, parse_ayanamsha
from kernel.bodies import resolve_bodies
from kernel.civil_time import AUTO_ZONE, LocalReading, ZoneFound, local_mean_time_note, zone_at, zone_named
from kernel.houses import HouseSystem, parse_house_system
from kernel.places import Town, town_from_parameter
from kernel.positions import CalcFlags, Observer
from kernel.timescale import Moment, iso_utc
from shared.errors import ConflictingParameters, MissingParameter
from shared.runtime.kernel_errors import BODY_ERRORS, LOCAL_TIME_ERRORS, naming
from shared.runtime.parameter_text import parse_scalar
from shared.runtime.request_model import message_spec
from shared.runtime.request_reading import RequestReading, kept


def _has(message: Message, name: str) -> bool:
    return name in message.DESCRIPTOR.fields_by_name and message.HasField(name)


@cache
def parameter_names(descriptor: Descriptor, value: str) -> dict[str, str]:
    """Return the HTTP names of the fields of a request's flattened ``value``, a field name or
    a dotted path to a value in a value (field name to parameter name: for ``start``,
    ``{"datetime": "start", "jd": "start_jd"}``; for ``births.birth_a.place``, ``{"lat": "lat_a", ...}``)."""
    path = tuple(value.split("."))
    return {f.field_name: f.name for f in message_spec(descriptor).fields.values() if path in f.paths}


def _value(message: Message, value: str) -> Message:
    """Return the value message a request holds at ``value`` (a field name or a dotted path)."""
    for name in value.split("."):
        message = getattr(message, name)
    return message


def sent_moment_name(message: Message, value: str = "moment") -> str | None:
    """Return the HTTP name of the member of the Moment ``value`` a request sent, or None."""
    which = _value(message, value).WhichOneof("value")
    return parameter_names(message.DESCRIPTOR, value)[which] if which else None


def edge_names(message: Message) -> dict[str, str]:
    """Return the parameters the service's edge names in the kernel's errors about an argument
    that no handler named (``about`` to parameter): a request's own ``moment``, from which most
    handlers compute (a handler computing from another moment names it itself); the house
    system, which every request that casts houses sends as ``system``; the number of events a
    search was asked for and could not find within its body's dates, which every search's
    answer has named ``count``; and a Julian Day the kernel computed itself and found outside
    the supported span (a search run past its end), which has always answered as ``jd``."""
    names = {"system": "system", "count": "count", "jd": "jd"}
    field = message.DESCRIPTOR.fields_by_name.get("moment")
    if field is not None and field.message_type is common_pb2.Moment.DESCRIPTOR:
        sent = sent_moment_name(message)
        if sent is not None:
            names["moment"] = sent
    return names


def optional_moment(message: Message, value: str = "moment") -> Moment | None:
    """Return the Moment a request's ``value`` gives (an ISO 8601 datetime, UTC or the civil
    time of the request's ``tz``, or a UT1 Julian Day, under the parameter names the request
    gives them), or None when it sent neither."""
    return read_moment(message, value)[0]


def read_moment(message: Message, value: str = "moment") -> tuple[Moment | None, LocalReading | None]:
    """Return the Moment of a request's ``value`` (None when it sent neither member) and, for a
    datetime read as civil time in ``tz``, how it was read.

    A ``tz`` that names no zone is invalid_parameter; a ``jd`` with ``tz`` is
    conflicting_parameters; ``fold`` without ``tz`` is missing_parameter; a local time the
    clocks skipped or showed twice is nonexistent_local_time or ambiguous_local_time. A
    request's reading (``request_reading.py``) keeps what it read: it is read once.
    """
    return kept(message, ("moment", value), lambda: _read_moment(message, value))


def _read_moment(message: Message, value: str) -> tuple[Moment | None, LocalReading | None]:
    moment = _value(message, value)
    names = parameter_names(message.DESCRIPTOR, value)
    which = moment.WhichOneof("value")
    zone_param = names.get("tz")
    zone_name = moment.tz if "tz" in names and moment.HasField("tz") else None
    own_zone = _zone_from(message, value)
    if own_zone is not None:
        zone_param, zone_name = own_zone, getattr(message, own_zone)
    fold = moment.fold if "fold" in names and moment.HasField("fold") else None
    town = _town_beside(message, value) if zone_name is None else None
    if fold is not None and zone_name is None and town is None:
        raise MissingParameter(
            f"{names['fold']} chooses between two readings of a local time: it needs {zone_param}.",
            suggestion=(
                f"Send {zone_param} (an IANA zone such as Europe/Paris) with {names['fold']}, or leave "
                f"{names['fold']} out."
            ),
            param=zone_param,
        )
    if which == "datetime":
        if zone_name is None and town is None:
            with naming(names["datetime"]):
                return Moment.from_iso(moment.datetime), None
        if zone_name == AUTO_ZONE:
            found: ZoneFound | None = zone_at(*_coordinates_of(message, value, zone_param))
        elif town is not None:
            found = ZoneFound(town.tz, "place", town.lat, town.lon)
        else:
            found = None
        zone = zone_from(message, found.zone if found else zone_name, zone_param)
        with naming(names["datetime"], also=LOCAL_TIME_ERRORS):
            read, reading = Moment.from_civil_iso(moment.datetime, zone, fold=fold)
        if reading is not None:
            coordinates = (found.lat, found.lon) if found else _optional_coordinates(message, value)
            mean_time = local_mean_time_note(reading, coordinates[1]) if coordinates else None
            note = " ".join(text for text in (mean_time, reading.note) if text) or None
            reading = replace(reading, found=found.as_dict() if found else None, note=note)
        return read, reading
    if which == "jd":
        if zone_name is not None:
            raise ConflictingParameters(
                f"{names['jd']} is a UT1 Julian Day, which no time zone changes; {zone_param} applies to a datetime "
                f"without an offset.",
                suggestion=f"Leave out {zone_param}, or send the local time as {names['datetime']}.",
                param=zone_param,
            )
        with naming(names["jd"]):
            return Moment.from_jd_ut1(moment.jd), None
    return None, None


def _zone_from(message: Message, value: str) -> str | None:
    """Return the request's field that gives the Moment ``value`` its own zone (its
    ``(field).zone_from``) when the request sent it, else None."""
    *path, name = value.split(".")
    holder = _value(message, ".".join(path)) if path else message
    field = _zone_fields(holder.DESCRIPTOR).get(name)
    return field if field is not None and message.HasField(field) else None


@cache
def _zone_fields(descriptor: Descriptor) -> dict[str, str]:
    """Return, for each Moment value of a message with a ``(field).zone_from``, that field's name."""
    return {
        fd.name: fd.GetOptions().Extensions[options_pb2.field].zone_from
        for fd in descriptor.fields
        if fd.GetOptions().Extensions[options_pb2.field].zone_from
    }


@cache
def _stand_ins(descriptor: Descriptor) -> dict[str, str]:
    """Return, for each field of a message that another stands in for (``(field).instead_of``:
    a birth's location), the name of that other field (its place)."""
    stand_ins = {}
    for fd in descriptor.fields:
        instead_of = fd.GetOptions().Extensions[options_pb2.field].instead_of
        if instead_of:
            stand_ins[instead_of] = fd.name
    return stand_ins


def town_from(request: Message | RequestReading, text: str, param: str) -> Town:
    """Return the town a request's parameter ``param`` names by ``text`` (its gazetteer id),
    read once per reading: validation's check of ``place`` keeps it, and the readers of the
    birth and of the moment beside it find it."""
    return kept(request, ("town", param), lambda: _town(text, param))


def _town(text: str, param: str) -> Town:
    with naming(param):
        return town_from_parameter(text)


def zone_from(request: Message | RequestReading, name: str, param: str) -> ZoneInfo:
    """Return the time zone ``name`` a request gives through its parameter ``param`` (a zone
    named, or found at the place for ``auto``), read once per reading: validation's check of
    ``tz`` keeps it, and the reading of the moment finds it."""
    return kept(request, ("time_zone", name), lambda: _zone(name, param))


def _zone(name: str, param: str) -> ZoneInfo:
    with naming(param):
        return zone_named(name)


def _holder_names(message: Message, path: list[str]) -> dict[str, str]:
    """Return the HTTP names of the fields of the value at ``path`` (the request's own at [])."""
    if path:
        return parameter_names(message.DESCRIPTOR, ".".join(path))
    return {f.field_name: f.name for f in message_spec(message.DESCRIPTOR).fields.values() if not f.path}


def _stand_in_town(message: Message, value: str) -> Town | None:
    """Return the town whose id stands in for a request's Place or Location ``value`` (a
    birth's ``place``), or None when none was sent."""
    *path, name = value.split(".")
    holder = _value(message, ".".join(path)) if path else message
    stand_in = _stand_ins(holder.DESCRIPTOR).get(name)
    if stand_in is None or not holder.HasField(stand_in):
        return None
    param = _holder_names(message, path)[stand_in]
    return town_from(message, getattr(holder, stand_in), param)


def _town_beside(message: Message, value: str) -> Town | None:
    """Return the town of the ``place`` sent beside the Moment ``value`` or in a value around
    it (a birth's place, for its moment), or None. A relocation's town is none: the instant
    stays the one sent, read where it was sent."""
    path = value.split(".")[:-1]
    while True:
        holder = _value(message, ".".join(path)) if path else message
        for name, stand_in in _stand_ins(holder.DESCRIPTOR).items():
            if name != RELOCATION and holder.HasField(stand_in):
                return _stand_in_town(message, ".".join((*path, name)))
        if not path:
            return None
        path.pop()


def _coordinates_of(message: Message, value: str, tz_name: str) -> tuple[float, float]:
    """Return the latitude and longitude (degrees) whose zone ``tz=auto`` takes for the Moment
    ``value`` (see :func:`_optional_coordinates`). MissingParameter when the request sent none."""
    coordinates = _optional_coordinates(message, value)
    if coordinates is None:
        raise MissingParameter(
            f"{tz_name}=auto takes the time zone of the request's place: it sent none.",
            suggestion=(
                f"Send lat and lon (or place) with {tz_name}=auto, or name the zone, e.g. {tz_name}=Europe/Paris."
            ),
            param=tz_name,
        )
    return coordinates


def _optional_coordinates(message: Message, value: str) -> tuple[float, float] | None:
    """Return the latitude and longitude (degrees) of the place of the Moment ``value``: the
    place beside it or in a value around it (a birth's lat and lon, or its place's town), else
    the request's own; None when the request sent none."""
    path = value.split(".")[:-1]
    while True:
        holder = _value(message, ".".join(path)) if path else message
        for fd in holder.DESCRIPTOR.fields:
            if fd.name != RELOCATION and fd.message_type is not None and fd.message_type.full_name in _PLACE_VALUES:
                observer = place_from(message, ".".join((*path, fd.name)))
                if observer is not None:
                    return observer.latitude_deg, observer.longitude_deg
        if not path:
            return None
        path.pop()


# The value of a request that casts its chart's instant for another place (relocate_lat and
# relocate_lon, or relocate=<town id>: /v1/natal-chart, /v1/returns, /v1/chart-wheel, /v1/forecast).
RELOCATION = "relocation"
# The parameters that make a datetime without an offset a civil time: a zone, a town.
_ZONE_GIVING = frozenset({options_pb2.VOCABULARY_TIME_ZONE, options_pb2.VOCABULARY_PLACE})
# The values that place a request on the Earth (flattened into lat and lon).
_PLACE_VALUES = frozenset({"celestial.v1.Place", "celestial.v1.Location"})


def local_readings(reading: RequestReading) -> dict[str, dict]:
    """Return, by parameter name, how each datetime a request sent as civil time (with ``tz``,
    or a ``place``'s zone) was read: ``{local, tz, abbreviation, utc_offset_seconds, utc}`` and,
    for a zone found rather than named, ``tz_found`` (``meta.moment``); from the request's
    reading, whose moments validation read already."""
    fields = message_spec(reading.DESCRIPTOR).fields.values()
    if not any(
        field.rule.vocabulary in _ZONE_GIVING and field.owner(reading).HasField(field.field_name) for field in fields
    ):
        return {}  # no civil time: the common case costs one look per zone parameter
    readings = {}
    for field in fields:
        if field.rule.vocabulary == options_pb2.VOCABULARY_DATETIME and field.path:
            _moment, local = read_moment(reading, ".".join(field.path))
            if local is not None:
                readings[field.name] = local.as_dict()
    return readings


def moment_from(message: Message, value: str = "moment") -> Moment:
    """Return the Moment of a request's ``value``; MissingParameter when it sent neither member."""
    moment = optional_moment(message, value)
    if moment is None:
        names = parameter_names(message.DESCRIPTOR, value)
        raise MissingParameter(
            f"One of {names['datetime']} or {names['jd']} is required.",
            suggestion=f"Send exactly one of {names['datetime']} or {names['jd']}.",
            param=names["datetime"],
        )
    return moment


def place_from(message: Message, value: str = "place") -> Observer | None:
    """Return the Observer of a request's Place or Location ``value`` (degrees, metres; a
    Location's altitude is 0), or None when it sent no place. Latitude and longitude come
    together: validation refused one without the other (their ``(field).sent_with``).
    """
    town = _stand_in_town(message, value)
    place = _value(message, value)
    names = parameter_names(message.DESCRIPTOR, value)
    if town is not None:
        return Observer(latitude_deg=town.lat, longitude_deg=town.lon, altitude_m=place.alt if "alt" in names else 0.0)
    if not place.HasField("lat"):
        return None
    altitude = place.alt if "alt" in names else 0.0
    return Observer(latitude_deg=place.lat, longitude_deg=place.lon, altitude_m=altitude)


def required_place(message: Message, value: str = "place") -> Observer:
    """Return the Observer of a request's ``value``; MissingParameter when it sent none."""
    observer = place_from(message, value)
    if observer is None:
        names = parameter_names(message.DESCRIPTOR, value)
        raise MissingParameter(
            f"'{names['lat']}' is required.", suggestion=f"Add {names['lat']} and {names['lon']}.", param=names["lat"]
        )
    return observer


def sent_or_default(message: Message, name: str):
    """Return the value of a request's parameter ``name`` and whether the request sent it: a
    field marked ``(field).default_by_reader`` is left absent by validation, and reads as its
    declared default here."""
    field = message_spec(message.DESCRIPTOR).fields[name]
    owner = field.owner(message)
    if owner.HasField(field.field_name):
        return getattr(owner, field.field_name), True
    return parse_scalar(field, field.rule.default), False


def flags_from(request: Message | RequestReading, value: str = "") -> CalcFlags:
    """Return the calculation flags a request carries in the message at ``value`` (the request
    itself, or a path to the ChartOptions that holds them: ``chart.options``), with the spec's
    defaults for those it lacks; read once per reading."""
    return kept(request, ("flags", value), lambda: _flags_from(request, value))


def _flags_from(request: Message | RequestReading, value: str) -> CalcFlags:
    holder = _value(request, value) if value else request

    def flag(name: str, default: bool = False) -> bool:
        return getattr(holder, name) if _has(holder, name) else default

    sidereal = None
    if _has(holder, "sidereal"):
        sidereal = ayanamsha_from(request, _holder_names(request, value.split(".") if value else [])["sidereal"])
    return CalcFlags(
        sidereal=sidereal,
        equatorial=flag("equatorial"),
        speed=flag("speed", True),
        no_nutation=flag("no_nutation"),
        j2000=flag("j2000"),
        topocentric=flag("topocentric"),
        heliocentric=flag("heliocentric"),
    )


def parameter_value(request: Message | RequestReading, param: str):
    """Return the value of a request's parameter ``param`` (its HTTP name), wherever the
    request holds it (its own field, or one of a flattened value)."""
    field = message_spec(request.DESCRIPTOR).fields[param]
    return getattr(field.owner(request), field.field_name)


def ayanamsha_from(request: Message | RequestReading, param: str = "sidereal") -> Ayanamsha:
    """Return the ayanamsha a request names in its parameter ``param``, read once per reading
    (validation's check keeps it; the flags and the Jyotish readers find it)."""
    return kept(request, ("ayanamsha", param), lambda: read_ayanamsha(parameter_value(request, param), param))


def read_ayanamsha(text: str, param: str) -> Ayanamsha:
    """Return the ayanamsha ``text`` names, its errors naming the parameter ``param``."""
    with naming(param):
        return parse_ayanamsha(text)


def relocation_from(request: Message | RequestReading) -> Observer | None:
    """Return the place a request relocates its chart to (relocate_lat and relocate_lon, or
    the town of relocate; degrees, altitude 0 m), or None when it sent none or takes none."""
    if RELOCATION not in request.DESCRIPTOR.fields_by_name:
        return None
    return place_from(request, RELOCATION)


def relocated_meta(reading: RequestReading) -> dict | None:
    """Return where a request relocated its chart, as ``meta.relocated`` shows it: ``lat`` and
    ``lon`` (degrees north and east) and, for a town sent as ``relocate``, its id (``place``),
    ``name`` and ``country``; None when the request relocates nothing."""
    observer = relocation_from(reading)
    if observer is None:
        return None
    shown: dict = {"lat": observer.latitude_deg, "lon": observer.longitude_deg}
    if reading.HasField("relocate"):
        town = town_from(reading, reading.relocate, "relocate")
        shown.update(place=str(town.id), name=town.name, country=town.country)
    return shown


def chart_place(request: Message | RequestReading, place: Observer) -> Observer:
    """Return the place a request's chart is cast for, its houses, angles and topocentric
    observer: its relocation (:func:`relocation_from`) when it sent one, else ``place`` (the
    birth's). The one substitution of a relocation: every reader of a relocatable request
    casts at the place this returns."""
    return relocation_from(request) or place


def chart_birth_from(reading: RequestReading) -> tuple[Moment, Observer]:
    """Return the moment of a request's ``birth`` and the place its chart is cast for: the
    birth's place, or the request's relocation (:func:`chart_place`)."""
    moment, place = birth_from(reading)
    return moment, chart_place(reading, place)


def birth_from(reading: RequestReading, value: str = "birth") -> tuple[Moment, Observer]:
    """Return the moment and the place of a request's Birth ``value`` (``birth``, ``births.birth_a`` ...),
    from its reading: the moment, the zone and the town validation read, not read again."""
    return moment_from(reading, f"{value}.moment"), required_place(reading, f"{value}.location")


def observer_from(message: Message, flags: CalcFlags, value: str = "place") -> Observer | None:
    """Return the observer of a request's ``value`` (its ``lat``, ``lon`` and ``alt``), or None.

    With ``topocentric`` the place is required (MissingParameter naming ``lat``); validation
    refused it with ``heliocentric`` (the ``(field).excludes`` of topocentric: a heliocentric
    view has no observer on Earth).
    """
    observer = place_from(message, value)
    if flags.topocentric and observer is None:
        raise MissingParameter(
            "topocentric=true needs the observer's place: lat and lon.",
            suggestion="Add lat and lon (and optionally alt), or drop topocentric=true.",
            param="lat",
        )
    return observer


def bodies_from(message: Message, flags: CalcFlags, field: str = "bodies") -> tuple[str, ...]:
    """Return the resolved body names of a request's list ``field`` (groups expanded, once each)."""
    return listed_bodies(message, field, heliocentric=flags.heliocentric)


def listed_bodies(message: Message, field: str = "bodies", *, heliocentric: bool = False) -> tuple[str, ...]:
    """Return the resolved body names of a request's ``field`` (a list, or one name) in the
    frame ``heliocentric`` says (groups expanded, once each), read once per reading:
    validation's check of the body vocabulary keeps them under the same key."""
    value = getattr(message, field)
    values = [value] if isinstance(value, str) else list(value)
    return kept(message, ("bodies", field, heliocentric), lambda: _bodies(values, heliocentric, field))


def _bodies(values: list[str], heliocentric: bool, param: str) -> tuple[str, ...]:
    with naming(param, also=BODY_ERRORS):
        return tuple(resolve_bodies(values, heliocentric=heliocentric))


def house_system_from(request: Message | RequestReading, param: str = "system") -> HouseSystem:
    """Return the house system a request names in its parameter ``param``, read once per
    reading (validation's check keeps it; the request's reader finds it)."""
    return kept(request, ("house_system", param), lambda: read_house_system(parameter_value(request, param), param))


def read_house_system(text: str, param: str) -> HouseSystem:
    """Return the house system ``text`` names, its errors naming the parameter ``param``."""
    with naming(param):
        return parse_house_system(text)


def aspect_types_from(request: Message | RequestReading, param: str = "aspects") -> list[str]:
    """Return the aspect types a request names in its list parameter ``param`` (each once, in
    order), read once per reading (validation's check keeps them; the reader finds them)."""
    return list(kept(request, ("aspects", param), lambda: read_aspect_types(parameter_value(request, param), param)))


def read_aspect_types(values, param: str) -> tuple[str, ...]:
    """Return the aspect types ``values`` name (each once, in order), their errors naming the
    parameter ``param``."""
    with naming(param):
        return tuple(parse_aspect_types(list(values)))


def instant(moment: Moment) -> common_pb2.Instant:
    """Return the wire Instant (UT1 Julian Day and ISO 8601 UTC with milliseconds) of ``moment``."""
    return instant_at(moment.jd_ut1)


def instant_at(jd_ut1: float) -> common_pb2.Instant:
    """Return the wire Instant of a UT1 Julian Day (a computed event's time, no Moment needed)."""
    return common_pb2.Instant(jd=jd_ut1, datetime=iso_utc(jd_ut1))


def fill_instant(field: common_pb2.Instant, jd_ut1: float, text: Callable[[float], str] = iso_utc) -> None:
    """Write the wire Instant of a UT1 Julian Day into ``field``, an Instant inside a reply being
    built, its ISO 8601 text from ``text`` (:func:`iso_utc`, or a remembering form of it): for
    replies of thousands of instants, where building each apart and copying it in costs half
    as much again."""
    field.jd = jd_ut1
    field.datetime = text(jd_ut1)
