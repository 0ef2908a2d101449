"""The order of significance of a forecast's events (kernel/forecast_significance.py): each
class of the table holds the events it names, a class ranks above the ones after it whatever
the times, and the events of one class keep their time order.

Reference: the table itself (docs/forecast.md, "Ranked by significance"): the order is a
choice, so each rule is tested as stated there, with events made for it."""

from __future__ import annotations

import pytest

from kernel import forecast as fc
from kernel import forecast_significance as sig
from kernel.deadline import Deadline
from kernel.timescale import Moment
from tests.unit.kernel.test_forecast import BIRTH, LONDON, SETTINGS

ORB = 1.0
#: Natal points, degrees: an angle, a luminary and two planets.
POINTS = {"ascendant": 100.0, "sun": 200.0, "venus": 300.0, "mars": 10.0}


def transit(moving: str, phase: str, point: str, day: float = 0.0) -> fc.ForecastEvent:
    return fc.ForecastEvent(fc.TRANSIT, phase, 2461000.5 + day, (moving,), None, point=point)


def eclipse(longitude: float, day: float = 0.0) -> fc.ForecastEvent:
    return fc.ForecastEvent(
        fc.ECLIPSE, "solar", 2461000.5 + day, ("sun", "moon"), fc.EclipseAt("solar", None, longitude)
    )


def event(kind: str, phase: str, bodies: tuple[str, ...], day: float = 0.0) -> fc.ForecastEvent:
    return fc.ForecastEvent(kind, phase, 2461000.5 + day, bodies, None)


#: One event of each class, by the class's name.
SAMPLES = {
    "slow_exact_to_angle_or_luminary": transit("saturn", fc.EXACT, "ascendant"),
    "slow_exact_to_natal_point": transit("pluto", fc.EXACT, "venus"),
    "eclipse_on_natal_point": eclipse(300.5),
    "slow_station": event(fc.STATION, "station_retrograde", ("jupiter",)),
    "slow_window": transit("neptune", fc.ENTER, "sun"),
    "slow_ingress": event(fc.INGRESS, "direct", ("uranus",)),
    "year_opening": event(fc.RETURN, "solar", ("sun",)),
    "other_eclipse": eclipse(50.0),
    "fast_exact_to_angle_or_luminary": transit("mars", fc.EXACT, "sun"),
    "fast_exact_or_station": event(fc.STATION, "station_direct", ("mercury",)),
    "month": event(fc.LUNATION, "full_moon", ("sun", "moon")),
    "fast_window": transit("venus", fc.LEAVE, "mars"),
    "void_of_course": event(fc.VOID_OF_COURSE, "Aries", ("moon",)),
}


def class_of(e: fc.ForecastEvent) -> str:
    return sig.SIGNIFICANCE[sig.significance(e, POINTS, ORB)].name


def test_every_class_of_the_table_has_its_sample_and_the_names_are_distinct():
    assert [c.name for c in sig.SIGNIFICANCE] == list(SAMPLES)


@pytest.mark.parametrize("name", list(SAMPLES))
def test_each_class_holds_the_events_it_names(name):
    assert class_of(SAMPLES[name]) == name


def test_a_class_ranks_above_those_after_it_whatever_their_times():
    # The most significant last in time: the order turns it round.
    reversed_in_time = [
        fc.ForecastEvent(e.kind, e.phase, 2461000.5 + 100 - index, e.bodies, e.record, e.point)
        for index, e in enumerate(SAMPLES.values())
    ]
    ranked = sig.by_significance(sorted(reversed_in_time, key=lambda e: e.jd), POINTS, ORB)
    assert [class_of(e) for e in ranked] == list(SAMPLES)


def test_the_events_of_one_class_keep_their_time_order():
    events = [transit("saturn", fc.EXACT, "venus", day) for day in (3, 1, 2)]
    events += [transit("jupiter", fc.EXACT, "mars", 0.5)]
    assert sig.by_significance(events, POINTS, ORB) == events


