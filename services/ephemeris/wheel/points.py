"""The points a wheel draws of a chart: its bodies, in the chart's order, each node followed by
the south node opposite it (drawn whenever a node is, as astrological programs draw the nodal
axis), then the lots the chart was cast with (``derived_points=true`` with ``lots=``, in
their order of evaluation), then, when asked, its Vertex (``houses.vertex``)."""

from __future__ import annotations

from dataclasses import dataclass

from kernel.chart import Chart, zodiacal_house
from kernel.zodiac import normalize_deg

#: What a drawn point is: one of the chart's bodies, the south node opposite a node, a lot, the Vertex.
POINT_KINDS = ("body", "south_node", "lot", "vertex")
#: The south node drawn opposite each node, by the node's name.
SOUTH_NODE_OF = {"mean_node": "mean_south_node", "true_node": "true_south_node"}


@dataclass(frozen=True)
class ChartPoint:
    """One point a wheel draws: its name (``body``: a body's, a south node's, a lot's id or
    vertex), its longitude (degrees, on the chart's zodiac), whether it is retrograde (a south
    node as its node; a lot and the Vertex never), its house in its own chart, and its kind (one
    of POINT_KINDS)."""

    body: str
    longitude: float
    retrograde: bool
    house: int
    kind: str = "body"


def chart_points(chart: Chart, *, vertex: bool = False) -> list[ChartPoint]:
    """Return the points the wheel of ``chart`` (a chart with houses) draws: its bodies, the
    south node after each node, its lots, and its Vertex with ``vertex``. A point beside the
    bodies is placed in the houses as the chart places its derived points (at latitude 0; a
    south node at its node's latitude, negated)."""
    points = []
    for position in chart.positions:
        points.append(ChartPoint(position.body, position.longitude, position.retrograde, position.house or 0))
        if position.body in SOUTH_NODE_OF:
            longitude = normalize_deg(position.longitude + 180.0)
            house = _house(chart, longitude, -position.latitude)
            points.append(ChartPoint(SOUTH_NODE_OF[position.body], longitude, position.retrograde, house, "south_node"))
    points += [ChartPoint(lot.id, lot.longitude, False, _house(chart, lot.longitude), "lot") for lot in chart.lots]
    if vertex and chart.houses is not None:
        longitude = chart.houses.vertex_deg
        points.append(ChartPoint("vertex", longitude, False, _house(chart, longitude), "vertex"))
    return points


def _house(chart: Chart, longitude: float, latitude: float = 0.0) -> int:
    """Return the house of the chart's point at ``longitude`` and ecliptic ``latitude``
    (degrees), as the chart places its derived points."""
    if chart.placement is not None:
        return chart.placement.house(longitude, latitude)
    return zodiacal_house(longitude, list(chart.houses.cusps_deg)) if chart.houses is not None else 0
