"""/v1/houses, /v1/chart and /v1/aspects, rule by rule."""

from __future__ import annotations

import pytest

from tests.api.test_conventions_api import assert_error
from tests.api.test_positions_api import positions

J2000 = 2451545.0
LONDON = {"lat": 51.5, "lon": -0.13}
HOUSE_SYSTEMS = {
    "placidus": "P",
    "koch": "K",
    "porphyrius": "O",
    "regiomontanus": "R",
    "campanus": "C",
    "equal": "E",
    "whole_sign": "W",
    "vehlow_equal": "V",
    "meridian": "X",
    "azimuthal": "H",
    "polich_page": "T",
    "alcabitius": "B",
    "morinus": "M",
    "krusinski": "U",
    "equal_mc": "D",
    "pullen_sd": "L",
    "pullen_sr": "Q",
    "sripati": "S",
    "gauquelin": "G",
    "sunshine": "i",
    "sunshine_treindl": "I",
    "carter": "F",
    "equal_aries": "N",
    "apc": "Y",
}
ASPECT_ANGLES = {
    "conjunction": 0,
    "opposition": 180,
    "trine": 120,
    "square": 90,
    "sextile": 60,
    "quincunx": 150,
    "semi_sextile": 30,
    "semi_square": 45,
    "sesquiquadrate": 135,
    "quintile": 72,
    "bi_quintile": 144,
    "septile": 360 / 7,
    "bi_septile": 720 / 7,
    "tri_septile": 1080 / 7,
    "quindecile": 165,
}
FLAGS_NOT_ON_HOUSES = ["equatorial", "speed", "j2000", "topocentric", "heliocentric"]


