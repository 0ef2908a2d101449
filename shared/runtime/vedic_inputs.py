"""Readers of the Jyotish requests: the conventions of a Vedic chart (ayanamsha, node, house
mode and system, the vargas), of a Vimshottari dasha (ayanamsha, year length, depth, and
the instant or range of the life), of a panchang and of a kundali match (ayanamsha).
Validation runs them in the gateway before any charge (the readers of
ComputeVedicChartRequest, ComputeVimshottariDashaRequest, ComputePanchangRequest and
ComputeKundaliMatchRequest,
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
from shared.runtime.ranges import life_range
from shared.runtime.wire import ayanamsha_from, house_system_from, moment_from, sent_moment_name

# The kernel's tables give the Jyotish choices their meaning; the requests' choices are bound to them.
bound_to_choices(NODE_BODIES, "kernel.vedic_chart.NODE_BODIES", (vedic_pb2.ComputeVedicChartRequest, "node"))
bound_to_choices(HOUSE_MODES, "kernel.vedic_chart.HOUSE_MODES", (vedic_pb2.ComputeVedicChartRequest, "houses"))
bound_to_choices(VARGA_CODES, "kernel.vargas.VARGA_CODES", (vedic_pb2.ComputeVedicChartRequest, "vargas"))
YEAR_LENGTHS = bound_to_choices(
    vimshottari.YEAR_LENGTHS,
    "kernel.vimshottari.YEAR_LENGTHS",
    (vedic_pb2.ComputeVimshottariDashaRequest, "year_length"),
)


@dataclass(frozen=True)
class VedicChartInput:
    """A Vedic chart request read once: its ``ayanamsha``, the ``system`` of its bhava cusps
    (None with whole-sign houses) and its ``vargas`` in the order sent, each once."""

    ayanamsha: Ayanamsha
    system: HouseSystem | None
    vargas: tuple[Varga, ...]


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
    houses=bhava only) and its vargas (codes in any case, each once)."""
    system = house_system_from(request, "house_system") if request.houses == BHAVA else None
    vargas: list[Varga] = []
    for code in request.vargas:
        with naming("vargas"):
            varga = parse_varga(code)
        if varga not in vargas:
            vargas.append(varga)
    return VedicChartInput(jyotish_ayanamsha(request), system, tuple(vargas))


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
