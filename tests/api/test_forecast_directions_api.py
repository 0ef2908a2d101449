"""/v1/forecast's kinds direction and progression (issue 53): true-solar-arc directed and
secondary progressed contacts to the natal points, as windows in the transits' own schema."""

from __future__ import annotations

import pytest

BIRTH = {"datetime": "1984-02-11T09:20:00Z", "lat": 48.85, "lon": 2.35}
YEAR = {"start": "2024-01-01T00:00:00Z", "end": "2025-01-01T00:00:00Z"}
WINDOW_MEMBERS = {"moving", "aspect", "target", "enter", "exacts", "leave", "clamped_start", "clamped_end"}


def events(api, **params) -> list[dict]:
    response = api.get("/v1/forecast", params={**BIRTH, **YEAR, **params})
    assert response.status_code == 200, response.text
    return response.json()["data"]["events"]


@pytest.fixture(scope="module")
def contacts(api) -> list[dict]:
    return events(api, kinds="direction,progression")


def test_the_default_kinds_leave_out_directions_and_progressions(api):
    assert not {e["kind"] for e in events(api)} & {"direction", "progression"}


def test_both_kinds_come_when_asked(contacts):
    assert {e["kind"] for e in contacts} == {"direction", "progression"}


def test_a_contact_is_an_event_of_the_transits_schema(api, contacts):
    transit = events(api, kinds="transit", page_size=1)[0]
    for event in contacts:
        assert event.keys() == transit.keys()
        assert {k for k, v in event.items() if isinstance(v, dict) and k not in ("instant", "end")} == {"transit"}
        assert event["transit"].keys() == WINDOW_MEMBERS
        assert event["bodies"] == [event["transit"]["moving"]] and event["point"] == event["transit"]["target"]


def test_each_phase_is_the_windows_enter_an_exact_or_its_leave(contacts):
    for event in contacts:
        window, instant = event["transit"], event["instant"]["jd"]
        expected = {
            "enter": [window["enter"]["jd"]],
            "exact": [exact["jd"] for exact in window["exacts"]],
            "leave": [window["leave"]["jd"]],
        }
        assert instant in expected[event["phase"]]


def test_the_summary_says_directed_or_progressed(contacts):
    for event in contacts:
        word = {"direction": "Directed ", "progression": "Progressed "}[event["kind"]]
        assert event["summary"].startswith(word) and " natal " in event["summary"]


def test_the_calendar_holds_them_with_their_kind(api):
    response = api.get("/v1/forecast", params={**BIRTH, **YEAR, "kinds": "direction,progression", "format": "ics"})
    assert response.status_code == 200
    assert "CATEGORIES:direction" in response.text and "CATEGORIES:progression" in response.text


def test_ranked_by_significance_every_contact_is_kept(api, contacts):
    ranked = events(api, kinds="direction,progression", rank="significance")
    assert sorted(e["id"] for e in ranked) == sorted(e["id"] for e in contacts)
