"""kernel/heliacal.py: the refusals of a heliacal search (acronychal events, ineligible bodies,
inferior-only events for superior planets) and a heliacal rising against its definition and
the date of Venus's inferior conjunction of 2025."""

from __future__ import annotations

import math

import pytest

from kernel.errors import BodyNotEligible, InvalidHeliacalEvent
from kernel.heliacal import Atmosphere, Eyes, check_event, next_heliacal_event
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
    event = next_heliacal_event(Moment.from_iso("2024-01-01T00:00:00Z").jd_ut1, "venus", "morning_first", cairo, Atmosphere(), Eyes())
    assert event.sun_altitude < 0.0 < event.object_altitude
    assert 5.0 < event.visibility_arc_deg < 15.0
    # Venus passed inferior conjunction on 2025-03-23: its heliacal rising follows within days.
    assert Moment.from_iso("2025-03-23T00:00:00Z").jd_ut1 < event.jd < Moment.from_iso("2025-04-10T00:00:00Z").jd_ut1
    assert math.isfinite(event.jd)
