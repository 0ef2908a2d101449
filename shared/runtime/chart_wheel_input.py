"""Reader of what a chart wheel draws: its kind, the parameters that kind takes (and only
those), and how its chart or charts are cast, under the rules of the kind's own endpoint.

Validation runs it in the gateway before any charge (the reader of DrawChartWheelRequest,
``shared/runtime/request_readers.py``): a parameter that belongs to another kind
(``transit_datetime`` with ``kind=natal``, ``datetime`` with ``kind=synastry``) is
invalid_parameter, a kind without its own (``kind=transit`` without ``transit_datetime``)
missing_parameter, and a kind's chart refuses what its endpoint refuses (a draconic chart's
dignities, a mundane composite, a progression to before birth), and a ``palette`` naming an
unknown colour or not writing one as ``#rrggbb`` is invalid_parameter, and so is a ``name``
longer than NAME_CHARS or holding a control character (no XML document can carry one). The
ephemeris service calls it to read the request.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace

from google.protobuf.message import Message

from celestial.v1 import ephemeris_service_pb2, options_pb2
from kernel.bodies import RETURNS, check_span, resolve_body
from kernel.chart import MUNDANE
from kernel.errors import InvalidProgression, OutOfRange
from kernel.progressions import progressed_moment
from kernel.timescale import Moment
from shared.errors import InvalidParameter, MissingParameter
from shared.runtime.chart_inputs import ChartInputs, chart_inputs, composite_inputs, draconic_inputs
from shared.runtime.chart_options import chart_request_options
from shared.runtime.kernel_errors import BODY_ERRORS, naming
from shared.runtime.request_model import message_spec
from shared.runtime.wire import (
    birth_from,
    flags_from,
    optional_moment,
    parameter_names,
    sent_moment_name,
    sent_or_default,
)

NATAL, COMPOSITE, DAVISON, DRACONIC = "natal", "composite", "davison", "draconic"
TRANSIT, SYNASTRY, PROGRESSED, RETURN = "transit", "synastry", "progressed", "return"
#: The kinds drawn as a bi-wheel: an inner chart and an outer one.
BIWHEELS = frozenset({TRANSIT, SYNASTRY, PROGRESSED, RETURN})
#: The kinds cast from the ``_a``/``_b`` births; the others from the one birth.
TWO_BIRTHS = frozenset({COMPOSITE, DAVISON, SYNASTRY})
#: The kinds each of the request's kind-bound fields belongs to, by the field (or the
#: flattened value holding it); the other fields (bodies, the chart options, format, theme,
#: size) belong to every kind.
KINDS_OF = {
    "birth": frozenset({NATAL, DRACONIC, TRANSIT, PROGRESSED, RETURN}),
    "birth_a": TWO_BIRTHS,
    "birth_b": TWO_BIRTHS,
    "transit": frozenset({TRANSIT}),
    "target": frozenset({PROGRESSED}),
    "year_days": frozenset({PROGRESSED}),
    "search_start": frozenset({RETURN}),
    "return_body": frozenset({RETURN}),
    "node": frozenset({DRACONIC}),
    # The relocation casts the one birth's instant (and the outer chart's) for another place.
    "relocation": frozenset({NATAL, DRACONIC, TRANSIT, PROGRESSED, RETURN}),
    "relocate": frozenset({NATAL, DRACONIC, TRANSIT, PROGRESSED, RETURN}),
}
#: The colours a ``palette`` may name: the fields of a wheel's theme
#: (shared/pictures/themes.py), in the order the documentation lists them.
PALETTE_NAMES = (
    "background",
    "band",
    "line",
    "text",
    "faint",
    "fire",
    "earth",
    "air",
    "water",
    "conjunction",
    "hard",
    "soft",
    "minor",
)
#: The most characters a chart's ``name`` (the header's first line) may have: the
#: ``(field).max_length`` of DrawChartWheelRequest.name.
NAME_CHARS = (
    ephemeris_service_pb2.DrawChartWheelRequest.DESCRIPTOR.fields_by_name["name"]
    .GetOptions()
    .Extensions[options_pb2.field]
    .max_length
)
#: The characters no XML 1.0 document may hold (the C0 controls but tab, line feed and
#: carriage return, and U+FFFE, U+FFFF), and the other controls, which draw nothing.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ufffe\uffff]")
#: A colour as a palette writes it.
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
#: A palette written right, for the suggestions.
_PALETTE_EXAMPLE = "palette=background:%23101820,text:%23f2aa4c"


@dataclass(frozen=True)
class WheelInput:
    """A chart wheel request read once: its kind, how its chart(s) are cast (one ChartInputs
    for both charts of a bi-wheel, as /v1/synastry casts both with one), and what the kind
    adds: the draconic ``node``, the progressed ``year_days`` and moment, the ``return_body``
    (None, or 0.0, where the kind has none); and the ``palette``, pairs of a theme colour's
    name and its ``#rrggbb`` (lower case), in the order sent."""

    kind: str
    chart: ChartInputs
    node: str | None = None
    year_days: float = 0.0
    progressed: Moment | None = None
    return_body: str | None = None
    palette: tuple[tuple[str, str], ...] = ()


