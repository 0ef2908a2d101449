"""The one line an event carries (services/search/event_summaries.py): the sky kinds written
once for /v1/calendar and /v1/forecast."""

from __future__ import annotations

from services.search import event_summaries as summaries


def test_a_station_names_its_direction_and_the_degree_and_minute_in_its_sign():
    assert summaries.station("mercury", "station_retrograde", 27.2186) == "Mercury stations retrograde at 27°13′ Aries"
    assert summaries.station("chiron", "station_direct", 30.5) == "Chiron stations direct at 0°30′ Taurus"


def test_a_retrograde_ingress_says_so():
    assert summaries.ingress("venus", "Aries", direct=True) == "Venus enters Aries"
    assert summaries.ingress("mars", "Gemini", direct=False) == "Mars re-enters Gemini (retrograde)"


def test_a_lunation_names_the_eclipse_it_holds_and_an_annular_total_is_hybrid():
    assert summaries.lunation("full_moon", 184.5, None) == "Full Moon at 4°30′ Libra"
    assert (
        summaries.lunation("new_moon", 19.4004, ("solar", "annular_total"))
        == "New Moon at 19°24′ Aries (hybrid solar eclipse)"
    )
    assert summaries.eclipse("lunar", "penumbral", 185.0) == "Penumbral lunar eclipse at 5°00′ Libra"


def test_a_body_name_is_written_as_words():
    assert summaries.body_name("mean_node") == "Mean node"
    assert summaries.void_of_course("Aries", "Taurus") == "Moon void of course in Aries until it enters Taurus"
