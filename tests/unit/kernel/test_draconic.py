"""The draconic chart, rules 1-7 of interface.md (GET/POST /v1/draconic) that the kernel keeps."""

from __future__ import annotations

import pytest

from kernel.ayanamshas import parse_ayanamsha
from kernel.chart import ChartSettings, cast_chart
from kernel.draconic import require_node, rotate_to_node
from kernel.errors import NoNorthNode
from kernel.houses import parse_house_system
from kernel.positions import CalcFlags, Observer
from kernel.timescale import Moment

BODIES = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "mean_node", "true_node")
PLACE = Observer(40.7, -74.0)
MOMENT = Moment.from_iso("1975-03-02T08:15:00Z")


def settings(**changes) -> ChartSettings:
    return ChartSettings(bodies=BODIES, system=parse_house_system("koch"), **changes)


def natal_and_draconic(node: str = "mean_node", **changes):
    chosen = settings(**changes)
    natal = cast_chart(MOMENT, PLACE, chosen)
    return natal, rotate_to_node(natal, chosen, node, MOMENT)


@pytest.mark.parametrize("node", ["mean_node", "true_node"])
def test_rotation_subtracts_the_node_longitude_from_every_position_cusp_and_angle(node):
    natal, draconic = natal_and_draconic(node)
    turn = next(p.longitude for p in natal.positions if p.body == node)
    for before, after in zip(natal.positions, draconic.positions):
        assert after.longitude == pytest.approx((before.longitude - turn) % 360, abs=1e-9)
        assert after.sign_degree == pytest.approx(after.longitude % 30, abs=1e-9)
    for before, after in zip(natal.houses.cusps_deg, draconic.houses.cusps_deg):
        assert after == pytest.approx((before - turn) % 360, abs=1e-9)
    for angle in ("ascendant_deg", "midheaven_deg", "vertex_deg"):
        assert getattr(draconic.houses, angle) == pytest.approx((getattr(natal.houses, angle) - turn) % 360, abs=1e-9)
    assert draconic.metadata.source == {"type": "draconic", "node_body": node, "node_longitude": turn}
    assert draconic.chart_type == "draconic"


@pytest.mark.parametrize("node", ["mean_node", "true_node"])
def test_the_node_lands_at_exactly_zero(node):
    _, draconic = natal_and_draconic(node)
    landed = next(p for p in draconic.positions if p.body == node)
    assert (landed.longitude, landed.sign, landed.sign_degree) == (0.0, "aries", 0.0)


def test_aspects_are_recomputed_and_parallels_are_the_natal_ones():
    natal, draconic = natal_and_draconic()
    # A rotation keeps every separation, so the same pairs aspect with the same orbs.
    assert [(a.body_a, a.body_b, a.aspect) for a in draconic.aspects] == [
        (a.body_a, a.body_b, a.aspect) for a in natal.aspects
    ]
    for before, after in zip(natal.aspects, draconic.aspects):
        assert after.orb_deg == pytest.approx(before.orb_deg, abs=1e-9)
    assert draconic.parallels == natal.parallels


def test_houses_latitudes_speeds_declinations_and_retrograde_are_the_natal_ones():
    natal, draconic = natal_and_draconic()
    for before, after in zip(natal.positions, draconic.positions):
        assert (after.house, after.latitude, after.speed, after.declination, after.retrograde, after.out_of_bounds) == (
            before.house,
            before.latitude,
            before.speed,
            before.declination,
            before.retrograde,
            before.out_of_bounds,
        )


def test_in_sidereal_mode_the_rotation_is_by_the_sidereal_node_and_gives_the_tropical_draconic_longitudes():
    natal, tropical = natal_and_draconic()
    sidereal_natal, sidereal = natal_and_draconic(flags=CalcFlags(sidereal=parse_ayanamsha("lahiri")))
    sidereal_node = next(p.longitude for p in sidereal_natal.positions if p.body == "mean_node")
    assert sidereal.metadata.source["node_longitude"] == sidereal_node
    for a, b in zip(tropical.positions, sidereal.positions):
        assert abs((a.longitude - b.longitude + 180) % 360 - 180) < 1e-6


def test_a_chart_without_a_node_is_no_north_node():
    with pytest.raises(NoNorthNode):
        require_node(("sun", "moon"))
    require_node(("sun", "moon", "true_node"))  # any node will do: the one turned by is computed


@pytest.mark.parametrize(("listed", "node"), [("true_node", "mean_node"), ("mean_node", "true_node")])
def test_the_node_named_by_node_is_computed_for_the_rotation_whether_or_not_it_is_listed(listed, node):
    # Reference: the same chart cast with both nodes listed, turned by the same node.
    _, both = natal_and_draconic(node)
    one = ChartSettings(bodies=("sun", "moon", listed), system=parse_house_system("koch"))
    draconic = rotate_to_node(cast_chart(MOMENT, PLACE, one), one, node, MOMENT)
    assert draconic.metadata.source == both.metadata.source
    expected = {p.body: p.longitude for p in both.positions}
    assert [p.longitude for p in draconic.positions] == [expected[b] for b in ("sun", "moon", listed)]
    assert draconic.houses.cusps_deg == both.houses.cusps_deg


@pytest.mark.parametrize("system", ["koch", "gauquelin"])
def test_a_draconic_chart_places_derived_points_in_their_natal_houses(system):
    chosen = ChartSettings(bodies=BODIES, system=parse_house_system(system))
    natal = cast_chart(MOMENT, PLACE, chosen)
    draconic = rotate_to_node(natal, chosen, "mean_node", MOMENT)
    turn = draconic.turn_deg
    assert turn == draconic.metadata.source["node_longitude"]
    natal_houses = [natal.placement.house(i + 0.5) for i in range(360)]
    assert [draconic.placement.house((i + 0.5 - turn) % 360) for i in range(360)] == natal_houses
    assert len(set(natal_houses)) == (36 if system == "gauquelin" else 12)
