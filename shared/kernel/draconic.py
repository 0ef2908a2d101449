"""The draconic chart: a chart turned so its North Node falls at 0° Aries (interface.md, draconic rules 1-7)."""

from __future__ import annotations

from dataclasses import replace

from shared.kernel.aspects import Point, find_aspects
from shared.kernel.chart import Chart, ChartSettings
from shared.kernel.errors import NoNorthNode
from shared.kernel.zodiac import normalize_deg, sign_of

#: The bodies a draconic chart may turn by (the spec's `node` parameter).
NODE_BODIES = ("mean_node", "true_node")


def require_node(bodies: tuple[str, ...], node_body: str) -> None:
    """Return None when ``bodies`` include ``node_body``; raise NoNorthNode otherwise."""
    if node_body not in bodies:
        raise NoNorthNode(
            f"A draconic chart turns by the North Node, and bodies does not include {node_body}.",
            suggestion=f"Add {node_body} to bodies (or choose node=mean_node or node=true_node among them).",
            param="bodies",
        )


def rotate_to_node(chart: Chart, settings: ChartSettings, node_body: str) -> Chart:
    """Return ``chart`` turned by its ``node_body``'s longitude (degrees, sidereal when the
    chart is): every longitude, cusp and angle minus that amount, the node at exactly 0.0°,
    aspects found again from the turned longitudes; houses, latitudes, speeds, declinations,
    retrograde and parallels stay the natal ones. ``chart_type`` becomes ``draconic`` and
    ``metadata.source`` ``{type: draconic, node_body, node_longitude}``."""
    require_node(tuple(p.body for p in chart.positions), node_body)
    turn = next(p.longitude for p in chart.positions if p.body == node_body)

    def turned(longitude: float) -> float:
        return normalize_deg(longitude - turn)

    positions = []
    for position in chart.positions:
        longitude = 0.0 if position.body == node_body else turned(position.longitude)
        sign, sign_degree = sign_of(longitude)
        positions.append(replace(position, longitude=longitude, sign=sign.lower(), sign_degree=sign_degree))
    houses = replace(
        chart.houses,
        cusps_deg=[turned(c) for c in chart.houses.cusps_deg],
        ascendant_deg=turned(chart.houses.ascendant_deg),
        midheaven_deg=turned(chart.houses.midheaven_deg),
        vertex_deg=turned(chart.houses.vertex_deg),
    )
    points = [Point(p.body, p.longitude, p.speed, p.declination) for p in positions]
    aspects = find_aspects(points, settings.aspect_types, orb_deg=settings.orb_deg, with_applying=settings.applying)
    metadata = replace(chart.metadata, source={"type": "draconic", "node_body": node_body, "node_longitude": turn})
    return replace(chart, chart_type="draconic", positions=positions, houses=houses, aspects=aspects, metadata=metadata)
