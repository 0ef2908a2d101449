"""Stations and retrograde periods (kernel/stations.py) against Skyfield (DE421): a station
is where the apparent geocentric ecliptic longitude of date stops and turns."""

from __future__ import annotations

import random

import numpy as np
import pytest
from skyfield.framelib import ecliptic_frame
from skyfield.searchlib import find_discrete

from kernel.crossings import longitude_offset
from kernel.deadline import Deadline
from kernel.stations import (
    STATION_DIRECT,
    STATION_RETROGRADE,
    find_stations,
    retrograde_periods,
    station_cells,
    station_grid_samples,
)
from kernel.timescale import Moment
from tests.unit.kernel.skyfield_reference import DE421_TARGETS, de421, timescale

NEVER = Deadline.never()
SECONDS_PER_DAY = 86400.0
ARCSEC_DEG = 1.0 / 3600.0
# The bounds. Near a station the longitude is flat, so the instant is ill-conditioned:
# a difference of a milliarcsecond a day in the speed of two ephemerides (Swiss Ephemeris on
# DE431, DE421) moves the zero of the speed by the speed's slope, Mercury's ~0.1°/day², which
# turns 1 mas/day into ~0.03 s; the outer planets' slopes are a hundred times gentler. 5 minutes
# holds every planet with a wide margin; the longitude there hardly depends on the instant.
STATION_TIME_TOLERANCE_S = 300.0
STATION_LONGITUDE_TOLERANCE_DEG = 5.0 * ARCSEC_DEG
# Skyfield's rate of longitude is a central difference over this step, its error (the third
# derivative times step²/6) far below the speed's own differences between ephemerides.
RATE_STEP_DAYS = 0.01


def skyfield_stations(body: str, start_year: int, end_year: int):
    """Return Skyfield's stations of ``body``: (UT1 JDs, longitudes in degrees, turning retrograde?)."""
    ts, ephemeris = timescale(), de421()
    earth, target = ephemeris["earth"], ephemeris[DE421_TARGETS[body]]

    def longitude(t):
        _, lon, _ = earth.at(t).observe(target).apparent().frame_latlon(ecliptic_frame)
        return lon.degrees

    def moving_direct(t):
        later, earlier = ts.tt_jd(t.tt + RATE_STEP_DAYS), ts.tt_jd(t.tt - RATE_STEP_DAYS)
        return ((longitude(later) - longitude(earlier) + 180.0) % 360.0 - 180.0 > 0.0).astype(int)

    # Mercury's stations lie three weeks apart at the closest, more than twice this step.
    moving_direct.step_days = 5.0
    times, direct = find_discrete(ts.utc(start_year, 1, 1), ts.utc(end_year, 1, 1), moving_direct)
    return times.ut1, longitude(times), direct == 0


@pytest.mark.parametrize("body", ["mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto"])
def test_every_station_of_2000_to_2030_matches_skyfield_within_5_minutes_and_5_arcseconds(body):
    reference_jds, reference_longitudes, retrograde = skyfield_stations(body, 2000, 2030)
    start, end = Moment.from_iso("2000-01-01T00:00:00Z").jd_ut1, Moment.from_iso("2030-01-01T00:00:00Z").jd_ut1
    found = find_stations(body, start, end, NEVER)
    assert len(found) == len(reference_jds) > 10
    time_errors_s = [abs(s.jd - jd) * SECONDS_PER_DAY for s, jd in zip(found, reference_jds)]
    longitude_errors_deg = [
        abs((s.longitude_deg - lon + 180.0) % 360.0 - 180.0) for s, lon in zip(found, reference_longitudes)
    ]
    assert [s.event == STATION_RETROGRADE for s in found] == list(retrograde)
    assert max(time_errors_s) < STATION_TIME_TOLERANCE_S, max(time_errors_s)
    assert max(longitude_errors_deg) < STATION_LONGITUDE_TOLERANCE_DEG, max(longitude_errors_deg) * 3600


def test_a_retrograde_periods_shadow_runs_from_the_station_direct_longitude_back_to_the_station_retrograde_one():
    start, end = Moment.from_iso("2024-01-01T00:00:00Z").jd_ut1, Moment.from_iso("2026-01-01T00:00:00Z").jd_ut1
    for body in ("mercury", "mars", "saturn", "chiron"):
        for period in retrograde_periods(body, start, end, NEVER):
            retro, direct = period.station_retrograde, period.station_direct
            assert (retro.event, direct.event) == (STATION_RETROGRADE, STATION_DIRECT)
            assert period.pre_shadow_start_jd < retro.jd < direct.jd < period.post_shadow_end_jd
            # The body stands on the station-direct longitude as the shadow begins, on the
            # station-retrograde one as it ends, moving direct both times.
            for jd, longitude in (
                (period.pre_shadow_start_jd, direct.longitude_deg),
                (period.post_shadow_end_jd, retro.longitude_deg),
            ):
                offset_deg, speed = longitude_offset(body, longitude)(jd)
                assert abs(offset_deg) < 1e-6 and speed > 0.0
            # And between the shadow's start and the retrograde station it never came back to it.
            samples = np.linspace(period.pre_shadow_start_jd + 0.01, retro.jd, 50)
            assert all(longitude_offset(body, direct.longitude_deg)(jd)[0] > 0.0 for jd in samples)


@pytest.mark.parametrize("body", ["mercury", "venus", "mars", "jupiter", "saturn", "neptune", "pluto", "chiron"])
def test_a_station_is_the_same_instant_from_any_range_that_holds_it(body):
    # Issue 36: Mercury's station direct of 2026-03-20 came back up to 14 ms apart over
    # 2026-2030, over five days and over a month (docs/sky-events.md promises one instant).
    chance = random.Random(body)
    start, end = Moment.from_iso("2025-01-01T00:00:00Z").jd_ut1, Moment.from_iso("2027-01-01T00:00:00Z").jd_ut1
    reference = find_stations(body, start, end, NEVER)
    assert reference, f"{body} has a station in 2025-2026"
    for station in reference:
        ranges = [
            (station.jd - 1e-6, station.jd + 1e-6),
            (station.jd - 2.5, station.jd + 2.5),
            (station.jd - 15.0, station.jd + 16.0),
        ]
        ranges += [
            (station.jd - chance.uniform(1e-4, 400.0), station.jd + chance.uniform(1e-4, 400.0)) for _ in range(5)
        ]
        for low, high in ranges:
            again = [s for s in find_stations(body, low, high, NEVER) if abs(s.jd - station.jd) < 1.0]
            assert again == [station], (body, Moment.from_jd_ut1(station.jd).iso_utc(), low, high)


def test_stations_read_from_the_grids_sampled_together_are_the_stations_found_alone():
    # Every planet's grid runs from the same first day in steps that divide one another, so
    # their cells' ends are read date by date for all at once: the engine's own values.
    planets = ["mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto"]
    start = Moment.from_iso("2025-01-01T00:00:00Z").jd_ut1
    sampled = station_grid_samples(planets, start, start + 366.0, NEVER)
    for body in planets:
        assert set(sampled.by_body[body]) == set(station_cells(body, start, start + 366.0))
        alone = find_stations(body, start, start + 366.0, NEVER)
        assert find_stations(body, start, start + 366.0, NEVER, sampled=sampled) == alone
    # Jupiter's dates are Mercury's and Mars' too, but for its first and last cell's outer ends.
    jupiter = sorted(sampled.by_body["jupiter"])
    assert set(jupiter[1:-1]) <= set(sampled.by_body["mercury"]) & set(sampled.by_body["mars"])
