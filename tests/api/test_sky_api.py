"""/v1/void-of-course, /v1/solar-proximity, /v1/ayanamsha, /v1/delta-t, /v1/sidereal-time,
/v1/planetary-hours and /v1/stars (interface.md; decisions.md, Beyond the interface), rule by rule."""

from __future__ import annotations

import pytest

from kernel.ayanamshas import AYANAMSHA_NAMES
from tests.api.test_conventions_api import assert_error, balance

MOMENT = {"datetime": "2024-03-20T12:00:00Z"}
LONDON = {"lat": 51.5, "lon": -0.13}


def answer(api, path, credits=1, **params):
    response = api.get(path, params={**({} if "jd" in params else MOMENT), **params})
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["credits_used"] == credits
    return response.json()


def test_void_of_course_gives_the_spec_result_with_the_last_aspect_at_perfection(api):
    data = answer(api, "/v1/void-of-course")["data"]
    assert set(data) == {"is_void", "moon_longitude", "degrees_until_sign_change", "next_sign_boundary", "last_aspect"}
    assert data["next_sign_boundary"] == pytest.approx((data["moon_longitude"] // 30 + 1) * 30 % 360)
    assert data["degrees_until_sign_change"] == pytest.approx(
        (data["moon_longitude"] // 30 + 1) * 30 - data["moon_longitude"]
    )
    assert data["is_void"] is False
    assert (
        data["last_aspect"]["body_a"] == "moon"
        and data["last_aspect"]["orb"] == 0
        and data["last_aspect"]["applying"] is True
    )


def test_void_of_course_answers_null_last_aspect_when_void(api):
    data = answer(api, "/v1/void-of-course", bodies="moon,mars", aspects="conjunction")["data"]
    assert (
        data["is_void"] is True and data["last_aspect"] is None
    )  # Moon in Leo, Mars in Aquarius: no conjunction in the sign


def test_void_of_course_honours_the_aspects_asked_for(api):
    everything = answer(api, "/v1/void-of-course")["data"]["last_aspect"]
    assert everything["aspect"] == "opposition" and everything["body_b"] == "mars"
    without = answer(api, "/v1/void-of-course", aspects="conjunction,square,trine,sextile")["data"]["last_aspect"]
    assert without is None or without["aspect"] != "opposition"
    assert answer(api, "/v1/void-of-course", orb=2)["data"]["last_aspect"]["max_orb"] == 2


def test_void_of_course_without_the_moon_is_400_with_a_suggestion_to_include_it(api):
    error = assert_error(
        api.get("/v1/void-of-course", params={**MOMENT, "bodies": "sun,mars"}), 400, "invalid_parameter", "bodies"
    )
    assert "moon" in error["suggestion"]


def test_solar_proximity_leaves_the_sun_out_and_names_each_status(api):
    records = answer(api, "/v1/solar-proximity")["data"]["proximity"]
    assert [r["body"] for r in records] == [
        "moon",
        "mercury",
        "venus",
        "mars",
        "jupiter",
        "saturn",
        "uranus",
        "neptune",
        "pluto",
        "mean_node",
    ]
    assert all(
        0 <= r["separation"] <= 180 and r["status"] in ("cazimi", "combust", "under_the_beams", "free") for r in records
    )
    # At the March 2024 equinox the Sun enters Aries with Neptune at 27° Pisces: combust.
    neptune = {r["body"]: r for r in records}["neptune"]
    assert neptune["status"] == "combust" and 2 < neptune["separation"] < 4


def test_solar_proximity_accepts_sidereal_and_it_changes_nothing(api):
    assert answer(api, "/v1/solar-proximity", sidereal="lahiri")["data"] == answer(api, "/v1/solar-proximity")["data"]
    assert_error(
        api.get("/v1/solar-proximity", params={**MOMENT, "sidereal": "nonesuch"}), 400, "invalid_parameter", "sidereal"
    )
    assert_error(
        api.get("/v1/solar-proximity", params={**MOMENT, "heliocentric": "true"}),
        400,
        "invalid_parameter",
        "heliocentric",
    )


def test_ayanamsha_by_name_or_id_gives_one_record(api):
    by_name = answer(api, "/v1/ayanamsha", system="lahiri")["data"]
    assert [(r["system"], r["id"]) for r in by_name] == [("lahiri", 1)] and 24.0 < by_name[0]["value"] < 24.3
    assert (
        answer(api, "/v1/ayanamsha", system="krishnamurti")["data"] == answer(api, "/v1/ayanamsha", system="5")["data"]
    )


@pytest.mark.parametrize("system", ["0", "1", "true", "false"])
def test_ayanamsha_system_refuses_the_ids_0_and_1_as_sidereal_does(api, system):
    error = assert_error(
        api.get("/v1/ayanamsha", params={**MOMENT, "system": system}), 400, "invalid_parameter", "system"
    )
    assert "fagan_bradley" in error["suggestion"] and "lahiri" in error["suggestion"]


def test_ayanamsha_all_gives_every_system_of_decisions_in_its_order(api):
    records = answer(api, "/v1/ayanamsha", system="all")["data"]
    assert [r["system"] for r in records] == list(AYANAMSHA_NAMES) and [r["id"] for r in records] == list(
        range(len(AYANAMSHA_NAMES))
    )


def test_an_unknown_ayanamsha_is_400_with_the_accepted_names(api):
    error = assert_error(
        api.get("/v1/ayanamsha", params={**MOMENT, "system": "nonesuch"}), 400, "invalid_parameter", "system"
    )
    assert "lahiri" in error["message"] + error["suggestion"]
    assert_error(api.get("/v1/ayanamsha", params={**MOMENT, "system": "47"}), 400, "invalid_parameter", "system")
    assert_error(api.get("/v1/ayanamsha", params=MOMENT), 400, "missing_parameter", "system")


def test_delta_t_gives_seconds_days_and_the_terrestrial_time(api):
    data = answer(api, "/v1/delta-t", jd=2451545.0)["data"]
    assert 63.5 < data["delta_t_seconds"] < 64.2  # 63.83 s at J2000 (IERS)
    assert data["delta_t_days"] == pytest.approx(data["delta_t_seconds"] / 86400)
    assert data["jd_tt"] == pytest.approx(2451545.0 + data["delta_t_days"], abs=1e-9)


def test_sidereal_time_is_greenwich_and_with_lon_also_local(api):
    greenwich = answer(api, "/v1/sidereal-time")["data"]
    assert set(greenwich) == {"gast_degrees", "gast_hours"}
    local = answer(api, "/v1/sidereal-time", lon=90)["data"]
    assert local["lst_degrees"] == pytest.approx((greenwich["gast_degrees"] + 90) % 360)
    assert local["lst_hours"] == pytest.approx(local["lst_degrees"] / 15)


def test_planetary_hours_give_24_hours_from_sunrise_ruled_in_chaldean_order(api):
    data = answer(api, "/v1/planetary-hours", **LONDON)["data"]
    assert data["day_ruler"] == "mercury"  # Wednesday
    hours = data["hours"]
    assert [h["hour"] for h in hours] == list(range(1, 25)) and hours[0]["ruler"] == "mercury"
    assert [h["is_day"] for h in hours] == [True] * 12 + [False] * 12
    assert hours[0]["start"] == data["sunrise"] and hours[23]["end"] == data["next_sunrise"]
    assert set(hours[0]["start"]) == {"jd", "datetime"} and hours[0]["start"]["datetime"].endswith("Z")
    current = hours[data["current_hour"] - 1]
    assert current["start"]["jd"] <= 2460390.0 < current["end"]["jd"]


def test_planetary_hours_where_the_sun_does_not_rise_are_400_polar_day_or_night(api):
    assert_error(
        api.get("/v1/planetary-hours", params={"datetime": "2024-12-21T12:00:00Z", "lat": 80, "lon": 0}),
        400,
        "polar_day_or_night",
        "lat",
    )
    assert_error(api.get("/v1/planetary-hours", params=MOMENT), 400, "missing_parameter", "lat")


def test_one_star_by_traditional_or_bayer_name_any_case_costs_one_credit(api):
    by_name = answer(api, "/v1/stars", star="aldebaran")["data"]
    assert by_name == answer(api, "/v1/stars", star="ALTAU")["data"] == answer(api, "/v1/stars", star=",alTau")["data"]
    star = by_name[0]
    assert (star["name"], star["nomenclature"], star["sign"]) == ("Aldebaran", "alTau", "gemini")
    assert star["magnitude"] == pytest.approx(0.86) and 16 < star["declination"] < 17


def test_all_stars_cost_five_credits_and_list_every_named_star(api):
    records = answer(api, "/v1/stars", credits=5, star="all")["data"]
    assert len(records) > 700 and all(r["name"] for r in records)
    assert {"Aldebaran", "Regulus", "Spica", "Antares", "Sirius"} <= {r["name"] for r in records}


def test_a_sidereal_star_is_the_tropical_star_minus_the_ayanamsha(api):
    tropical = answer(api, "/v1/stars", star="Spica")["data"][0]
    sidereal = answer(api, "/v1/stars", star="Spica", sidereal="lahiri")["data"][0]
    ayanamsha = answer(api, "/v1/ayanamsha", system="lahiri")["data"][0]["value"]
    assert sidereal["longitude"] == pytest.approx(tropical["longitude"] - ayanamsha, abs=1e-6)
    assert (sidereal["right_ascension"], sidereal["declination"]) == (
        tropical["right_ascension"],
        tropical["declination"],
    )


def test_an_unknown_star_is_400_body_not_found_with_a_suggestion(api):
    error = assert_error(api.get("/v1/stars", params={**MOMENT, "star": "Vulcan"}), 400, "body_not_found", "star")
    assert "Aldebaran" in error["suggestion"]
    assert_error(api.get("/v1/stars", params={**MOMENT, "star": "Alde%"}), 400, "body_not_found", "star")


@pytest.mark.parametrize(
    ("path", "params", "code"),
    [
        ("/v1/void-of-course", {"bodies": "sun"}, "invalid_parameter"),
        ("/v1/ayanamsha", {"system": "nonesuch"}, "invalid_parameter"),
        ("/v1/planetary-hours", {"datetime": "2024-06-21T12:00:00Z", "lat": 80, "lon": 0}, "polar_day_or_night"),
        ("/v1/stars", {"star": "Vulcan"}, "body_not_found"),
        ("/v1/sidereal-time", {"lon": 181}, "invalid_parameter"),
    ],
)
def test_refusals_cost_nothing(stack, path, params, code):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(client.get(path, params={**MOMENT, **params}), 400, code)
    assert balance(stack, name) == 10


def test_planetary_hours_whose_day_begins_before_the_supported_dates_are_400_out_of_range(api):
    assert_error(api.get("/v1/planetary-hours", params={"jd": 625000.5, **LONDON}), 400, "out_of_range", "jd")