def chart_wheel_input(request: Message) -> WheelInput:
    """Return what a chart wheel request draws and in which colours, refusing a malformed
    palette (InvalidParameter naming it), a parameter of another kind (InvalidParameter naming
    it), a kind's missing parameter (MissingParameter naming it), and what the kind's own
    endpoint refuses."""
    palette = _palette(request.palette)
    _check_name(request.name)
    return replace(_kind_input(request), palette=palette)


def _check_name(name: str) -> None:
    """Refuse a chart's name longer than NAME_CHARS or holding a control character."""
    if len(name) > NAME_CHARS:
        raise InvalidParameter(
            f"name has {len(name)} characters; at most {NAME_CHARS}.",
            suggestion=f"Send a name of at most {NAME_CHARS} characters.",
            param="name",
        )
    if _CONTROL.search(name):
        raise InvalidParameter(
            "name holds a control character (a tab, a line break …), which a picture cannot draw.",
            suggestion="Send the name as one line of printable text.",
            param="name",
        )


def _palette(items: list[str]) -> tuple[tuple[str, str], ...]:
    """Return the palette's pairs (name, colour in lower case), each name once."""
    pairs: dict[str, str] = {}
    for item in items:
        name, colon, colour = (part.strip() for part in item.partition(":"))
        if name not in PALETTE_NAMES:
            close = difflib.get_close_matches(name, PALETTE_NAMES, n=1)
            hint = f"Did you mean {close[0]}? " if close else ""
            raise InvalidParameter(
                f"palette names an unknown colour {name!r}.",
                suggestion=f"{hint}Name colours from: {', '.join(PALETTE_NAMES)}; e.g. {_PALETTE_EXAMPLE}.",
                param="palette",
            )
        if name in pairs:
            raise InvalidParameter(
                f"palette names {name} twice.", suggestion=f"Give {name} one colour.", param="palette"
            )
        if not colon or not _COLOUR.fullmatch(colour):
            # A "#" sent as such ends the URL's query: what reaches us is "background:".
            cut = " A # left unencoded ends the URL: send it as %23." if colon and not colour else ""
            raise InvalidParameter(
                f"palette gives {name} {colour!r}, not a colour #rrggbb.",
                suggestion=(
                    f"Write each colour as {name}:#rrggbb, six hexadecimal digits.{cut} E.g. {_PALETTE_EXAMPLE}."
                ),
                param="palette",
            )
        pairs[name] = colour.lower()
    return tuple(pairs.items())


def _kind_input(request: Message) -> WheelInput:
    """Return what the request's kind draws, under the rules of the kind's own endpoint."""
    kind = request.kind
    _refuse_other_kinds(request, kind)
    _require_births(request, kind)
    if kind == COMPOSITE:
        return WheelInput(kind, _composite(request))
    if kind == DRACONIC:
        return WheelInput(kind, _draconic(request), node=sent_or_default(request, "node")[0])
    chart = chart_inputs(request)
    if kind == TRANSIT and optional_moment(request, "transit") is None:
        raise MissingParameter(
            "kind=transit draws the sky at a moment around the natal chart: send that moment.",
            suggestion="Add transit_datetime (ISO 8601) or transit_jd.",
            param="transit_datetime",
        )
    if kind == PROGRESSED:
        return _progressed(request, chart)
    if kind == RETURN:
        return WheelInput(kind, chart, return_body=_return_body(request))
    return WheelInput(kind, chart)


def _sent_names(request: Message) -> dict[str, str]:
    """Return the parameters a request sent that belong to some kinds only, each with the
    field (or flattened value) that says which kinds (a key of KINDS_OF). A field validation
    fills with its default (a birth's alt) cannot be told from one sent, and is not listed."""
    sent = {}
    for name, field in message_spec(request.DESCRIPTOR).fields.items():
        if field.rule.default and not field.rule.default_by_reader:
            continue
        for path in field.paths:
            holder = path[0] if path else field.field_name
            if holder not in KINDS_OF:
                continue
            owner = request
            for step in path:
                owner = getattr(owner, step)
            present = len(getattr(owner, field.field_name)) > 0 if field.repeated else owner.HasField(field.field_name)
            if present:
                sent[name] = holder
                break
    return sent


