"""kernel/planetary_hours.py: the planetary day from sunrise to sunrise, its unequal hours and
their rulers in Chaldean order (decisions.md, /v1/planetary-hours; Ptolemy, Tetrabiblos I.4;
Vettius Valens, Anthology I.10), and the sunrises and sunsets that bound it against Skyfield's
almanac (DE421)."""

from __future__ import annotations

import pytest
from skyfield import almanac
from skyfield.api import wgs84

from kernel import engine
from kernel.errors import OutOfRange, PolarDayOrNight
from kernel.planetary_hours import CHALDEAN_ORDER, planetary_day
from kernel.timescale import JD_UT1_MIN, Moment
from tests.unit.kernel.skyfield_reference import de421, timescale

SECONDS_PER_DAY = 86400.0
LONDON = (51.5, -0.13)


def test_the_planetary_day_runs_from_sunrise_to_sunrise_and_holds_the_moment():
    moment = Moment.from_iso("2024-03-20T03:00:00Z")  # before London's sunrise: the day began on the 19th
    day = planetary_day(moment, *LONDON)
    assert day.sunrise_jd <= moment.jd_ut1 < day.next_sunrise_jd
    assert day.sunrise_jd < day.sunset_jd < day.next_sunrise_jd
    assert day.day_ruler == "mars"  # Tuesday 19 March 2024
    assert day.hours[day.current_hour - 1].start_jd <= moment.jd_ut1 < day.hours[day.current_hour - 1].end_jd


def test_day_hours_are_twelfths_of_the_daylight_and_night_hours_twelfths_of_the_night():
    day = planetary_day(Moment.from_iso("2024-06-21T12:00:00Z"), *LONDON)
    day_hour, night_hour = (day.sunset_jd - day.sunrise_jd) / 12.0, (day.next_sunrise_jd - day.sunset_jd) / 12.0
    for hour in day.hours:
        assert hour.end_jd - hour.start_jd == pytest.approx(day_hour if hour.is_day else night_hour, abs=1e-9)
        assert hour.is_day == (hour.number <= 12)
    assert day.hours[0].start_jd == day.sunrise_jd and day.hours[11].end_jd == pytest.approx(day.sunset_jd)
    assert day.hours[12].start_jd == pytest.approx(day.sunset_jd) and day.hours[23].end_jd == day.next_sunrise_jd
    assert all(a.end_jd == b.start_jd for a, b in zip(day.hours, day.hours[1:]))


@pytest.mark.parametrize(
    ("date", "ruler"),
    [
        ("2024-06-16", "sun"),
        ("2024-06-17", "moon"),
        ("2024-06-18", "mars"),
        ("2024-06-19", "mercury"),
        ("2024-06-20", "jupiter"),
        ("2024-06-21", "venus"),
        ("2024-06-22", "saturn"),
    ],
)
def test_the_first_hour_is_ruled_by_the_days_ruler_and_the_rest_follow_the_chaldean_order(date, ruler):
    day = planetary_day(Moment.from_iso(f"{date}T12:00:00Z"), *LONDON)
    assert day.day_ruler == ruler and day.hours[0].ruler == ruler
    start = CHALDEAN_ORDER.index(ruler)
    assert [h.ruler for h in day.hours] == [CHALDEAN_ORDER[(start + i) % 7] for i in range(24)]


def test_the_weekday_is_the_local_one_far_east_and_far_west():
    # Sunday 16 June 2024 dawns in Kiribati (lon +172) while it is still Saturday in UTC.
    assert planetary_day(Moment.from_iso("2024-06-15T20:00:00Z"), 1.4, 172.9).day_ruler == "sun"
    assert (
        planetary_day(Moment.from_iso("2024-06-16T20:00:00Z"), 21.3, -157.8).day_ruler == "sun"
    )  # Honolulu, Sunday afternoon


@pytest.mark.parametrize("when", ["2024-06-21T12:00:00Z", "2024-12-21T12:00:00Z"], ids=["polar-day", "polar-night"])
def test_where_the_sun_does_not_rise_or_set_there_are_no_planetary_hours(when):
    with pytest.raises(PolarDayOrNight) as raised:
        planetary_day(Moment.from_iso(when), 78.2, 15.6)  # Longyearbyen
    assert raised.value.http_status == 400


# Sunrise and sunset. Skyfield's almanac puts the Sun's centre at -0.8333° (34' of refraction,
# 16' of semidiameter, both fixed); Swiss Ephemeris takes the upper limb with the day's real
# semidiameter (15.7'-16.3') and its refraction for 1013.25 hPa and 10 °C (about 34.5'). The
# horizons differ by up to 0.03°, which the Sun crosses in a few seconds at low and middle
# latitudes and in more where it rises slantwise: 8 s up to 52° and 20 s at 64°.
PLACES = [(51.5, -0.13, 8.0), (0.0, 30.0, 8.0), (-33.9, 151.2, 8.0), (40.7, -74.0, 8.0), (64.1, -21.9, 20.0)]
DATES = [(1950, 12, 1), (2000, 1, 10), (2010, 6, 21), (2024, 3, 20), (2035, 9, 15)]
SKYFIELD_HORIZON_DEG = -0.8333
HORIZON_DIFFERENCE_DEG = 0.03
# Swiss Ephemeris's searcher can pass over an event within minutes of its starting time at
# high latitude; each of our searches starts this long before Skyfield's event.
SEARCH_LEAD_DAYS = 0.1


@pytest.mark.parametrize(("latitude", "longitude", "tolerance_s"), PLACES)
@pytest.mark.parametrize("date", DATES, ids=lambda d: "-".join(map(str, d)))
def test_sunrise_and_sunset_match_skyfields_almanac(latitude, longitude, tolerance_s, date):
    ts, ephemeris = timescale(), de421()
    start, end = ts.utc(*date), ts.utc(date[0], date[1], date[2] + 1)
    observer = ephemeris["earth"] + wgs84.latlon(latitude, longitude)
    compared = 0
    for finder, rising in ((almanac.find_risings, True), (almanac.find_settings, False)):
        times, _ = finder(observer, ephemeris["sun"], start, end)
        for reference in times:
            ours = engine.next_sun_rise_or_set(
                reference.ut1 - SEARCH_LEAD_DAYS, latitude, longitude, 0.0, rising=rising
            ).jd_ut1
            assert abs(ours - reference.ut1) * SECONDS_PER_DAY < tolerance_s
            altitude = observer.at(ts.ut1_jd(ours)).observe(ephemeris["sun"]).apparent().altaz()[0].degrees
            assert abs(altitude - SKYFIELD_HORIZON_DEG) < HORIZON_DIFFERENCE_DEG
            compared += 1
    assert compared == 2, "every one of these places sees one sunrise and one sunset that day"


def test_a_planetary_day_that_begins_before_the_supported_dates_is_out_of_range():
    with pytest.raises(OutOfRange) as raised:
        planetary_day(Moment.from_jd_ut1(JD_UT1_MIN), *LONDON)
    assert raised.value.http_status == 400 and raised.value.about == "moment"
    assert planetary_day(Moment.from_jd_ut1(JD_UT1_MIN + 2.0), *LONDON).sunrise_jd >= JD_UT1_MIN
