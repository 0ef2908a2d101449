"""Readers of the Jyotish requests: the conventions of a Vedic chart (ayanamsha, node, house
mode and system, the vargas), of a Vimshottari dasha (ayanamsha, year length, depth, and
the instant or range of the life), of a panchang, of a kundali match, of an ashtakavarga and of a
shadbala (ayanamsha). Validation runs them in the gateway before any charge (the readers of
ComputeVedicChartRequest, ComputeVimshottariDashaRequest, ComputePanchangRequest,
ComputeKundaliMatchRequest, ComputeAshtakavargaRequest and ComputeShadbalaRequest,
``shared/runtime/request_readers.py``); the time-lords service reads the requests through them.
"""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from celestial.v1 import vedic_pb2
from kernel import vimshottari
from kernel.ayanamshas import Ayanamsha
from kernel.houses import HouseSystem
from kernel.time_lord_periods import TimeQuery
from kernel.timescale import require_day_within_span
from kernel.vargas import VARGA_CODES, Varga, parse_varga
from kernel.vedic_chart import BHAVA, HOUSE_MODES, NODE_BODIES
from shared.runtime.closed_sets import bound_to_choices
from shared.runtime.kernel_errors import naming, naming_moment
from shared.runtime.picture_request import picture_parameters, refuse_oversized_png
from shared.runtime.ranges import life_range
from shared.runtime.wire import ayanamsha_from, birth_from, house_system_from, moment_from, sent_moment_name

# The kernel's tables give the Jyotish choices their meaning; the requests' choices are bound to them.
bound_to_choices(
    NODE_BODIES,
    "kernel.vedic_chart.NODE_BODIES",
    (vedic_pb2.ComputeVedicChartRequest, "node"),
    (vedic_pb2.ComputeAshtakavargaRequest, "node"),
    (vedic_pb2.ComputeShadbalaRequest, "node"),
)
bound_to_choices(HOUSE_MODES, "kernel.vedic_chart.HOUSE_MODES", (vedic_pb2.ComputeVedicChartRequest, "houses"))
bound_to_choices(VARGA_CODES, "kernel.vargas.VARGA_CODES", (vedic_pb2.ComputeVedicChartRequest, "vargas"))
YEAR_LENGTHS = bound_to_choices(
    vimshottari.YEAR_LENGTHS,
    "kernel.vimshottari.YEAR_LENGTHS",
    (vedic_pb2.ComputeVimshottariDashaRequest, "year_length"),
)


#: The parameters of a Vedic chart's picture: sent with format=json, unless svg=true draws the
#: SVG beside it, they would draw nothing.
PICTURE_PARAMS = ("style", "theme", "size", "lang")
#: The varga a picture draws beside the rasi when the request names none: the navamsa, the
#: divisional chart every Jyotish program shows with the rasi.
DEFAULT_DRAWN_VARGA = "D9"
#: The charts in a row of the picture (services/timelords/indian_charts/drawing.py).
CHARTS_PER_ROW = 2


@dataclass(frozen=True)
class ChartPicture:
    """How a Vedic chart is drawn: its ``style`` (north_indian, south_indian), ``theme``,
    ``size`` (pixels of each chart) and ``lang``."""

    style: str
    theme: str
    size: int
    lang: str


@dataclass(frozen=True)
class VedicChartInput:
    """A Vedic chart request read once: its ``ayanamsha``, the ``system`` of its bhava cusps
    (None with whole-sign houses), its ``vargas`` in the order sent, each once (with a picture
    and none sent, the navamsa), and its ``picture`` (None with format=json, unless svg=true)."""

    ayanamsha: Ayanamsha
    system: HouseSystem | None
    vargas: tuple[Varga, ...]
    picture: ChartPicture | None = None


@dataclass(frozen=True)
class DashaInput:
    """A Vimshottari request read once: its ``ayanamsha``, its dasha year in days and the
    instant or range it asks about."""

    ayanamsha: Ayanamsha
    year_days: float
    time_query: TimeQuery


def jyotish_ayanamsha(request: Message) -> Ayanamsha:
    """Return the ayanamsha a Jyotish request's ``ayanamsha`` names (InvalidParameter naming
    it), as validation's check read it."""
    return ayanamsha_from(request, "ayanamsha")


def vedic_chart_input(request: Message) -> VedicChartInput:
    """Return what a Vedic chart request asks for: its ayanamsha, its bhava system (with
    houses=bhava only), its vargas (codes in any case, each once) and how it is drawn. A
    picture's parameter sent with format=json (without svg=true) is InvalidParameter naming it,
    and so is svg=true with format svg or png."""
    system = house_system_from(request, "house_system") if request.houses == BHAVA else None
    vargas: list[Varga] = []
    for code in request.vargas:
        with naming("vargas"):
            varga = parse_varga(code)
        if varga not in vargas:
            vargas.append(varga)
    picture = _picture(request)
    if picture is not None and not vargas:
        vargas.append(parse_varga(DEFAULT_DRAWN_VARGA))
    if picture is not None and request.format == "png":
        _refuse_too_large(picture.size, 1 + sum(v.code != "D1" for v in vargas))
    return VedicChartInput(jyotish_ayanamsha(request), system, tuple(vargas), picture)


def _refuse_too_large(size: int, charts: int) -> None:
    """Refuse a PNG of ``charts`` charts of ``size`` pixels larger than a PNG may be
    (InvalidParameter naming size)."""
    columns, rows = min(charts, CHARTS_PER_ROW), -(-charts // CHARTS_PER_ROW)
    refuse_oversized_png(
        size,
        lambda chart_size: (columns * chart_size, rows * chart_size),
        picture=f"A PNG of {charts} charts of {size} pixels",
        fewer="fewer vargas",
    )


def _picture(request: Message) -> ChartPicture | None:
    """Return how the request's chart is drawn, or None for format=json without svg=true
    (refusing a picture's parameter sent with it)."""
    values = picture_parameters(
        request, PICTURE_PARAMS, drawing="the chart", json_answers="the chart's points", beside_json="svg"
    )
    return None if values is None else ChartPicture(**values)


def vimshottari_input(request: Message) -> DashaInput:
    """Return what a Vimshottari request asks for: its ayanamsha, its year length in days and
    its instant or range (at most vimshottari.RANGE_CAP_YEARS)."""
    query = life_range(request, vimshottari.RANGE_CAP_YEARS)
    return DashaInput(jyotish_ayanamsha(request), YEAR_LENGTHS[request.year_length], query)


def panchang_input(request: Message) -> Ayanamsha:
    """Return the ayanamsha a panchang request's nakshatra and yoga are read in, once its
    moment's day can be searched within the supported dates (OutOfRange about the moment)."""
    with naming_moment(sent_moment_name(request)):
        require_day_within_span(moment_from(request).jd_ut1)
    return jyotish_ayanamsha(request)


def kundali_match_input(request: Message) -> Ayanamsha:
    """Return the ayanamsha a kundali match reads both Moons in."""
    return jyotish_ayanamsha(request)


def ashtakavarga_input(request: Message) -> Ayanamsha:
    """Return the ayanamsha an ashtakavarga request's signs are read in."""
    return jyotish_ayanamsha(request)


def shadbala_input(request: Message) -> Ayanamsha:
    """Return the ayanamsha a shadbala request's longitudes are read in, once its birth's day
    (the kala bala's, from the sunset before its sunrise) can be searched within the supported
    dates (OutOfRange about the moment)."""
    with naming_moment(sent_moment_name(request, "birth.moment")):
        require_day_within_span(birth_from(request)[0].jd_ut1, "Vedic day")
    return jyotish_ayanamsha(request)
