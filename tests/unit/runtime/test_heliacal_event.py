"""What a heliacal search looks for (shared/runtime/heliacal_event.py).

References: FindHeliacalEventRequest (search_service.proto): ``body`` a planet, not the Sun
or the Moon (body_not_eligible); ``event`` morning_first or evening_last for every eligible
body, evening_first and morning_last for Mercury and Venus only, the acronychal events
refused with invalid_heliacal_event.
"""

from __future__ import annotations

import pytest

from celestial.v1 import search_service_pb2 as pb
from celestial.v1.common_pb2 import Place
from kernel.errors import BodyNotEligible, InvalidHeliacalEvent
from shared.runtime.heliacal_event import heliacal_event, heliacal_search_stopped


def request(body: str, event: str) -> pb.FindHeliacalEventRequest:
    return pb.FindHeliacalEventRequest(body=body, event=event)


@pytest.mark.parametrize("body", ["mercury", "venus"])
def test_the_inferior_planets_have_all_four_events(body):
    for event in ("morning_first", "evening_last", "evening_first", "morning_last"):
        assert heliacal_event(request(body, event)) == (body, event)


def test_a_superior_planet_rises_and_sets_heliacally():
    assert heliacal_event(request("Mars", "morning_first")) == ("mars", "morning_first")
    assert heliacal_event(request("saturn", "evening_last")) == ("saturn", "evening_last")


@pytest.mark.parametrize("event", ["evening_first", "morning_last"])
def test_the_inferior_only_events_of_a_superior_planet_are_body_not_eligible_naming_body(event):
    with pytest.raises(BodyNotEligible) as caught:
        heliacal_event(request("jupiter", event))
    assert caught.value.param == "body"


@pytest.mark.parametrize("body", ["sun", "moon"])
def test_the_sun_and_the_moon_are_body_not_eligible_naming_body(body):
    with pytest.raises(BodyNotEligible) as caught:
        heliacal_event(request(body, "morning_first"))
    assert caught.value.param == "body"


@pytest.mark.parametrize("event", ["acronychal_rising", "acronychal_setting"])
def test_the_acronychal_events_are_refused_naming_event(event):
    with pytest.raises(InvalidHeliacalEvent) as caught:
        heliacal_event(request("mars", event))
    assert caught.value.param == "event"


def test_a_heliacal_search_stopped_beyond_60_degrees_names_the_latitude():
    stopped = pb.FindHeliacalEventRequest(body="mercury", event="morning_first", place=Place(lat=80.0, lon=31.0))
    refusal = heliacal_search_stopped(stopped, 2.5)
    assert (refusal.code, refusal.http_status, refusal.param) == ("invalid_parameter", 400, "lat")


def test_a_heliacal_search_stopped_with_optical_aid_names_the_aperture():
    stopped = pb.FindHeliacalEventRequest(
        body="venus", event="morning_first", place=Place(lat=30.0, lon=31.0), telescope_aperture_cm=10
    )
    assert heliacal_search_stopped(stopped, 2.5).param == "telescope_aperture_cm"


def test_a_naked_eye_heliacal_search_stopped_within_60_degrees_is_no_refusal():
    stopped = pb.FindHeliacalEventRequest(body="mercury", event="morning_first", place=Place(lat=45.0, lon=31.0))
    assert heliacal_search_stopped(stopped, 2.5) is None


def test_a_heliacal_search_stopped_under_a_thick_sky_names_its_parameter():
    stopped = pb.FindHeliacalEventRequest(
        body="venus", event="morning_first", place=Place(lat=51.5, lon=0.0), visibility_range_km=1.0
    )
    assert heliacal_search_stopped(stopped, 2.5).param == "visibility_range_km"
