"""Reader of a birth-time sensitivity request (/v1/natal-chart/sensitivity): its bodies, house
system, aspects, zodiac, window, the instant of its profection and how its timeline is drawn,
read once; and the timeline's height, which the reader needs to refuse too large a PNG before
any charge (services/search/sensitivity_timeline/layout.py draws to it). Validation runs
it in the gateway before any charge (the reader of FindBirthTimeSensitivityRequest,
``shared/runtime/request_readers.py``); the search service reads the request through it.
"""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from kernel.ayanamshas import Ayanamsha, parse_ayanamsha
from kernel.birth_time_sensitivity import VEDIC_DEFAULT_AYANAMSHA
from kernel.chart import GAUQUELIN_LETTER
from kernel.errors import BeforeBirth
from kernel.houses import HouseSystem
from kernel.positions import CalcFlags
from shared.errors import InvalidParameter
from shared.runtime.kernel_errors import naming
from shared.runtime.picture_request import picture_parameters, refuse_oversized_png
from shared.runtime.wire import (
    aspect_types_from,
    bodies_from,
    flags_from,
    house_system_from,
    moment_from,
    optional_moment,
)

HOURS_PER_DAY = 24.0
#: The parameters of the timeline picture: sent with format=json, unless svg=true draws the
#: SVG beside it, they would draw nothing.
PICTURE_PARAMS = ("theme", "size", "lang")
#: The timeline is laid out at this width (pixels) and scaled to ``size``: every length below
#: is of that width.
NOMINAL_WIDTH = 1200.0
#: The header's height (a title and three lines: the birth, the window, the zodiac and houses),
#: the time axis' (the birth's label, the local clock's and UTC's ticks), a group's heading
#: row, a fact's row and the margin below the last row.
HEADER_HEIGHT = 118.0
AXIS_HEIGHT = 62.0
GROUP_HEIGHT = 22.0
ROW_HEIGHT = 22.0
BOTTOM_MARGIN = 20.0


@dataclass(frozen=True)
class TimelinePicture:
    """How the timeline is drawn: its ``theme``, ``size`` (width, pixels) and ``lang``."""

    theme: str
    size: int
    lang: str


@dataclass(frozen=True)
class SensitivityInput:
    """A sensitivity request read once: its ``bodies``, house ``system``, ``flags`` (the
    zodiac), ``aspect_types`` and one ``orb_deg`` (None: each type's own), ``window_days``
    either side of the birth, the ``vedic_ayanamsha`` of the nakshatras, the UT1 JD of ``at``
    (None when not sent) and how its timeline is drawn, ``picture`` (None with format=json,
    unless svg=true)."""

    bodies: tuple[str, ...]
    system: HouseSystem
    flags: CalcFlags
    aspect_types: tuple[str, ...]
    orb_deg: float | None
    window_days: float
    vedic_ayanamsha: Ayanamsha
    at_jd: float | None
    picture: TimelinePicture | None = None


def timeline_height(size: int, rows: int, groups: int) -> int:
    """Return the timeline's height in pixels at width ``size`` with ``rows`` facts in
    ``groups`` groups."""
    nominal = HEADER_HEIGHT + AXIS_HEIGHT + groups * GROUP_HEIGHT + rows * ROW_HEIGHT + BOTTOM_MARGIN
    return round(nominal * size / NOMINAL_WIDTH)


def timeline_rows(bodies: int, sidereal: bool, profection: bool) -> tuple[int, int]:
    """Return how many facts and groups the timeline of ``bodies`` bodies has: the angles' two
    signs (and their nakshatras when ``sidereal``), each body's four, the Moon's three Vedic
    facts and with a ``profection`` its lord; a group for the angles, one per body, the Moon's
    Vedic one and the profection's."""
    rows = 2 + (2 if sidereal else 0) + 4 * bodies + 3 + (1 if profection else 0)
    return rows, 1 + bodies + 1 + (1 if profection else 0)


def birth_time_sensitivity_input(request: Message) -> SensitivityInput:
    """Return what a sensitivity request asks. Refuses Gauquelin sectors (InvalidParameter
    naming system), whose 36 sectors are no houses, an ``at`` before the window's last birth
    time (before_birth naming at), for which some births have no profection year yet, a
    picture's parameter sent with format=json without svg=true (InvalidParameter naming it)
    and svg=true with format svg or png (InvalidParameter naming svg)."""
    system = house_system_from(request)
    if system.letter == GAUQUELIN_LETTER:
        raise InvalidParameter(
            "Gauquelin sectors are 36 mundane sectors, not the twelve houses whose changes this reports.",
            suggestion="Choose another house system, e.g. system=placidus.",
            param="system",
        )
    flags = flags_from(request)
    selection = request.aspect_selection
    window_days = request.window_hours / HOURS_PER_DAY
    at = optional_moment(request, "at")
    if at is not None and at.jd_ut1 < moment_from(request, "birth.moment").jd_ut1 + window_days:
        with naming("at", also=(BeforeBirth,)):
            raise BeforeBirth(
                "at falls before the last birth time of the window: its profection year has not begun for every birth.",
                suggestion="Send an instant after the birth plus window_hours.",
                about="at",
            )
    bodies = bodies_from(request, flags)
    picture = _picture(request)
    if picture is not None and request.format == "png":
        rows, groups = timeline_rows(len(bodies), flags.sidereal is not None, at is not None)
        _refuse_too_large(picture.size, rows, groups)
    return SensitivityInput(
        bodies=bodies,
        system=system,
        flags=flags,
        aspect_types=tuple(aspect_types_from(request)),
        orb_deg=selection.orb if selection.HasField("orb") else None,
        window_days=window_days,
        vedic_ayanamsha=flags.sidereal or parse_ayanamsha(VEDIC_DEFAULT_AYANAMSHA),
        at_jd=at.jd_ut1 if at is not None else None,
        picture=picture,
    )


def _picture(request: Message) -> TimelinePicture | None:
    """Return how the request's timeline is drawn, or None for format=json without svg=true
    (refusing a picture's parameter sent with it)."""
    values = picture_parameters(
        request, PICTURE_PARAMS, drawing="the timeline", json_answers="the facts", beside_json="svg"
    )
    return None if values is None else TimelinePicture(**values)


def _refuse_too_large(size: int, rows: int, groups: int) -> None:
    """Refuse a PNG of ``rows`` facts in ``groups`` groups ``size`` pixels wide larger than a
    PNG may be (InvalidParameter naming size)."""
    refuse_oversized_png(
        size,
        lambda width: (width, timeline_height(width, rows, groups)),
        picture=f"A PNG of {rows} facts {size} pixels wide",
        fewer="fewer bodies",
    )
