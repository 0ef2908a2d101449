"""/v1/natal-chart/sensitivity (issue 52, part 3; docs/sensitivity.md), rule by rule through the API."""

from __future__ import annotations

import hashlib
import struct
import xml.etree.ElementTree as ET

import httpx
import pytest

from kernel.zodiac import SIGN_KEYS as SIGNS
from shared.runtime.picture_request import MAX_PNG_PIXELS
from shared.runtime.sensitivity_inputs import timeline_height
from tests.api.test_conventions_api import assert_error, balance

PATH = "/v1/natal-chart/sensitivity"
BIRTH = {"datetime": "1985-07-13T14:05:00", "tz": "Europe/Paris", "lat": 48.85, "lon": 2.35}
# "planets": the ten and the mean node, as /v1/natal-chart counts them.
PLANETS = ["sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto", "mean_node"]


def answer(api, **params) -> dict:
    response = api.get(PATH, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def test_it_costs_3_credits(api):
    assert answer(api, **BIRTH)["meta"]["credits_used"] == 3


def test_each_fact_is_named_from_the_documented_vocabulary_in_order(api):
    facts = [f["fact"] for f in answer(api, **BIRTH, at="2026-01-01T00:00:00Z")["data"]["facts"]]
    per_body = [f"{b}_{kind}" for b in PLANETS for kind in ("sign", "house", "aspect_asc", "aspect_mc")]
    assert facts == [
        "asc_sign",
        "mc_sign",
        *per_body,
        "moon_nakshatra",
        "moon_pada",
        "vimshottari_lord",
        "profection_lord",
    ]


def test_the_facts_are_the_natal_charts_for_the_same_birth(api):
    facts = {f["fact"]: f["value"] for f in answer(api, **BIRTH)["data"]["facts"]}
    chart = api.get("/v1/natal-chart", params=BIRTH).json()["data"]
    assert facts["asc_sign"] == SIGNS[int(chart["houses"]["ascendant"] // 30)]
    assert facts["mc_sign"] == SIGNS[int(chart["houses"]["midheaven"] // 30)]
    for position in chart["positions"]:
        assert facts[f"{position['body']}_sign"] == position["sign"]
        assert facts[f"{position['body']}_house"] == str(position["house"])


def test_each_fact_holds_over_an_interval_around_the_birth_its_ends_null_past_the_window(api):
    data = answer(api, **BIRTH)["data"]
    assert data["birth"]["datetime"] == "1985-07-13T12:05:00.000Z"
    assert (data["start"]["datetime"], data["end"]["datetime"]) == (
        "1985-07-13T10:05:00.000Z",
        "1985-07-13T14:05:00.000Z",
    )
    for fact in data["facts"]:
        assert set(fact) == {"fact", "value", "holds_from", "holds_until"}
        if fact["holds_from"] is not None:
            assert data["start"]["jd"] < fact["holds_from"]["jd"] <= data["birth"]["jd"]
        if fact["holds_until"] is not None:
            assert data["birth"]["jd"] < fact["holds_until"]["jd"] < data["end"]["jd"]
    sun_sign = next(f for f in data["facts"] if f["fact"] == "sun_sign")
    assert sun_sign["holds_from"] is None and sun_sign["holds_until"] is None


def test_the_changes_are_in_time_order_each_with_the_facts_that_change(api):
    data = answer(api, **BIRTH)["data"]
    instants = [c["instant"]["jd"] for c in data["changes"]]
    assert instants == sorted(instants) and len(instants) > 10
    ends = {f["holds_until"]["jd"]: f["fact"] for f in data["facts"] if f["holds_until"] is not None}
    for change in data["changes"]:
        assert change["facts"] and all(c["before"] != c["after"] for c in change["facts"])
        if change["instant"]["jd"] in ends:
            assert ends[change["instant"]["jd"]] in {c["fact"] for c in change["facts"]}


def test_a_wider_window_sees_at_least_the_changes_of_a_narrower_one(api):
    narrow = answer(api, **BIRTH, window_hours=1)["data"]["changes"]
    wide = answer(api, **BIRTH, window_hours=12)["data"]["changes"]
    assert {c["instant"]["datetime"] for c in narrow} <= {c["instant"]["datetime"] for c in wide}


def test_sidereal_adds_the_angles_nakshatras_and_reads_the_moons_in_its_ayanamsha(api):
    data = answer(api, **BIRTH, sidereal="fagan_bradley")["data"]
    facts = [f["fact"] for f in data["facts"]]
    assert facts[:4] == ["asc_sign", "mc_sign", "asc_nakshatra", "mc_nakshatra"]
    assert data["ayanamsha"] == "fagan_bradley"
    assert answer(api, **BIRTH)["data"]["ayanamsha"] == "lahiri"


def test_no_aspect_to_an_angle_is_a_null_value(api):
    values = [f["value"] for f in answer(api, **BIRTH)["data"]["facts"] if "_aspect_" in f["fact"]]
    assert None in values and any(v is not None for v in values)


REFUSALS = [
    ({**BIRTH, "window_hours": 13}, "invalid_parameter", "window_hours"),
    ({**BIRTH, "window_hours": 0}, "invalid_parameter", "window_hours"),
    ({**BIRTH, "lat": 91}, "invalid_parameter", "lat"),
    ({"lat": 48.85, "lon": 2.35}, "missing_parameter", "datetime"),
    ({**BIRTH, "datetime": "1985-13-40T14:05:00"}, "invalid_datetime", "datetime"),
    ({**BIRTH, "system": "gauquelin"}, "invalid_parameter", "system"),
    ({**BIRTH, "at": "1985-07-13T13:00:00Z"}, "before_birth", "at"),
]


@pytest.mark.parametrize(("params", "code", "param"), REFUSALS, ids=[f"{c}-{p}" for _, c, p in REFUSALS])
def test_each_refusal_is_a_400_with_a_suggestion_and_costs_nothing(stack, params, code, param):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(client.get(PATH, params=params), 400, code, param)
    assert balance(stack, name) == 10


def test_inside_the_polar_circle_the_houses_are_porphyrius_for_the_whole_window_with_a_warning(api):
    body = answer(api, **{**BIRTH, "lat": 69.65, "lon": 18.96, "tz": "Europe/Oslo"})
    assert any("Porphyrius" in w for w in body["warnings"])
    assert "warnings" not in answer(api, **BIRTH)


def test_a_post_with_a_json_body_answers_as_the_get(api):
    posted = api.post(PATH, json={**BIRTH, "window_hours": 1})
    assert posted.status_code == 200, posted.text
    assert posted.json()["data"] == answer(api, **BIRTH, window_hours=1)["data"]


# --- The timeline picture (format=svg|png) ------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def picture(api, **params) -> httpx.Response:
    response = api.get(PATH, params={**BIRTH, **params})
    assert response.status_code == 200, response.text
    return response


def test_format_svg_is_the_timeline_document_with_one_row_per_fact_in_the_facts_order(api):
    response = picture(api, format="svg", at="2026-01-01T00:00:00Z")
    assert response.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(response.text)
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    rows = [g.get("data-fact") for g in root.iter(f"{SVG}g") if g.get("class") == "fact"]
    assert rows == [f["fact"] for f in answer(api, **BIRTH, at="2026-01-01T00:00:00Z")["data"]["facts"]]


def test_each_rows_intervals_are_the_facts_values_and_the_births_interval_its_holds(api):
    facts = {f["fact"]: f for f in answer(api, **BIRTH)["data"]["facts"]}
    root = ET.fromstring(picture(api, format="svg").text)
    birth = float(next(line for line in root.iter(f"{SVG}line") if line.get("class") == "birth").get("data-jd"))
    for row in (g for g in root.iter(f"{SVG}g") if g.get("class") == "fact"):
        fact = facts[row.get("data-fact")]
        spans = [g for g in row.iter(f"{SVG}g") if g.get("class") == "interval"]
        at_birth = next(g for g in spans if float(g.get("data-from")) <= birth < float(g.get("data-until")))
        assert at_birth.get("data-value") == fact["value"]
        assert at_birth.find(f"{SVG}title").text
        if fact["holds_from"] is not None:
            assert float(at_birth.get("data-from")) == pytest.approx(fact["holds_from"]["jd"], abs=1e-6)
        if fact["holds_until"] is not None:
            assert float(at_birth.get("data-until")) == pytest.approx(fact["holds_until"]["jd"], abs=1e-6)
        assert row.get("data-steady") == str(len(spans) == 1).lower()


def test_format_png_is_size_pixels_wide_and_as_tall_as_its_rows(api):
    response = picture(api, format="png", size=800, theme="dark")
    assert response.headers["content-type"] == "image/png"
    rows, groups = len(PLANETS) * 4 + 2 + 3, len(PLANETS) + 2
    assert struct.unpack(">II", response.content[16:24]) == (800, timeline_height(800, rows, groups))


def test_theme_and_lang_change_the_picture(api):
    light = picture(api, format="svg").text
    assert picture(api, format="svg", theme="dark").text != light
    german = ET.fromstring(picture(api, format="svg", lang="de").text)
    assert german.get("{http://www.w3.org/XML/1998/namespace}lang") == "de"
    assert german.find(f"{SVG}title").text == "Empfindlichkeit gegenüber der Geburtszeit"


def test_a_picture_costs_the_jsons_3_credits(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert client.get(PATH, params={**BIRTH, "format": "svg"}).status_code == 200
        assert balance(stack, name) == 7
        assert client.get(PATH, params={**BIRTH, "format": "png", "size": 600}).status_code == 200
        assert balance(stack, name) == 4


def test_the_json_answer_is_unchanged_by_pictures(api):
    assert set(answer(api, **BIRTH, format="json")["data"]) == {
        "birth",
        "start",
        "end",
        "ayanamsha",
        "facts",
        "changes",
    }


@pytest.mark.parametrize(("param", "value"), [("theme", "dark"), ("size", "800"), ("lang", "de")])
def test_a_pictures_parameter_with_format_json_is_refused_and_costs_nothing(stack, param, value):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        error = assert_error(client.get(PATH, params={**BIRTH, param: value}), 400, "invalid_parameter", param)
    assert "format=svg" in error["suggestion"]
    assert balance(stack, name) == 10


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"format": "gif"}, "format"),
        ({"format": "svg", "theme": "sepia"}, "theme"),
        ({"format": "svg", "lang": "xx"}, "lang"),
        ({"format": "svg", "size": "599"}, "size"),
        ({"format": "svg", "size": "4001"}, "size"),
        ({"format": "png", "size": "4000"}, "size"),
    ],
    ids=["unknown format", "unknown theme", "unknown lang", "size below 600", "size above 4000", "a PNG above 16M px"],
)
def test_a_picture_outside_its_bounds_is_refused_and_costs_nothing(stack, params, param):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        error = assert_error(client.get(PATH, params={**BIRTH, **params}), 400, "invalid_parameter", param)
    assert balance(stack, name) == 10
    if params.get("format") == "png":
        largest = int(error["suggestion"].split("size=")[1].split()[0])
        assert largest * timeline_height(largest, len(PLANETS) * 4 + 5, len(PLANETS) + 2) <= MAX_PNG_PIXELS
        assert (largest + 1) * timeline_height(largest + 1, len(PLANETS) * 4 + 5, len(PLANETS) + 2) > MAX_PNG_PIXELS


def test_a_picture_answers_an_etag_and_if_none_match_is_304_and_free(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        first = client.get(PATH, params={**BIRTH, "format": "svg"})
        assert first.headers["cache-control"] == "public, max-age=86400"
        again = client.get(PATH, params={**BIRTH, "format": "svg"}, headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        assert (
            client.get(PATH, params={**BIRTH, "format": "svg", "lang": "fr"}).headers["etag"] != first.headers["etag"]
        )
        assert "etag" not in client.get(PATH, params=BIRTH).headers
    assert balance(stack, name) == 1  # the first picture, the French one and the JSON: 3 each; the 304 free


def test_a_picture_of_a_birth_given_in_utc_shows_utc_alone(api):
    root = ET.fromstring(
        api.get(PATH, params={"datetime": "1985-07-13T12:05:00Z", "lat": 48.85, "lon": 2.35, "format": "svg"}).text
    )
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Local time" not in texts and "UTC" in texts
    assert any(t.startswith("Birth: 1985-07-13 12:05 UTC") for t in texts)


# --- The facts with their timeline beside them (svg=true), as /v1/chart-wheel's format=json ---

DRAWN = {"theme": "dark", "size": 800, "lang": "de"}


def test_svg_true_puts_the_format_svg_document_byte_for_byte_and_its_sha256_beside_the_facts(api):
    params = {**BIRTH, **DRAWN, "at": "2026-01-01T00:00:00Z"}
    found = answer(api, **params, svg="true")["data"]
    drawn = picture(api, **params, format="svg")
    assert found["svg"].encode() == drawn.content
    assert found["sha256"] == hashlib.sha256(drawn.content).hexdigest()
    plain = answer(api, **BIRTH, at="2026-01-01T00:00:00Z")["data"]
    assert {k: v for k, v in found.items() if k not in ("svg", "sha256")} == plain


def test_svg_true_draws_the_default_timeline_and_has_no_png_bound(api):
    found = answer(api, **BIRTH, svg="true")["data"]
    assert found["svg"].encode() == picture(api, format="svg").content
    # size=4000 is refused as a PNG (test_a_picture_outside_its_bounds_is_refused...): an SVG,
    # beside the JSON or alone, has no pixels to bound.
    wide = ET.fromstring(answer(api, **BIRTH, svg="true", size=4000)["data"]["svg"])
    assert wide.get("width") == "4000"


def test_svg_true_costs_a_pictures_3_credits_the_jsons_and_is_not_cached(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        beside = client.get(PATH, params={**BIRTH, "svg": "true"})
        assert beside.json()["meta"]["credits_used"] == 3
        assert balance(stack, name) == 7
        posted = client.post(PATH, json={**BIRTH, "svg": True, "theme": "dark"})
        assert posted.json()["meta"]["credits_used"] == 3 and "svg" in posted.json()["data"]
        assert balance(stack, name) == 4
        assert (
            "etag" not in beside.headers
        )  # an envelope, with its request id and balance: not cached, as the wheel's json


@pytest.mark.parametrize("picture_format", ["svg", "png"])
def test_svg_true_with_a_picture_format_is_refused_naming_svg_and_costs_nothing(stack, picture_format):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        error = assert_error(
            client.get(PATH, params={**BIRTH, "format": picture_format, "svg": "true"}), 400, "invalid_parameter", "svg"
        )
    assert "format=json" in error["suggestion"]
    assert balance(stack, name) == 10


def test_a_pictures_parameter_with_svg_false_is_refused_suggesting_svg_true(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        error = assert_error(
            client.get(PATH, params={**BIRTH, "svg": "false", "lang": "fr"}), 400, "invalid_parameter", "lang"
        )
    assert "svg=true" in error["suggestion"] and "format=svg" in error["suggestion"]
    assert balance(stack, name) == 10
