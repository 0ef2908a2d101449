"""/v1/chart-wheel (issue 51, part 3): the points a wheel draws beside the bodies, rule by rule,
against /v1/natal-chart's answer for the same parameters: the south node opposite each node
asked for, the lots asked for (derived_points=true with lots=) and the Vertex (with
derived_points=true); format=json lists every point drawn. The points' glyphs, names and
placement are proved in tests/unit/services/test_wheel_points.py and test_wheel_geometry.py."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

WHEEL = "/v1/chart-wheel"
BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
SYNASTRY = {
    "kind": "synastry",
    "datetime_a": "1990-06-15T14:30:00Z",
    "lat_a": 51.5,
    "lon_a": -0.13,
    "datetime_b": "1985-11-02T06:10:00Z",
    "lat_b": -33.87,
    "lon_b": 151.21,
}
LOTS = {"derived_points": "true", "lots": "fortune,spirit", "midpoints": "false", "antiscia": "false"}
SVG = "{http://www.w3.org/2000/svg}"


def _points(svg_text: str, kind: str | None = None) -> list[ET.Element]:
    return [
        g
        for g in ET.fromstring(svg_text).iter(f"{SVG}g")
        if g.get("class") == "point" and kind in (None, g.get("data-kind"))
    ]


def test_the_south_node_is_drawn_opposite_each_node_asked_for_in_the_house_the_chart_gives_it(api):
    params = {**BIRTH, "bodies": "planets,true_node"}  # planets: the ten and the mean node
    chart = api.get("/v1/natal-chart", params=params).json()["data"]
    south = {g.get("data-body"): g for g in _points(api.get(WHEEL, params=params).text, "south_node")}
    assert list(south) == ["mean_south_node", "true_south_node"]
    for node in ("mean_node", "true_node"):
        position = next(p for p in chart["positions"] if p["body"] == node)
        drawn = south[node.replace("_node", "_south_node")]
        assert float(drawn.get("data-longitude")) == pytest.approx((position["longitude"] + 180.0) % 360.0, abs=1e-6)
        assert drawn.get("data-retrograde") == str(position["retrograde"]).lower()
        # A point six signs from its node: in the house opposite the node's, in Placidus too.
        assert int(drawn.get("data-house")) == (position["house"] + 5) % 12 + 1


def test_a_wheel_without_a_node_draws_no_south_node(api):
    wheel = api.get(WHEEL, params={**BIRTH, "bodies": "sun,moon"})
    assert [g.get("data-body") for g in _points(wheel.text)] == ["sun", "moon"]


def test_the_lots_asked_for_and_the_vertex_are_drawn_with_derived_points_at_the_charts_own(api):
    chart = api.get("/v1/natal-chart", params={**BIRTH, **LOTS}).json()["data"]
    svg = api.get(WHEEL, params={**BIRTH, **LOTS}).text
    lots = _points(svg, "lot")
    assert [g.get("data-body") for g in lots] == ["part_of_fortune", "part_of_spirit"]
    derived = [p for p in chart["derived_points"] if p["kind"] == "lot"]
    assert [p["name"] for p in derived] == ["Part of Fortune", "Part of Spirit"]
    for g, lot in zip(lots, derived):
        assert float(g.get("data-longitude")) == pytest.approx(lot["longitude"], abs=1e-6)
        assert int(g.get("data-house")) == lot["house"]
    (vertex,) = _points(svg, "vertex")
    assert float(vertex.get("data-longitude")) == pytest.approx(chart["houses"]["vertex"], abs=1e-6)


@pytest.mark.parametrize(
    "params",
    [{}, {"lots": "fortune"}, {"derived_points": "true"}],
    ids=["neither", "lots without derived_points", "derived_points without lots"],
)
def test_no_lot_is_drawn_unless_asked_for_and_no_vertex_without_derived_points(api, params):
    kinds = {g.get("data-kind") for g in _points(api.get(WHEEL, params={**BIRTH, **params}).text)}
    assert "lot" not in kinds
    assert ("vertex" in kinds) == ("derived_points" in params)


@pytest.mark.parametrize("params", [{**BIRTH, **LOTS}, {**SYNASTRY, **LOTS}], ids=["single", "bi-wheel"])
def test_format_json_lists_every_point_the_svg_draws(api, params):
    data = api.get(WHEEL, params={**params, "format": "json"}).json()["data"]
    drawn = [
        (
            g.get("data-body"),
            g.get("data-kind"),
            g.get("data-ring"),
            float(g.get("data-longitude")),
            int(g.get("data-house")),
        )
        for g in _points(data["svg"])
    ]
    # The SVG draws the outer ring first (under the inner one); the JSON lists the inner ring first.
    drawn.sort(key=lambda point: point[2] != "inner")
    listed = [(p["body"], p["kind"], p.get("ring"), p["longitude"], p["house"]) for p in data["points"]]
    assert [(*point[:3], point[4]) for point in listed] == [(*point[:3], point[4]) for point in drawn]
    assert [point[3] for point in listed] == pytest.approx([point[3] for point in drawn], abs=1e-6)
    assert {p["kind"] for p in data["points"]} == {"body", "south_node", "lot", "vertex"}