def houses(api, **params) -> dict:
    response = api.get("/v1/houses", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def separation(a: float, b: float) -> float:
    d = abs(a - b) % 360
    return 360 - d if d > 180 else d


# --- /v1/houses -------------------------------------------------------------------------


def test_houses_wire_shape_has_twelve_cusps_house_one_first(api):
    data = houses(api, jd=J2000, **LONDON)["data"]
    assert set(data) == {"system", "cusps", "ascendant", "midheaven", "armc", "vertex"}
    assert data["system"] == "placidus"
    assert len(data["cusps"]) == 12
    assert data["cusps"][0] == pytest.approx(data["ascendant"], abs=1e-9)
    assert data["cusps"][9] == pytest.approx(data["midheaven"], abs=1e-9)


@pytest.mark.parametrize("name,letter", sorted(HOUSE_SYSTEMS.items()))
def test_every_house_system_by_name_and_by_letter(api, name, letter):
    by_name = houses(api, jd=J2000, system=name, **LONDON)["data"]
    by_letter = houses(api, jd=J2000, system=letter, **LONDON)["data"]
    assert by_name == by_letter
    assert by_name["system"] == name
    assert len(by_name["cusps"]) == (36 if name == "gauquelin" else 12)


def test_house_system_names_are_case_insensitive_and_aliases_resolve(api):
    assert houses(api, jd=J2000, system="PlAcIdUs", **LONDON)["data"]["system"] == "placidus"
    assert houses(api, jd=J2000, system="porphyry", **LONDON)["data"]["system"] == "porphyrius"
    assert houses(api, jd=J2000, system="topocentric", **LONDON)["data"]["system"] == "polich_page"


def test_equal_houses_are_thirty_degrees_from_the_ascendant(api):
    data = houses(api, jd=J2000, system="equal", **LONDON)["data"]
    for index, cusp in enumerate(data["cusps"]):
        offset = (cusp - data["ascendant"] - 30 * index + 180) % 360 - 180
        assert offset == pytest.approx(0, abs=1e-9)


def test_equal_aries_houses_are_the_signs_on_the_natal_chart_too(api):
    # The chart endpoints read `system` through the same vocabulary: cusp k = 30(k-1) exactly,
    # and each body's house is its sign's number.
    response = api.get("/v1/natal-chart", params={"jd": J2000, "system": "equal_aries", **LONDON})
    assert response.status_code == 200, response.text
    chart = response.json()["data"]
    assert chart["metadata"]["house_system"] == "equal_aries"
    assert chart["houses"]["cusps"][1:] == [30.0 * k for k in range(12)]
    assert all(p["house"] == int(p["longitude"] // 30) + 1 for p in chart["positions"])


def test_placidus_inside_the_polar_circle_falls_back_to_porphyrius_with_a_warning(api):
    body = houses(api, jd=J2000, lat=80, lon=10)
    assert body["data"]["system"] == "porphyrius"
    assert body["data"]["warnings"] and body["warnings"]


@pytest.mark.parametrize("flag", FLAGS_NOT_ON_HOUSES)
def test_houses_refuse_flags_they_do_not_implement(api, flag):
    assert_error(api.get("/v1/houses", params={"jd": J2000, flag: "true", **LONDON}), 400, "invalid_parameter", flag)


def test_houses_sidereal_shifts_every_cusp_by_the_ayanamsha(api):
    tropical = houses(api, jd=J2000, **LONDON)["data"]
    sidereal = houses(api, jd=J2000, sidereal="lahiri", **LONDON)["data"]
    shifts = {round((t - s) % 360, 6) for t, s in zip(tropical["cusps"], sidereal["cusps"])}
    assert len(shifts) == 1 and abs(shifts.pop() - 23.85) < 0.02


def test_houses_require_lat_and_lon(api):
    assert_error(api.get("/v1/houses", params={"jd": J2000, "lon": 0}), 400, "missing_parameter", "lat")


def test_unknown_house_system_is_invalid_parameter_listing_them(api):
    error = assert_error(
        api.get("/v1/houses", params={"jd": J2000, "system": "nope", **LONDON}), 400, "invalid_parameter", "system"
    )
    assert "placidus" in error["suggestion"] or "placidus" in error["message"]


# --- /v1/chart --------------------------------------------------------------------------


def test_chart_is_exactly_positions_and_houses_plus_null_ayanamsha(api):
    chart = api.get("/v1/chart", params={"jd": J2000, **LONDON}).json()["data"]
    assert set(chart) == {"positions", "houses", "ayanamsha"}
    assert chart["positions"] == positions(api, jd=J2000)
    assert chart["houses"] == houses(api, jd=J2000, **LONDON)["data"]
    assert chart["ayanamsha"] is None


def test_chart_sidereal_reports_the_ayanamsha_and_sidereal_shapes(api):
    params = {"jd": J2000, "sidereal": "lahiri", "equatorial": "false", **LONDON}
    chart = api.get("/v1/chart", params=params).json()["data"]
    assert chart["ayanamsha"] == pytest.approx(23.85, abs=0.02)
    assert chart["positions"] == positions(api, jd=J2000, sidereal="lahiri")
    assert chart["houses"] == houses(api, jd=J2000, sidereal="lahiri", **LONDON)["data"]


def test_chart_accepts_all_seven_flags(api):
    params = {
        "jd": J2000,
        "sidereal": "lahiri",
        "equatorial": "true",
        "speed": "false",
        "no_nutation": "true",
        "j2000": "true",
        "topocentric": "true",
        "heliocentric": "false",
        **LONDON,
    }
    response = api.get("/v1/chart", params=params)
    assert response.status_code == 200, response.text
    assert "right_ascension" in response.json()["data"]["positions"][0]


def test_chart_post_json_equals_get(api):
    get = api.get("/v1/chart", params={"datetime": "1990-05-01T08:30:00Z", "bodies": "sun,moon", **LONDON}).json()[
        "data"
    ]
    post = api.post("/v1/chart", json={"datetime": "1990-05-01T08:30:00Z", "bodies": ["sun", "moon"], **LONDON}).json()[
        "data"
    ]
    assert get == post


def test_chart_requires_lat_and_lon(api):
    assert_error(api.get("/v1/chart", params={"jd": J2000}), 400, "missing_parameter")


# --- /v1/aspects ------------------------------------------------------------------------


def aspects(api, **params) -> dict:
    response = api.get("/v1/aspects", params=params)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def test_aspects_data_has_aspects_and_parallels(api):
    data = aspects(api, jd=J2000)
    assert set(data) == {"aspects", "parallels"}
    for record in data["aspects"]:
        assert set(record) == {"body_a", "body_b", "aspect", "angle", "orb", "applying"}


def test_aspect_angle_is_the_exact_angle_and_orb_the_distance_from_it(api):
    lon = {r["body"]: r["longitude"] for r in positions(api, jd=J2000)}
    records = aspects(api, jd=J2000)["aspects"]
    assert records
    for record in records:
        assert record["angle"] == pytest.approx(ASPECT_ANGLES[record["aspect"]], abs=1e-9)
        actual = separation(lon[record["body_a"]], lon[record["body_b"]])
        assert record["orb"] == pytest.approx(abs(actual - record["angle"]), abs=1e-6)


def test_default_aspects_are_the_major_seven_within_default_orbs(api):
    default_orbs = {
        "conjunction": 8,
        "opposition": 8,
        "trine": 8,
        "square": 7,
        "sextile": 6,
        "quincunx": 3,
        "semi_sextile": 2,
    }
    for record in aspects(api, jd=J2000)["aspects"]:
        assert record["orb"] <= default_orbs[record["aspect"]]


def test_sidereal_aspects_return_the_same_numbers(api):
    assert aspects(api, jd=J2000) == aspects(api, jd=J2000, sidereal="lahiri")


def test_orb_override_applies_to_every_type(api):
    for record in aspects(api, jd=J2000, orb="0.5", aspects=",".join(ASPECT_ANGLES))["aspects"]:
        assert record["orb"] <= 0.5


def test_all_fifteen_types_are_accepted(api):
    data = aspects(api, datetime="2024-01-01T00:00:00Z", aspects=",".join(ASPECT_ANGLES), bodies="all")
    assert {r["aspect"] for r in data["aspects"]} <= set(ASPECT_ANGLES)


@pytest.mark.parametrize("spelling", ["semi-sextile", "semisextile", "Semi_Sextile", "bi-quintile", "biquintile"])
def test_aspect_names_accept_hyphens_underscores_and_unhyphenated_spellings(api, spelling):
    assert api.get("/v1/aspects", params={"jd": J2000, "aspects": spelling}).status_code == 200


def test_unknown_aspect_type_is_invalid_parameter(api):
    assert_error(
        api.get("/v1/aspects", params={"jd": J2000, "aspects": "trine,nonagon"}), 400, "invalid_parameter", "aspects"
    )


def test_applying_false_renders_applying_as_null(api):
    for record in aspects(api, jd=J2000, applying="false")["aspects"]:
        assert record["applying"] is None


def test_applying_is_whether_the_orb_shrinks(api):
    lon_now = {r["body"]: r["longitude"] for r in positions(api, jd=J2000)}
    lon_later = {r["body"]: r["longitude"] for r in positions(api, jd=J2000 + 0.01)}
    for record in aspects(api, jd=J2000)["aspects"]:
        now = abs(separation(lon_now[record["body_a"]], lon_now[record["body_b"]]) - record["angle"])
        later = abs(separation(lon_later[record["body_a"]], lon_later[record["body_b"]]) - record["angle"])
        if abs(now - later) > 1e-7:
            assert record["applying"] is (later < now), record


def test_parallels_are_declinations_within_orb(api):
    dec = {r["body"]: r["declination"] for r in positions(api, jd=J2000)}
    data = aspects(api, jd=J2000, parallel_orb="2")
    assert data["parallels"]
    for record in data["parallels"]:
        a, b = dec[record["body_a"]], dec[record["body_b"]]
        assert record["declination_a"] == pytest.approx(a) and record["declination_b"] == pytest.approx(b)
        assert record["max_orb"] == 2
        if record["parallel_type"] == "parallel":
            assert record["orb"] == pytest.approx(abs(a - b)) and abs(a - b) <= 2
        else:
            assert record["parallel_type"] == "contraparallel"
            assert abs(a - b) > 2 and record["orb"] == pytest.approx(abs(a + b)) and abs(a + b) <= 2


def test_contraparallel_false_keeps_only_parallels(api):
    data = aspects(api, jd=J2000, parallel_orb="3", contraparallel="false")
    assert all(r["parallel_type"] == "parallel" for r in data["parallels"])


def test_parallels_false_leaves_parallels_empty(api):
    assert aspects(api, jd=J2000, parallels="false")["parallels"] == []


@pytest.mark.parametrize("flag", ["equatorial", "speed", "j2000", "topocentric", "heliocentric", "no_nutation"])
def test_aspects_refuse_flags_they_do_not_implement(api, flag):
    assert_error(api.get("/v1/aspects", params={"jd": J2000, flag: "true"}), 400, "invalid_parameter", flag)


@pytest.mark.parametrize("orb", ["0", "-1", "31"])
def test_orb_outside_its_range_is_invalid_parameter(api, orb):
    assert_error(api.get("/v1/aspects", params={"jd": J2000, "orb": orb}), 400, "invalid_parameter", "orb")
