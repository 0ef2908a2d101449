"""kernel/heliacal.py: the refusals of a heliacal search (acronychal events, ineligible bodies,
inferior-only events for superior planets), and heliacal risings and settings against their
definitions and the dates of the conjunctions they surround (Venus's inferior conjunction of
2025-03-23, Jupiter's conjunction with the Sun of 2024-05-18, as the almanacs give them)."""

from __future__ import annotations

import math

import pytest

from kernel.errors import BodyNotEligible, InvalidHeliacalEvent
from kernel.heliacal import (
    ENGINE_LATITUDE_LIMIT_DEG,
    Atmosphere,
    Eyes,
    check_event,
    next_heliacal_event,
    search_stopped,
)
from kernel.positions import Observer
from kernel.timescale import Moment


def test_heliacal_rules_refuse_acronychal_events_and_inferior_only_events_for_outer_planets():
    with pytest.raises(InvalidHeliacalEvent):
        check_event("mars", "acronychal_rising")
    with pytest.raises(BodyNotEligible):
        check_event("jupiter", "evening_first")
    with pytest.raises(BodyNotEligible):
        check_event("moon", "morning_first")
    check_event("venus", "morning_last")


def test_a_heliacal_rising_happens_at_dawn_with_the_planet_just_above_the_horizon():
    cairo = Observer(30.0, 31.2, 0.0)
    event = next_heliacal_event(
        Moment.from_iso("2024-01-01T00:00:00Z").jd_ut1, "venus", "morning_first", cairo, Atmosphere(), Eyes()
    )
    assert event.sun_altitude < 0.0 < event.object_altitude
    assert 5.0 < event.visibility_arc_deg < 15.0
    # Venus passed inferior conjunction on 2025-03-23: its heliacal rising follows within days.
    assert Moment.from_iso("2025-03-23T00:00:00Z").jd_ut1 < event.jd < Moment.from_iso("2025-04-10T00:00:00Z").jd_ut1
    assert math.isfinite(event.jd)


# The planets by hand: Mercury and Venus orbit inside the Earth's orbit, the rest outside.
INFERIOR = ["mercury", "venus"]
SUPERIOR = ["mars", "jupiter", "saturn", "uranus", "neptune", "pluto"]


@pytest.mark.parametrize("body", INFERIOR + SUPERIOR)
def test_the_evening_first_and_morning_last_are_asked_of_the_inferior_planets_alone(body):
    for event in ("evening_first", "morning_last"):
        if body in INFERIOR:
            check_event(body, event)
        else:
            with pytest.raises(BodyNotEligible):
                check_event(body, event)
    for event in ("morning_first", "evening_last"):
        check_event(body, event)


@pytest.mark.parametrize("event", ["acronychal_rising", "acronychal_setting"])
@pytest.mark.parametrize("body", ["venus", "mars", "jupiter"])
def test_the_acronychal_events_are_refused_for_every_planet(body, event):
    with pytest.raises(InvalidHeliacalEvent):
        check_event(body, event)


@pytest.mark.parametrize("body", ["sun", "moon", "chiron", "mean_node"])
def test_bodies_without_a_heliacal_phase_are_not_eligible(body):
    with pytest.raises(BodyNotEligible):
        check_event(body, "morning_first")


def local_mean_hours(jd_ut1: float, longitude_deg: float) -> float:
    """Return the local mean solar time (hours, [0, 24)) at ``jd_ut1`` and east longitude."""
    return ((jd_ut1 + 0.5) % 1.0 * 24.0 + longitude_deg / 15.0) % 24.0


def test_a_superior_planet_is_last_seen_at_dusk_before_its_conjunction_and_first_seen_at_dawn_after():
    cairo = Observer(30.0, 31.2, 0.0)
    start = Moment.from_iso("2024-01-01T00:00:00Z").jd_ut1
    conjunction = Moment.from_iso("2024-05-18T12:00:00Z").jd_ut1
    last = next_heliacal_event(start, "jupiter", "evening_last", cairo, Atmosphere(), Eyes())
    first = next_heliacal_event(start, "jupiter", "morning_first", cairo, Atmosphere(), Eyes())
    # Jupiter is lost in the Sun's glare for a few weeks on either side of the conjunction.
    assert conjunction - 40.0 < last.jd < conjunction < first.jd < conjunction + 40.0
    # Dusk and dawn in local mean time: the Sun a few degrees below the horizon, the planet just above.
    assert 17.0 < local_mean_hours(last.jd, cairo.longitude_deg) < 21.0
    assert 3.0 < local_mean_hours(first.jd, cairo.longitude_deg) < 7.0
    for event in (last, first):
        assert -18.0 < event.sun_altitude < 0.0 < event.object_altitude


