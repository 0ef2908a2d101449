"""Readers of the requests that cast houses: /v1/houses (the houses alone), /v1/chart (the
positions of /v1/positions and the houses of /v1/houses at one moment) and /v1/lots (a chart
of the lots' own bodies). Validation runs each in the gateway before any charge; the handler
computes from what it returned."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from kernel.ayanamshas import Ayanamsha
from kernel.chart import ChartSettings
from kernel.chart_extras import ChartExtras
from kernel.houses import HouseSystem
from kernel.lots import LOTS, bodies_needed, parse_lots
from kernel.positions import CalcFlags, Observer
from kernel.timescale import Moment
from shared.runtime.kernel_errors import naming
from shared.runtime.positions_query import PositionsQuery, positions_query
from shared.runtime.wire import flags_from, house_system_from, moment_from, required_place


@dataclass(frozen=True)
class HousesQuery:
    """Houses at a moment and place (degrees north and east), in a system and a zodiac."""

    moment: Moment
    latitude_deg: float
    longitude_deg: float
    system: HouseSystem
    sidereal: Ayanamsha | None
    no_nutation: bool


@dataclass(frozen=True)
class ChartQuery:
    """The positions and the houses of one /v1/chart request, at the same moment and flags."""

    positions: PositionsQuery
    houses: HousesQuery


@dataclass(frozen=True)
class LotsQuery:
    """The lots asked for (ids, in the order of :data:`kernel.lots.LOTS` when none was named)
    and the chart that holds them: its moment, place, and settings (the lots' own bodies, the
    house system, the zodiac; no aspects)."""

    moment: Moment
    place: Observer
    settings: ChartSettings
    extras: ChartExtras


def houses_at(request: Message, moment: Moment, flags: CalcFlags, place: str = "location") -> HousesQuery:
    """Return the houses of a request with a place (its value ``place``; MissingParameter
    naming its ``lat`` without one) and a ``system``, at the ``moment`` and under the ``flags``
    (sidereal, no_nutation) read from it already."""
    location = required_place(request, place)
    return HousesQuery(
        moment,
        location.latitude_deg,
        location.longitude_deg,
        house_system_from(request),
        flags.sidereal,
        flags.no_nutation,
    )


def houses_query(request: Message) -> HousesQuery:
    """Return what a /v1/houses request asks for."""
    return houses_at(request, moment_from(request), flags_from(request))


def chart_query(request: Message) -> ChartQuery:
    """Return what a /v1/chart request asks for: its positions (as /v1/positions reads them)
    and its houses at the same moment, under the same flags."""
    positions = positions_query(request)
    return ChartQuery(positions, houses_at(request, positions.moment, positions.flags, place="place"))


def lots_query(request: Message) -> LotsQuery:
    """Return what a /v1/lots request asks for: all seven lots when ``lots`` is empty. A lot's
    bodies are cast whatever ``bodies`` holds."""
    with naming("lots"):
        lot_ids = parse_lots(list(request.lots)) if request.lots else tuple(lot.id for lot in LOTS)
    settings = ChartSettings(
        bodies_needed(lot_ids),
        house_system_from(request),
        CalcFlags(sidereal=flags_from(request).sidereal),
        aspect_types=(),
        parallels=False,
    )
    extras = ChartExtras(derived=True, midpoints=False, antiscia=False, lots=lot_ids)
    return LotsQuery(moment_from(request), required_place(request, "location"), settings, extras)
