"""Readers of the requests about bodies at one moment without a place: /v1/aspects,
/v1/dignities (a chart without a place: :func:`kernel.chart.cast_chart`'s arguments) and
/v1/solar-proximity. Each reads the moment, the zodiac (a bad ayanamsha is refused even where
the zodiac changes nothing), the resolved bodies and its own options, in the gateway before any
charge; the handler computes from what it returned."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from kernel.chart import ChartSettings
from kernel.chart_extras import ChartExtras
from kernel.dignities import parse_rulership
from kernel.positions import CalcFlags
from kernel.timescale import Moment
from shared.runtime.chart_part_queries import ChartPartQuery
from shared.runtime.kernel_errors import naming
from shared.runtime.wire import aspect_types_from, bodies_from, flags_from, moment_from


@dataclass(frozen=True)
class AspectsQuery:
    """Bodies at a moment and the aspects to find between them: the types, the orb (degrees,
    None for each type's own), whether to say applying, and the parallels' options."""

    moment: Moment
    bodies: tuple[str, ...]
    flags: CalcFlags
    types: list[str]
    orb_deg: float | None
    applying: bool
    parallels: bool
    parallel_orb_deg: float
    contraparallel: bool


@dataclass(frozen=True)
class BodiesQuery:
    """Bodies at a moment, tropical and geocentric (angles between them do not depend on the
    zodiac)."""

    moment: Moment
    bodies: tuple[str, ...]


def aspects_query(request: Message) -> AspectsQuery:
    """Return what an aspects request asks for. Angles between bodies do not depend on the
    zodiac, so the positions are tropical whatever ``sidereal`` says (it is read, so a bad name
    is refused, and then left aside)."""
    flags_from(request)
    flags = CalcFlags(speed=True)
    moment = moment_from(request)
    return AspectsQuery(
        moment,
        bodies_from(request, flags),
        flags,
        aspect_types_from(request),
        request.orb if request.HasField("orb") else None,
        request.applying,
        request.parallels,
        request.parallel_orb,
        request.contraparallel,
    )


def dignities_query(request: Message) -> ChartPartQuery:
    """Return what a dignities request asks for: a chart without a place (so no sect of its
    own: the triplicity only by the ``day_chart`` sent) of its bodies, sidereal with
    ``sidereal``, no aspects; each body's dignities under the ``rulership`` scheme, and their
    dispositors with ``dispositors``."""
    flags = CalcFlags(sidereal=flags_from(request).sidereal)
    moment = moment_from(request)
    bodies = bodies_from(request, flags)
    with naming("rulership"):
        rulers = parse_rulership(request.rulership)
    extras = ChartExtras(
        dignities=True,
        dispositors=request.dispositors,
        rulers=rulers,
        day_chart=request.day_chart if request.HasField("day_chart") else None,
    )
    return ChartPartQuery(moment, None, ChartSettings(bodies, None, flags, aspect_types=(), parallels=False), extras)


def solar_proximity_query(request: Message) -> BodiesQuery:
    """Return the bodies of a solar-proximity request (``sidereal`` read and refused when
    unknown, but a rotated zodiac leaves separations alone)."""
    moment = moment_from(request)
    flags_from(request)
    return BodiesQuery(moment, bodies_from(request, CalcFlags()))