# Swiss Ephemeris documents its heliacal search between latitudes 60°S and 60°N (swe_heliacal_ut).
NORTH_OF_THE_ENGINES_LATITUDES = Observer(80.0, 31.0, 0.0)
SOUTH_OF_THE_ENGINES_LATITUDES = Observer(-60.5, 31.0, 0.0)
WITHIN_THE_ENGINES_LATITUDES = Observer(60.0, 31.0, 0.0)


@pytest.mark.parametrize("place", [NORTH_OF_THE_ENGINES_LATITUDES, SOUTH_OF_THE_ENGINES_LATITUDES])
def test_a_search_stopped_beyond_the_engines_latitudes_is_refused_as_the_places(place):
    refusal = search_stopped("mercury", "morning_first", place, Eyes(), 2.5)
    assert refusal is not None and refusal.about == "place" and refusal.http_status == 400
    assert "2.5 s" in refusal.message and f"{place.latitude_deg:g}°" in refusal.message
    assert "60°" in refusal.suggestion


def test_a_search_stopped_with_optical_aid_is_refused_as_the_eyes():
    refusal = search_stopped(
        "venus", "morning_first", WITHIN_THE_ENGINES_LATITUDES, Eyes(telescope_aperture_cm=10), 2.5
    )
    assert refusal is not None and refusal.about == "eyes"
    assert "telescope_aperture_cm=0" in refusal.suggestion


def test_a_search_stopped_within_the_engines_conditions_is_not_the_requests_fault():
    assert search_stopped("mercury", "morning_first", WITHIN_THE_ENGINES_LATITUDES, Eyes(), 2.5) is None


@pytest.mark.parametrize("body", INFERIOR + ["mars", "jupiter", "saturn"])
def test_within_the_engines_latitudes_the_naked_eye_search_ends_with_an_answer(body):
    """What makes a stop there the service's failure (504), not the request's: at the edge of
    the documented latitudes, north and south, every planet's heliacal rising and setting is
    found (the search ends; these took 50 ms at most when measured)."""
    start = Moment.from_iso("2026-01-01T00:00:00Z").jd_ut1
    for latitude in (ENGINE_LATITUDE_LIMIT_DEG, -ENGINE_LATITUDE_LIMIT_DEG):
        for event in ("morning_first", "evening_last"):
            found = next_heliacal_event(start, body, event, Observer(latitude, 10.0, 0.0), Atmosphere(), Eyes())
            assert start < found.jd < start + 5 * 800  # within five synodic periods (Mars' is the longest, 780 days)


@pytest.mark.parametrize(
    ("atmosphere", "eyes", "about"),
    [
        (Atmosphere(visibility_range_km=1.0), Eyes(), "visibility_range_km"),
        (Atmosphere(humidity_pct=100.0), Eyes(), "humidity_pct"),
        (Atmosphere(), Eyes(snellen_ratio=0.25), "snellen_ratio"),
    ],
)
def test_a_search_stopped_under_a_sky_or_with_eyes_other_than_the_defaults_is_refused_naming_them(
    atmosphere, eyes, about
):
    # Such a sky or eyes may hide the planet for good: the engine then searches five synodic
    # periods (10 s and more for Venus), so the stop is the answer, as the engine's own is.
    refusal = search_stopped("venus", "morning_first", WITHIN_THE_ENGINES_LATITUDES, eyes, 2.5, atmosphere)
    assert refusal is not None and refusal.about == about and refusal.http_status == 400
    assert f"Leave {about} out" in refusal.suggestion


def test_a_magnification_without_an_aperture_is_the_naked_eye_and_no_refusal():
    eyes = Eyes(telescope_magnification=20.0)
    assert search_stopped("venus", "morning_first", WITHIN_THE_ENGINES_LATITUDES, eyes, 2.5) is None
