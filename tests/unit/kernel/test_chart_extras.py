"""The whole chart cast by the kernel (kernel/chart_extras.py through cast_chart): the
patterns, derived points, lots, dignities and sect a chart is asked for, as plain values.

References: the spec's own rules worked by hand from the chart's positions and angles (the
lot of Fortune, the sect, a midpoint, an antiscion), and the kernel's single-purpose functions
(find_patterns, assess) called here directly on the same chart, so what is checked is that the
chart carries what each rule gives, for the chart's own values.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from kernel.chart import ChartSettings, cast_chart
from kernel.chart_extras import NO_EXTRAS, ChartExtras, operand_bodies
from kernel.composite import cast_composite, composite_longitude
from kernel.dignities import assess, parse_rulership
from kernel.draconic import rotate_to_node
from kernel.errors import MissingValue
from kernel.houses import parse_house_system
from kernel.patterns import PATTERN_TYPES, find_patterns
from kernel.positions import Observer
from kernel.timescale import Moment
from kernel.zodiac import normalize_deg
from shared.runtime.chart_record import chart_record

PLANETS = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto", "mean_node")
PARIS = Observer(48.85, 2.35)
MOMENT = Moment.from_iso("1984-02-11T09:20:00Z")
SETTINGS = ChartSettings(bodies=PLANETS, system=parse_house_system("placidus"))
RULERS = parse_rulership("traditional")
EVERYTHING = ChartExtras(
    patterns=PATTERN_TYPES, derived=True, lots=("part_of_fortune", "part_of_spirit"), dignities=True, rulers=RULERS
)


def _longitudes(chart) -> dict[str, float]:
    return {p.body: p.longitude for p in chart.positions}


def test_a_chart_cast_without_extras_has_none_but_knows_its_sect():
    chart = cast_chart(MOMENT, PARIS, SETTINGS)
    assert (chart.patterns, chart.derived_points, chart.lots, chart.dignities, chart.notes) == ([], [], [], [], [])
    sun = _longitudes(chart)["sun"]
    # By hand: above the horizon is the half of the ecliptic from the Descendant through the
    # Midheaven to the Ascendant, i.e. the Sun at most 180 degrees behind the Ascendant.
    assert chart.day_chart == (normalize_deg(chart.houses.ascendant_deg - sun) <= 180.0)


def test_a_chart_without_the_sun_has_no_sect_of_its_own():
    assert cast_chart(MOMENT, PARIS, replace(SETTINGS, bodies=("moon", "mars"))).day_chart is None


def test_the_lot_of_fortune_is_the_ascendant_plus_moon_minus_sun_by_day_reversed_by_night():
    chart = cast_chart(MOMENT, PARIS, SETTINGS, extras=EVERYTHING)
    sun, moon, ascendant = _longitudes(chart)["sun"], _longitudes(chart)["moon"], chart.houses.ascendant_deg
    fortune = next(lot for lot in chart.lots if lot.id == "part_of_fortune")
    expected = ascendant + moon - sun if chart.day_chart else ascendant + sun - moon
    assert fortune.longitude == pytest.approx(normalize_deg(expected), abs=1e-9)
    placed = next(p for p in chart.derived_points if p.kind == "lot" and p.name == fortune.name)
    assert placed.longitude == fortune.longitude and placed.house == chart.placement.house(fortune.longitude)


def test_a_lot_whose_bodies_the_chart_lacks_is_computed_from_the_same_sky():
    full = cast_chart(MOMENT, PARIS, SETTINGS, extras=EVERYTHING)
    without_sun = cast_chart(MOMENT, PARIS, replace(SETTINGS, bodies=("mars", "venus")), extras=EVERYTHING)
    assert without_sun.day_chart == full.day_chart
    assert [lot.longitude for lot in without_sun.lots] == [lot.longitude for lot in full.lots]


def test_derived_points_are_every_midpoint_then_every_antiscion_then_the_lots_each_in_its_house():
    chart = cast_chart(MOMENT, PARIS, SETTINGS, extras=EVERYTHING)
    kinds = [p.kind for p in chart.derived_points]
    n = len(PLANETS)
    assert kinds.count("midpoint") == n * (n - 1) // 2 and kinds.count("lot") == 2
    assert kinds.index("lot") > max(i for i, kind in enumerate(kinds) if kind != "lot")
    sun_moon = next(p for p in chart.derived_points if p.kind == "midpoint" and set(p.constituents) == {"sun", "moon"})
    sun, moon = _longitudes(chart)["sun"], _longitudes(chart)["moon"]
    by_hand = (
        normalize_deg(sun + normalize_deg(moon - sun) / 2)
        if normalize_deg(moon - sun) < 180
        else normalize_deg(moon + normalize_deg(sun - moon) / 2)
    )
    assert sun_moon.longitude == pytest.approx(by_hand, abs=1e-9)
    antiscion = next(p for p in chart.derived_points if p.kind == "antiscion" and p.name == "sun")
    assert antiscion.longitude == pytest.approx(
        normalize_deg(180.0 - sun), abs=1e-9
    )  # mirrored over 0 Cancer-0 Capricorn
    assert all(p.house == chart.placement.house(p.longitude) for p in chart.derived_points)


def test_dignities_are_each_body_assessed_by_the_charts_own_sect_or_the_one_asked_for():
    chart = cast_chart(MOMENT, PARIS, SETTINGS, extras=EVERYTHING)
    assert chart.dignities == [assess(p.body, p.longitude, RULERS, chart.day_chart) for p in chart.positions]
    night = cast_chart(MOMENT, PARIS, SETTINGS, extras=replace(EVERYTHING, day_chart=not chart.day_chart))
    assert night.day_chart is (not chart.day_chart)
    assert night.dignities == [assess(p.body, p.longitude, RULERS, not chart.day_chart) for p in chart.positions]


def test_patterns_are_those_the_charts_aspects_form():
    chart = cast_chart(MOMENT, PARIS, SETTINGS, extras=EVERYTHING)
    expected = find_patterns(
        list(PLANETS),
        chart.aspects,
        PATTERN_TYPES,
        longitudes=_longitudes(chart),
        houses={p.body: p.house for p in chart.positions},
        stellium_min=3,
        stellium_scope="sign",
    )
    assert chart.patterns == expected and chart.patterns  # this chart forms at least one


def test_a_turned_chart_keeps_the_patterns_of_the_chart_it_turned():
    natal = cast_chart(MOMENT, PARIS, SETTINGS, extras=EVERYTHING)
    draconic = cast_chart(
        MOMENT, PARIS, SETTINGS, extras=EVERYTHING, turn=lambda c: rotate_to_node(c, SETTINGS, "mean_node", MOMENT)
    )
    assert draconic.chart_type == "draconic" and draconic.patterns == natal.patterns
    assert _longitudes(draconic)["mean_node"] == 0.0
    fortune = next(lot for lot in draconic.lots if lot.id == "part_of_fortune")
    natal_fortune = next(lot for lot in natal.lots if lot.id == "part_of_fortune")
    assert fortune.longitude == pytest.approx(normalize_deg(natal_fortune.longitude - draconic.turn_deg), abs=1e-9)


def test_a_composite_composes_the_bodies_its_lots_need_as_it_composes_every_position():
    other = (Moment.from_iso("1986-10-30T22:05:00Z"), Observer(-23.55, -46.63))
    composite = cast_composite(
        (MOMENT, PARIS), other, replace(SETTINGS, bodies=("moon", "mars")), "nearest", EVERYTHING
    )
    full = cast_composite((MOMENT, PARIS), other, SETTINGS, "nearest", NO_EXTRAS)
    sun = _longitudes(full)["sun"]
    assert composite.day_chart == (normalize_deg(composite.houses.ascendant_deg - sun) <= 180.0)
    a, b = cast_chart(MOMENT, PARIS, SETTINGS), cast_chart(*other, SETTINGS)
    assert sun == composite_longitude(_longitudes(a)["sun"], _longitudes(b)["sun"], "nearest")


def test_the_runtime_renders_what_the_kernel_cast_and_computes_nothing():
    chart = cast_chart(MOMENT, PARIS, SETTINGS, extras=EVERYTHING)
    record = chart_record(chart)
    assert [p.pattern for p in record.patterns] == [p.pattern for p in chart.patterns]
    assert [(d.name, d.longitude, d.house) for d in record.derived_points] == [
        (p.name, p.longitude, p.house) for p in chart.derived_points
    ]
    assert [(d.body, d.score) for d in record.dignities] == [(d.body, d.score) for d in chart.dignities]
    bare = chart_record(replace(chart, patterns=[], derived_points=[], dignities=[]))
    assert (len(bare.patterns), len(bare.derived_points), len(bare.dignities)) == (0, 0, 0)


def test_without_a_place_the_triplicity_is_assessed_only_by_the_sect_told():
    untold = cast_chart(MOMENT, None, SETTINGS, extras=ChartExtras(dignities=True, rulers=RULERS))
    told = cast_chart(MOMENT, None, SETTINGS, extras=ChartExtras(dignities=True, rulers=RULERS, day_chart=False))
    assert untold.day_chart is None and all(d.triplicity_ruler is None for d in untold.dignities)
    assert told.dignities == [assess(p.body, p.longitude, RULERS, False) for p in told.positions]


def test_a_derived_point_of_a_chart_without_a_place_has_no_house():
    chart = cast_chart(MOMENT, None, SETTINGS, extras=ChartExtras(derived=True))
    sun, moon = _longitudes(chart)["sun"], _longitudes(chart)["moon"]
    midpoint = next(p for p in chart.derived_points if p.name == "sun/moon")
    # By hand: the midpoint on the shorter arc between the two.
    arc = normalize_deg(moon - sun)
    expected = sun + arc / 2.0 if arc < 180.0 else moon + (360.0 - arc) / 2.0
    assert midpoint.longitude == pytest.approx(normalize_deg(expected), abs=1e-9)
    assert {p.house for p in chart.derived_points} == {None}


def test_lots_in_a_chart_without_a_place_are_the_callers_error():
    with pytest.raises(ValueError):
        cast_chart(MOMENT, None, SETTINGS, extras=ChartExtras(derived=True, lots=("part_of_fortune",), day_chart=True))


def test_a_stellium_by_house_in_a_chart_without_a_place_is_missing_value():
    with pytest.raises(MissingValue):
        cast_chart(MOMENT, None, SETTINGS, extras=ChartExtras(patterns=("stellium",), stellium_scope="house"))


def test_a_dispositor_is_the_ruler_of_the_sign_its_body_stands_in():
    chart = cast_chart(MOMENT, None, SETTINGS, extras=ChartExtras(dispositors=True, rulers=RULERS))
    first_links = [chain.links[0] for chain in chart.dispositors.chains]
    # By hand: a sign is 30 degrees from 0 Aries; the table gives its ruler.
    assert [(link.body, link.dispositor) for link in first_links] == [
        (p.body, RULERS[int(p.longitude // 30)]) for p in chart.positions
    ]


def test_on_the_whole_dial_every_other_pair_is_within_half_a_circle_of_a_body():
    extras = ChartExtras(trees=True, tree_modulus_deg=360.0, tree_orb_deg=180.0)
    chart = cast_chart(MOMENT, None, SETTINGS, extras=extras)
    others = len(PLANETS) - 1
    # By hand: no two points are more than 180 degrees apart, so each tree holds every pair of
    # the other bodies: (n - 1)(n - 2)/2 of them.
    assert [(tree.body, len(tree.hits)) for tree in chart.trees] == [
        (body, others * (others - 1) // 2) for body in PLANETS
    ]


def test_the_bodies_the_extras_need_are_warned_about_after_the_charts_own_and_before_its_houses():
    outside_the_files = Moment.from_iso("1000-01-01T12:00:00Z")
    polar = Observer(70.0, 25.0)
    chart = cast_chart(
        outside_the_files,
        polar,
        replace(SETTINGS, bodies=("uranus",)),
        extras=ChartExtras(derived=True, lots=("part_of_fortune",)),
    )
    assert [c.kind for c in chart.warnings] == ["ephemeris_fallback", "ephemeris_fallback", "high_latitude"]
    # Fortune by day is Ascendant + Moon - Sun: its bodies in the order its formula uses them.
    assert (
        "positions of uranus at" in chart.warnings[0].message
        and "positions of moon, sun at" in chart.warnings[1].message
    )


def test_the_sun_of_the_sect_is_needed_only_with_a_place():
    extras = ChartExtras(dignities=True, rulers=RULERS)
    assert (operand_bodies(extras, ("moon",), placed=True), operand_bodies(extras, ("moon",), placed=False)) == (
        ("sun",),
        (),
    )