def _refuse_other_kinds(request: Message, kind: str) -> None:
    for name, holder in _sent_names(request).items():
        kinds = sorted(KINDS_OF[holder])
        if kind in kinds:
            continue
        taken_by = f"kind={kinds[0]}" if len(kinds) == 1 else f"kind={kinds[0]} (or {', '.join(kinds[1:])})"
        if holder == "birth" and kind in TWO_BIRTHS:
            # The one birth sent where the kind takes two: the same value under the _a/_b names.
            suggestion = f"Send {name}_a and {name}_b, kind={kind}'s two births, or send {taken_by}."
        elif holder in ("birth_a", "birth_b") and kind not in TWO_BIRTHS:
            suggestion = f"Send the birth as {name[:-2]}, or send {taken_by}."
        else:
            suggestion = f"Drop {name}, or send {taken_by}."
        raise InvalidParameter(
            f"{name} belongs to {taken_by}; kind={kind} does not take it.", suggestion=suggestion, param=name
        )


def _require_births(request: Message, kind: str) -> None:
    """Read the kind's birth(s) once, so a missing moment or place is MissingParameter naming
    its parameter (datetime, lat, or datetime_a ...) here, before any charge."""
    for value in ("birth_a", "birth_b") if kind in TWO_BIRTHS else ("birth",):
        birth_from(request, value)


def _composite(request: Message) -> ChartInputs:
    """Return the composite's settings under /v1/composite's rules. ``resolution`` is refused:
    on /v1/composite it chooses the arc (nearest or far), which the chart options' lower or
    higher cannot say; the wheel draws the nearest arc's composite, /v1/composite's default."""
    if sent_or_default(request, "resolution")[1]:
        raise InvalidParameter(
            "kind=composite draws the nearest arc's composite; resolution (lower or higher) chooses a natal chart's "
            "midpoints, not a composite's arc.",
            suggestion="Drop resolution, or ask /v1/composite for resolution=far.",
            param="resolution",
        )
    return composite_inputs(request)


def _draconic(request: Message) -> ChartInputs:
    """Return the draconic chart's settings under /v1/draconic's rules, which take only zodiacal
    house positions (its house_position_mode offers no other)."""
    if chart_request_options(request).house_position_mode == MUNDANE:
        raise InvalidParameter(
            "A draconic chart keeps the natal houses by zodiacal position only.",
            suggestion="Use house_position_mode=zodiacal.",
            param="house_position_mode",
        )
    return draconic_inputs(request)


def _progressed(request: Message, chart: ChartInputs) -> WheelInput:
    """Return the progression as /v1/progressed reads it (shared/runtime/progression.py): one
    day after birth for each ``year_days`` to the target, a target before birth refused."""
    target = optional_moment(request, "target")
    if target is None:
        raise MissingParameter(
            "kind=progressed progresses the natal chart to a moment: send that moment.",
            suggestion="Add target_datetime (ISO 8601) or target_jd.",
            param="target_datetime",
        )
    natal, _place = birth_from(request)
    year_days = sent_or_default(request, "year_days")[0]
    with naming(sent_moment_name(request, "target"), also=(InvalidProgression,)):
        moment = progressed_moment(natal, target, year_days)
    return WheelInput(PROGRESSED, chart, year_days=year_days, progressed=moment)


def _return_body(request: Message) -> str:
    """Return the returning body as /v1/returns reads it (eligible under the request's centre,
    with an ephemeris at the natal moment and at the search's start)."""
    if not request.HasField("return_body"):
        raise MissingParameter(
            "kind=return draws a solar or a lunar return: say which.",
            suggestion="Add return_body=sun or return_body=moon.",
            param="return_body",
        )
    search_from = optional_moment(request, "search_start")
    if search_from is None:
        names = parameter_names(request.DESCRIPTOR, "search_start")
        raise MissingParameter(
            "kind=return draws the first return after a moment: send that moment.",
            suggestion=f"Add {names['datetime']} (ISO 8601) or {names['jd']}.",
            param=names["datetime"],
        )
    heliocentric = flags_from(request, "chart.options").heliocentric
    with naming("return_body", also=BODY_ERRORS):
        body = resolve_body(request.return_body, RETURNS, heliocentric=heliocentric)
    natal, _place = birth_from(request)
    with naming(sent_moment_name(request, "birth.moment"), also=(OutOfRange,), reading=False):
        check_span(body, natal.jd_ut1)
    with naming(sent_moment_name(request, "search_start"), also=(OutOfRange,), reading=False):
        check_span(body, search_from.jd_ut1)
    return body