def test_the_slow_movers_are_jupiter_saturn_uranus_neptune_and_pluto():
    for body in ("jupiter", "saturn", "uranus", "neptune", "pluto"):
        assert class_of(transit(body, fc.EXACT, "venus")) == "slow_exact_to_natal_point"
    for body in ("sun", "mercury", "venus", "mars"):
        assert class_of(transit(body, fc.EXACT, "venus")) == "fast_exact_or_station"
        assert class_of(event(fc.INGRESS, "direct", (body,))) == "month"


def test_exact_contacts_to_the_angles_and_luminaries_come_first_among_equals():
    for point in ("ascendant", "midheaven", "sun", "moon"):
        assert class_of(transit("uranus", fc.EXACT, point)) == "slow_exact_to_angle_or_luminary"
        assert class_of(transit("venus", fc.EXACT, point)) == "fast_exact_to_angle_or_luminary"
    for point in ("mercury", "mean_node", "pluto"):
        assert class_of(transit("uranus", fc.EXACT, point)) == "slow_exact_to_natal_point"


def test_a_slow_movers_window_ranks_below_its_exact_contacts_and_a_fast_movers_below_every_exact():
    assert class_of(transit("saturn", fc.LEAVE, "ascendant")) == "slow_window"
    assert class_of(transit("mars", fc.ENTER, "ascendant")) == "fast_window"


def test_an_eclipse_falls_on_a_natal_point_within_the_transit_orb_by_conjunction():
    assert class_of(eclipse(300.0 + ORB)) == "eclipse_on_natal_point"
    assert class_of(eclipse(300.0 + ORB + 0.01)) == "other_eclipse"
    # Across 0 degrees: Mars at 10, the eclipse at 9.5.
    assert sig.eclipse_point(fc.EclipseAt("lunar", None, 9.5), {"mars": 10.0, "x": 359.9}, ORB) == "mars"
    assert sig.eclipse_point(fc.EclipseAt("lunar", None, 0.2), {"mars": 10.0, "x": 359.9}, ORB) == "x"
    # The opposite point is not the eclipse's.
    assert class_of(eclipse(120.0)) == "other_eclipse"


def test_an_eclipse_between_two_points_falls_on_the_nearer_and_an_angle_or_luminary_at_equal_distance():
    points = {"venus": 100.0, "sun": 101.0, "mars": 100.4}
    assert sig.eclipse_point(fc.EclipseAt("solar", None, 100.3), points, ORB) == "mars"
    assert sig.eclipse_point(fc.EclipseAt("solar", None, 100.5), {"venus": 100.0, "sun": 101.0}, ORB) == "sun"


def test_the_solar_return_and_a_first_level_period_open_a_year_and_the_rest_come_monthly():
    for kind in (fc.PROFECTION, fc.RELEASING, fc.FIRDARIA):
        assert class_of(event(kind, "level_1", ("mars",))) == "year_opening"
        assert class_of(event(kind, "level_2", ("mars",))) == "month"
    assert class_of(event(fc.RETURN, "lunar", ("moon",))) == "month"


def test_every_event_of_a_real_forecast_has_a_class():
    chart = fc.natal_chart(BIRTH, LONDON, SETTINGS)
    start = Moment.from_iso("2026-01-01T00:00:00Z").jd_ut1
    events = fc.forecast(chart, start, start + 365.0, fc.KINDS, SETTINGS, Deadline.never())
    points = fc.natal_targets(chart, SETTINGS)
    classes = {sig.SIGNIFICANCE[sig.significance(e, points, ORB)].name for e in events}
    assert {"slow_exact_to_natal_point", "slow_station", "month", "fast_window", "void_of_course"} <= classes


def test_an_event_no_class_names_is_an_error_not_a_silent_place():
    with pytest.raises(ValueError, match="No class"):
        sig.significance(event("nonesuch", "x", ("sun",)), POINTS, ORB)
