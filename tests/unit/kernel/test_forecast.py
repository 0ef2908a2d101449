"""A birth's forecast (kernel/forecast.py): one ordered list whose events of each kind are,
record for record, what that kind's own kernel function finds over the same range, with ids
that two overlapping ranges share."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kernel import forecast as fc
from kernel.crossings import sign_ingresses_until
from kernel.deadline import Deadline
from kernel.eclipses import LUNAR, SOLAR, eclipses_between
from kernel.firdaria import firdaria
from kernel.houses import compute_houses, parse_house_system
from kernel.lunations import find_lunations
from kernel.natal_points import natal_points
from kernel.positions import CalcFlags, Observer
from kernel.profections import mean_boundaries, profections
from kernel.releasing import releasing
from kernel.stations import find_stations
from kernel.time_lord_periods import TimeQuery, flatten
from kernel.timescale import Moment
from kernel.transits import EXCLUDE, scan_transits
from kernel.void_of_course_periods import void_periods
from kernel.zodiac import sign_index
from shared.runtime.return_search import find_returns

NEVER = Deadline.never()
PLANETS = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto")
MAJOR = ("conjunction", "sextile", "square", "trine", "opposition")
SETTINGS = fc.ForecastSettings(
    moving=tuple(b for b in PLANETS if b != "moon"),
    natal_bodies=PLANETS,
    aspects=MAJOR,
    orb=1.0,
    station_bodies=PLANETS[2:],
    ingress_bodies=tuple(b for b in PLANETS if b != "moon"),
    phases=("new_moon", "first_quarter", "full_moon", "last_quarter"),
    void_bodies=PLANETS,
    void_aspects=MAJOR,
    profection_from="ascendant",
    profection_months=True,
    year_days=365.2422,
    releasing_from="part_of_spirit",
    releasing_levels=2,
    firdaria_order="nodes_last",
    house_system=parse_house_system("placidus"),
)
BIRTH = Moment.from_iso("1990-06-15T14:30:00Z")
LONDON = Observer(51.5, -0.13)
# February to May 2026: Mercury turns, an annular and a total lunar eclipse, a solar return is not in it.
START, END = Moment.from_iso("2026-02-01T00:00:00Z").jd_ut1, Moment.from_iso("2026-05-01T00:00:00Z").jd_ut1


@pytest.fixture(scope="module")
def chart() -> fc.Chart:
    return fc.natal_chart(BIRTH, LONDON, SETTINGS)


@pytest.fixture(scope="module")
def events(chart) -> list[fc.ForecastEvent]:
    return fc.forecast(chart, START, END, fc.KINDS, SETTINGS, NEVER)


def of(events, kind):
    return [e for e in events if e.kind == kind]


def inside(jd: float) -> bool:
    return START <= jd < END


def test_events_are_ordered_by_instant_then_kind_and_lie_in_the_range(events):
    rank = {kind: index for index, kind in enumerate(fc.KINDS)}
    keys = [(e.jd, rank[e.kind]) for e in events]
    assert keys == sorted(keys) and all(inside(e.jd) for e in events)
    # No firdaria period begins from February to May 2026 (the next sub-period begins in August).
    assert {e.kind for e in events} == set(fc.KINDS) - {fc.FIRDARIA}


def test_transits_are_the_scans_windows_entering_exact_and_leaving_where_the_range_does_not_cut_them(chart, events):
    points = [(name, chart.points.longitudes[name]) for name in (*PLANETS, "ascendant", "midheaven")]
    windows = scan_transits(START, END, SETTINGS.moving, points, MAJOR, 1.0, EXCLUDE, NEVER).events
    expected = []
    for w in windows:
        expected += [] if w.clamped_start else [(fc.ENTER, w.enter, w)]
        expected += [(fc.EXACT, jd, w) for jd in w.exacts if inside(jd)]
        expected += [] if w.clamped_end else [(fc.LEAVE, w.leave, w)]
    found = of(events, fc.TRANSIT)
    assert sorted((e.jd, e.phase, e.bodies, e.point) for e in found) == sorted(
        (jd, phase, (w.moving,), w.target) for phase, jd, w in expected
    )
    # Each event holds its whole window, as the scan records it.
    assert all(event.record in windows for event in found)


def test_stations_are_find_stations_records(events):
    expected = [s for body in SETTINGS.station_bodies for s in find_stations(body, START, END, NEVER)]
    assert sorted((e.record for e in of(events, fc.STATION)), key=lambda s: s.jd) == sorted(
        expected, key=lambda s: s.jd
    )
    assert any(e.bodies == ("mercury",) and e.phase == "station_retrograde" for e in of(events, fc.STATION))


def test_ingresses_are_the_calendars_sign_ingresses(events):
    expected = [
        (body, found) for body in SETTINGS.ingress_bodies for found in sign_ingresses_until(body, START, END, NEVER)
    ]
    assert sorted(((e.bodies[0], e.record) for e in of(events, fc.INGRESS)), key=lambda p: p[1][0].jd) == sorted(
        expected, key=lambda p: p[1][0].jd
    )


def test_lunations_are_find_lunations_records_with_the_natal_house_of_the_moon(events):
    cusps = compute_houses(BIRTH, LONDON.latitude_deg, LONDON.longitude_deg, SETTINGS.house_system).cusps_deg
    found = of(events, fc.LUNATION)
    assert [e.record for e in found] == find_lunations(START, END, list(SETTINGS.phases), NEVER)
    for event in found:
        # The house whose cusp is the last one the Moon's longitude has passed, counted from the cusps.
        passed = [(event.record.moon_longitude_deg - cusp) % 360.0 for cusp in cusps]
        assert event.natal_house == passed.index(min(passed)) + 1


def test_eclipses_are_the_global_eclipses_at_their_maximum(events):
    found = of(events, fc.ECLIPSE)
    assert [(e.record.kind, e.record.eclipse) for e in found] == [
        (kind, eclipse) for kind in (SOLAR, LUNAR) for eclipse in eclipses_between(kind, START, END, NEVER)
    ]
    # 17 February 2026 (annular, Sun at 28°50' Aquarius) and 3 March 2026 (total, Moon at 12°54' Virgo):
    # NASA's Five Millennium Catalogs; the longitudes to 0.02 degrees.
    assert [(e.phase, e.record.eclipse.eclipse_type) for e in found] == [("solar", "annular"), ("lunar", "total")]
    assert [e.record.longitude_deg for e in found] == pytest.approx([328.84, 162.86], abs=0.02)
    assert all(1 <= e.natal_house <= 12 for e in found)


def test_void_of_course_periods_are_void_periods_that_begin_in_the_range(events):
    expected = [
        p for p in void_periods(START, END, [b for b in PLANETS if b != "moon"], MAJOR, NEVER) if inside(p.start_jd)
    ]
    found = of(events, fc.VOID_OF_COURSE)
    assert [e.record for e in found] == expected
    assert all(e.end_jd == e.record.end_jd for e in found)


def test_returns_are_those_v1_returns_finds_from_the_ranges_start(chart, events):
    found = of(events, fc.RETURN)
    for body in ("sun", "moon"):
        mine = [e.record for e in found if e.bodies == (body,)]
        longitude, moments = find_returns(
            body, BIRTH, Moment.from_jd_ut1(START), 5, NEVER, flags=CalcFlags(), place=LONDON, from_param=None
        )
        assert [r.jd for r in mine] == [m.jd_ut1 for m in moments if inside(m.jd_ut1)]
        assert all(r.natal_longitude_deg == pytest.approx(longitude, abs=1e-9) for r in mine)
    assert len(found) == 3  # three lunar returns, no solar one from February to May


def test_time_lord_periods_are_the_techniques_periods_that_begin_in_the_range(chart, events):
    points = natal_points(BIRTH, LONDON, PLANETS, lots=True)
    query = TimeQuery(start_jd=START, end_jd=END)
    birth = BIRTH.jd_ut1
    expected = {
        fc.PROFECTION: profections(
            sign_index(points.longitudes["ascendant"]), birth, mean_boundaries(birth, 365.2422), True, query, NEVER
        ),
        fc.RELEASING: releasing(
            sign_index(points.longitudes["part_of_spirit"]),
            sign_index(points.longitudes["part_of_fortune"]),
            birth,
            2,
            query,
            NEVER,
        ),
        fc.FIRDARIA: firdaria(birth, points.is_day, "nodes_last", 365.2422, query, NEVER),
    }
    for kind, periods in expected.items():
        begun = [p for p in periods if inside(p.start_jd)]
        found = of(events, kind)
        assert [(e.jd, e.end_jd) for e in found] == [(p.start_jd, p.end_jd) for p in begun]
        assert [e.record for e in found] == flatten(begun, query)
    assert len(of(events, fc.PROFECTION)) == 3  # three profection months begin from February to May


def test_an_event_inside_two_overlapping_ranges_has_the_same_id_in_both(chart):
    middle = (START + END) / 2
    first = fc.forecast(chart, START, middle + 20.0, fc.KINDS, SETTINGS, NEVER)
    second = fc.forecast(chart, middle - 20.25, END, fc.KINDS, SETTINGS, NEVER)

    def overlap(events):
        return {e.id: (e.kind, e.phase, e.bodies, e.point) for e in events if middle - 20.25 <= e.jd < middle + 20.0}

    assert overlap(first) and overlap(first) == overlap(second)


def test_ids_differ_with_the_birth_and_the_settings():
    birth = fc.chart_key(BIRTH, LONDON, SETTINGS)
    assert (
        len(
            {
                birth,
                fc.chart_key(Moment.from_jd_ut1(BIRTH.jd_ut1 + 1e-3), LONDON, SETTINGS),
                fc.chart_key(BIRTH, Observer(51.5, -0.12), SETTINGS),
                fc.chart_key(BIRTH, LONDON, replace(SETTINGS, orb=2.0)),
            }
        )
        == 4
    )
    ident = fc.event_id(birth, fc.TRANSIT, fc.EXACT, ("mars",), "sun", 2461100.0)
    assert ident.startswith("fc_") and len(ident) == 27
    # The same minute gives the same id; the next minute another.
    assert fc.event_id(birth, fc.TRANSIT, fc.EXACT, ("mars",), "sun", 2461100.0 + 30.0 / 86400) == ident
    assert fc.event_id(birth, fc.TRANSIT, fc.EXACT, ("mars",), "sun", 2461100.0 + 61.0 / 86400) != ident


def test_kinds_choose_what_is_searched(chart):
    events = fc.forecast(chart, START, END, [fc.STATION, fc.RETURN], SETTINGS, NEVER)
    assert {e.kind for e in events} == {fc.STATION, fc.RETURN}


def test_bodies_keep_the_events_that_concern_one_of_them(events):
    kept = fc.select(events, ["saturn"])
    assert kept and all("saturn" in e.bodies or e.point == "saturn" for e in kept)
    assert [e for e in events if "saturn" in e.bodies or e.point == "saturn"] == kept
    assert fc.select(events, []) == events


def test_moving_keeps_the_events_one_of_its_bodies_moves_in(events):
    kept = fc.select(events, [], ["saturn"])
    assert fc.TRANSIT in {e.kind for e in kept} <= {fc.TRANSIT, fc.STATION, fc.INGRESS}
    assert kept and all(e.bodies == ("saturn",) for e in kept)
    # A transit to natal Saturn moves another body: bodies keeps it, moving does not.
    assert any(e.point == "saturn" and e.bodies != ("saturn",) for e in fc.select(events, ["saturn"]))


def test_lunations_and_eclipses_move_the_sun_and_the_moon_and_void_of_course_the_moon(events):
    by_sun = {e.kind for e in fc.select(events, [], ["sun"])}
    by_moon = {e.kind for e in fc.select(events, [], ["moon"])}
    assert {fc.LUNATION, fc.ECLIPSE} <= by_sun and fc.VOID_OF_COURSE not in by_sun
    assert {fc.LUNATION, fc.ECLIPSE, fc.VOID_OF_COURSE, fc.RETURN} <= by_moon


def test_nothing_moves_in_a_time_lord_period_so_moving_drops_them(events):
    lords = {body for e in events if e.kind in fc.TIME_LORD_KINDS for body in e.bodies}
    assert lords and not [e for e in fc.select(events, [], sorted(lords)) if e.kind in fc.TIME_LORD_KINDS]


def test_moving_and_bodies_together_keep_what_both_keep(events):
    both = fc.select(events, ["sun"], ["mars"])
    assert both and all(e.bodies == ("mars",) and e.point == "sun" for e in both)


def test_the_bodies_that_move_in_a_forecast_are_the_luminaries_and_the_settings_moving_bodies():
    assert fc.movers(SETTINGS) == PLANETS


def test_a_range_before_birth_has_no_time_lord_periods(chart):
    events = fc.forecast(
        chart, BIRTH.jd_ut1 - 400.0, BIRTH.jd_ut1 - 10.0, [fc.PROFECTION, fc.RELEASING, fc.FIRDARIA], SETTINGS, NEVER
    )
    assert events == []


def test_an_event_given_its_id_keeps_every_other_field():
    event = fc.ForecastEvent(
        "transit", "exact", 2461000.5, ("mars",), object(), point="sun", end_jd=2461001.5, natal_house=7, id="old"
    )
    given = fc._with_id(event, "fc_new")
    assert given == replace(event, id="fc_new")


def test_each_kind_of_a_whole_forecast_is_that_kind_forecast_alone_to_the_bit(chart, events):
    # The whole forecast shares the void-of-course search's samples with its ingress, return and
    # lunation searches; each kind alone shares nothing. Same events, same instants, same ids.
    for kind in fc.KINDS:
        assert of(events, kind) == fc.forecast(chart, START, END, [kind], SETTINGS, NEVER), kind


def test_the_eclipses_handed_in_give_the_eclipse_events_searched_for(chart, events):
    # An eclipse search finds the same eclipse from any start before it: those found over a
    # wider span, handed in, are the eclipse events the forecast searches for itself.
    wider = [(kind, e) for kind in (SOLAR, LUNAR) for e in eclipses_between(kind, START - 200.0, END + 200.0, NEVER)]
    assert fc.forecast(chart, START, END, fc.KINDS, SETTINGS, NEVER, eclipses=wider) == events
