"""The draconic chart: a chart turned so its North Node falls at 0° Aries (interface.md, draconic rules 1-7;
decisions.md, Draconic)."""

from __future__ import annotations

from dataclasses import replace

from kernel.aspects import Point, find_aspects
from kernel.bodies import NODE_BODIES
from kernel.chart import Chart, ChartSettings
from kernel.errors import NoNorthNode
from kernel.positions import Observer, compute_positions
from kernel.timescale import Moment
from kernel.zodiac import normalize_deg, sign_key_of


def require_node(bodies: tuple[str, ...]) -> None:
    """Return None when ``bodies`` hold a node (``mean_node`` or ``true_node``); raise NoNorthNode otherwise."""
    if not any(body in NODE_BODIES for body in bodies):
        raise NoNorthNode(
            wording=lambda param: (
                f"A draconic chart turns by the North Node, and {param} holds neither mean_node nor true_node."
            ),
            suggesting=lambda param: f"Add mean_node or true_node to {param}.",
        )


def rotate_to_node(chart: Chart, settings: ChartSettings, node_body: str, moment: Moment) -> Chart:
    """Return ``chart`` (cast at ``moment``) turned by its ``node_body``'s longitude (degrees,
    sidereal when the chart is): every longitude, cusp and angle minus that amount, the node at
    exactly 0.0°, aspects found again from the turned longitudes; houses, latitudes, speeds,
    declinations, retrograde and parallels stay the natal ones. The node is computed with the
    chart's flags when it is not among the chart's bodies. ``chart_type`` becomes ``draconic``,
    ``turn_deg`` the turn and ``metadata.source`` ``{type: draconic, node_body, node_longitude}``."""
    turn = _node_longitude(chart, settings, node_body, moment)

    def turned(longitude: float) -> float:
        return normalize_deg(longitude - turn)

    positions = []
    for position in chart.positions:
        longitude = 0.0 if position.body == node_body else turned(position.longitude)
        sign, sign_degree = sign_key_of(longitude)
        positions.append(replace(position, longitude=longitude, sign=sign, sign_degree=sign_degree))
    cusps = [turned(c) for c in chart.houses.cusps_deg]
    houses = replace(
        chart.houses,
        cusps_deg=cusps,
        ascendant_deg=turned(chart.houses.ascendant_deg),
        midheaven_deg=turned(chart.houses.midheaven_deg),
        vertex_deg=turned(chart.houses.vertex_deg),
    )
    placement = (
        replace(chart.placement, cusps_deg=tuple(cusps), tropical_offset_deg=chart.placement.tropical_offset_deg + turn)
        if chart.placement is not None
        else None
    )
    points = [Point(p.body, p.longitude, p.speed, p.declination) for p in positions]
    aspects = find_aspects(points, settings.aspect_types, orb_deg=settings.orb_deg, with_applying=settings.applying)
    metadata = replace(chart.metadata, source={"type": "draconic", "node_body": node_body, "node_longitude": turn})
    return replace(
        chart,
        chart_type="draconic",
        positions=positions,
        houses=houses,
        aspects=aspects,
        metadata=metadata,
        placement=placement,
        turn_deg=turn,
    )


def _node_longitude(chart: Chart, settings: ChartSettings, node_body: str, moment: Moment) -> float:
    """Return the longitude of ``node_body`` in ``chart`` (degrees, on the chart's zodiac)."""
    listed = next((p.longitude for p in chart.positions if p.body == node_body), None)
    if listed is not None:
        return listed
    place = Observer(chart.metadata.latitude, chart.metadata.longitude, chart.metadata.altitude)
    flags = replace(settings.flags, speed=True, equatorial=False)
    return compute_positions(moment, [node_body], flags, place if flags.topocentric else None).records[0].longitude
