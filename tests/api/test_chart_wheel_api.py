"""/v1/chart-wheel (issue 37): the natal chart drawn as a wheel, rule by rule. The picture's
own geometry is checked in tests/unit/services/test_wheel.py; here, that the wheel draws exactly the
chart /v1/natal-chart answers for the same parameters, and the endpoint's rules."""

from __future__ import annotations

import base64
import hashlib
import re
import struct
import xml.etree.ElementTree as ET

import pytest

from tests.api.test_conventions_api import assert_error, balance

WHEEL = "/v1/chart-wheel"
BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
SVG = "{http://www.w3.org/2000/svg}"


def _points(svg_text: str) -> dict[str, ET.Element]:
    """Return the bodies' points of a wheel (not the points drawn beside them: a south node, a lot,
    the Vertex), by body."""
    return {
        g.get("data-body"): g
        for g in ET.fromstring(svg_text).iter(f"{SVG}g")
        if g.get("class") == "point" and g.get("data-kind") == "body"
    }


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"bodies": "all", "system": "whole_sign", "sidereal": "lahiri"},
        {"system": "gauquelin", "aspects": "conjunction,square"},
        {"datetime": "1944-06-06T08:00:00", "place": 2643743, "lat": None, "lon": None},
    ],
    ids=["default", "all bodies, whole signs, lahiri", "gauquelin", "local time at a place"],
)
def test_the_wheel_draws_exactly_the_natal_chart_of_the_same_parameters(api, params):
    sent = {k: v for k, v in {**BIRTH, **params}.items() if v is not None}
    chart = api.get("/v1/natal-chart", params=sent).json()["data"]
    wheel = api.get(WHEEL, params=sent)
    assert wheel.status_code == 200, wheel.text
    points = _points(wheel.text)
    assert list(points) == [p["body"] for p in chart["positions"]]
    for position in chart["positions"]:
        assert float(points[position["body"]].get("data-longitude")) == pytest.approx(position["longitude"], abs=1e-6)
        assert int(points[position["body"]].get("data-house")) == position["house"]
    cusps = [g for g in ET.fromstring(wheel.text).iter(f"{SVG}g") if g.get("class") == "cusp"]
    assert [float(g.get("data-longitude")) for g in cusps] == pytest.approx(chart["houses"]["cusps"][1:], abs=1e-6)


def test_format_svg_is_the_document_itself_with_its_digest(api):
    wheel = api.get(WHEEL, params=BIRTH)
    assert wheel.headers["content-type"].startswith("image/svg+xml")
    assert ET.fromstring(wheel.text).tag == f"{SVG}svg"
    digest = base64.b64encode(hashlib.sha256(wheel.content).digest()).decode()
    assert wheel.headers["content-digest"] == f"sha-256=:{digest}:"


def test_format_json_is_the_natal_chart_with_the_svg_and_its_sha256_beside_it(api):
    body = api.get(WHEEL, params={**BIRTH, "format": "json"}).json()
    assert body["data"]["chart"] == api.get("/v1/natal-chart", params=BIRTH).json()["data"]
    assert body["data"]["sha256"] == hashlib.sha256(body["data"]["svg"].encode()).hexdigest()
    assert body["data"]["svg"] == api.get(WHEEL, params=BIRTH).text


def _png_size(content: bytes) -> tuple[int, int]:
    """Return a PNG's width and height (pixels), read from its IHDR chunk."""
    assert content[:8] == b"\x89PNG\r\n\x1a\n" and content[12:16] == b"IHDR"
    return struct.unpack(">II", content[16:24])


def _svg_size(svg_text: str) -> tuple[int, int]:
    svg = ET.fromstring(svg_text)
    return int(svg.get("width")), int(svg.get("height"))


def test_format_png_is_the_picture_itself_with_its_digest(api):
    wheel = api.get(WHEEL, params={**BIRTH, "format": "png"})
    assert wheel.status_code == 200, wheel.text
    assert wheel.headers["content-type"] == "image/png"
    assert _png_size(wheel.content) == _svg_size(api.get(WHEEL, params=BIRTH).text)
    digest = base64.b64encode(hashlib.sha256(wheel.content).digest()).decode()
    assert wheel.headers["content-digest"] == f"sha-256=:{digest}:"


@pytest.mark.parametrize("size", [200, 1000])
def test_a_png_is_size_pixels_wide_and_square_without_its_header(api, size):
    width, height = _png_size(api.get(WHEEL, params={**BIRTH, "format": "png", "size": size}).content)
    assert width == size and height > size
    bare = api.get(WHEEL, params={**BIRTH, "format": "png", "size": size, "header": "false"}).content
    assert _png_size(bare) == (size, size)


def test_the_largest_png_passes_through_the_gateway(api):
    """4,000 px, every body, the dark theme: about 1.2 MB, within gRPC's 4 MB message limit
    between the service and the gateway."""
    wheel = api.get(WHEEL, params={**BIRTH, "format": "png", "size": 4000, "bodies": "all", "theme": "dark"})
    assert wheel.status_code == 200, wheel.text
    assert _png_size(wheel.content)[0] == 4000


def test_the_same_png_request_gives_the_same_bytes(api):
    params = {**BIRTH, "format": "png", "theme": "dark"}
    assert api.get(WHEEL, params=params).content == api.get(WHEEL, params=params).content


def test_a_batch_carries_a_png_as_base64_in_its_data(api):
    params = {**BIRTH, "format": "png", "size": 300}
    batch = api.post("/v1/batch", json={"requests": [{"endpoint": WHEEL, "params": params}]}).json()
    result = batch["data"]["results"][0]
    assert result["status"] == 200
    assert base64.b64decode(result["data"], validate=True) == api.get(WHEEL, params=params).content


def test_a_batch_carries_an_svg_as_its_text(api):
    batch = api.post("/v1/batch", json={"requests": [{"endpoint": WHEEL, "params": BIRTH}]}).json()
    assert batch["data"]["results"][0]["data"] == api.get(WHEEL, params=BIRTH).text


def test_the_openapi_document_lists_png_as_binary_beside_svg_and_json(api):
    content = api.get("/v1/openapi.json").json()["paths"][WHEEL]["get"]["responses"]["200"]["content"]
    assert set(content) == {"application/json", "image/svg+xml", "image/png"}
    assert content["image/png"]["schema"] == {"type": "string", "format": "binary"}


def test_the_same_request_gives_the_same_bytes(api):
    assert (
        api.get(WHEEL, params={**BIRTH, "theme": "dark"}).content
        == api.get(WHEEL, params={**BIRTH, "theme": "dark"}).content
    )


@pytest.mark.parametrize("theme", ["light", "dark", "high_contrast", "print"])
def test_each_theme_draws_in_its_own_colours(api, theme):
    text = api.get(WHEEL, params={**BIRTH, "theme": theme}).text
    background = ET.fromstring(text).find(f"{SVG}rect").get("fill")
    assert background == {"light": "#ffffff", "dark": "#0d1117", "high_contrast": "#ffffff", "print": "#ffffff"}[theme]
    assert "var(" not in text


def test_size_sets_the_bare_pictures_width_and_height(api):
    svg = ET.fromstring(api.get(WHEEL, params={**BIRTH, "size": 1200, "header": "false"}).text)
    assert (svg.get("width"), svg.get("height"), svg.get("viewBox")) == ("1200", "1200", "0 0 1200 1200")


def test_without_grid_the_picture_is_the_wheel_alone(api):
    assert api.get(WHEEL, params={**BIRTH, "grid": "none"}).text == api.get(WHEEL, params=BIRTH).text
    assert not [
        g for g in ET.fromstring(api.get(WHEEL, params=BIRTH).text).iter(f"{SVG}g") if g.get("class") == "grid-cell"
    ]


@pytest.mark.parametrize("grid, width, height", [("aside", 1750, 1000), ("below", 1000, 1750)])
def test_the_grid_makes_the_picture_three_quarters_of_size_wider_or_taller(api, grid, width, height):
    bare = {**BIRTH, "size": 1000, "grid": grid, "header": "false"}
    svg = ET.fromstring(api.get(WHEEL, params=bare).text)
    assert (svg.get("width"), svg.get("height")) == (str(width), str(height))
    assert _png_size(api.get(WHEEL, params={**bare, "format": "png"}).content) == (
        width,
        height,
    )


def test_a_bi_wheels_grid_is_its_cross_aspects(api):
    body = _json_wheel(api, {**BIRTH_A, **BIRTH_B, "kind": "synastry", "grid": "below"})
    cells = [
        (g.get("data-body-a"), g.get("data-aspect"), g.get("data-body-b"))
        for g in ET.fromstring(body["svg"]).iter(f"{SVG}g")
        if g.get("class") == "grid-cell"
    ]
    assert cells and cells == [(a["body_a"], a["aspect"], a["body_b"]) for a in body["cross_aspects"]]


def test_a_wheel_costs_the_natal_charts_2_credits_plus_1(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert client.get(WHEEL, params=BIRTH).status_code == 200
        assert balance(stack, name) == 7
        assert client.get(WHEEL, params={**BIRTH, "format": "json"}).json()["meta"]["credits_used"] == 3
        assert client.get(WHEEL, params={**BIRTH, "format": "png"}).status_code == 200
        assert balance(stack, name) == 1


@pytest.mark.parametrize(
    "params, param",
    [
        ({"theme": "neon"}, "theme"),
        ({"format": "gif"}, "format"),
        ({"size": 100}, "size"),
        ({"size": 5000}, "size"),
        ({"lat": 95}, "lat"),
        ({"lang": "xx"}, "lang"),
        ({"palette": "backgroud:#101820"}, "palette"),
        ({"palette": "background:#10182g"}, "palette"),
        ({"palette": "background:101820"}, "palette"),
        ({"palette": "background"}, "palette"),
        ({"palette": "background:#101820,background:#202020"}, "palette"),
        ({"grid": "left"}, "grid"),
        ({"table": "left"}, "table"),
        ({"header": "maybe"}, "header"),
        ({"name": "x" * 81}, "name"),
        ({"name": "Ada\nLovelace"}, "name"),
        ({"name": "Ada\x07"}, "name"),
    ],
)
def test_bad_wheel_parameters_are_refused_before_any_charge(stack, params, param):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(client.get(WHEEL, params={**BIRTH, **params}), 400, "invalid_parameter", param)
    assert balance(stack, name) == 10


# --- kind (issue 37): each wheel draws exactly its kind's endpoint's chart(s) -------------

BIRTH_A = {"datetime_a": "1990-06-15T14:30:00Z", "lat_a": 51.5, "lon_a": -0.13}
BIRTH_B = {"datetime_b": "1985-11-02T06:10:00Z", "lat_b": -33.87, "lon_b": 151.21}
OPTIONS = {"system": "whole_sign", "sidereal": "lahiri", "bodies": "planets,chiron,mean_node"}


def _json_wheel(api, params: dict) -> dict:
    response = api.get(WHEEL, params={**params, "format": "json"})
    assert response.status_code == 200, response.text
    return response.json()["data"]


@pytest.mark.parametrize(
    "kind, endpoint, params",
    [
        ("composite", "/v1/composite", {**BIRTH_A, **BIRTH_B}),
        ("davison", "/v1/davison", {**BIRTH_A, **BIRTH_B}),
        ("draconic", "/v1/draconic", {**BIRTH, "node": "true_node"}),
    ],
)
@pytest.mark.parametrize("options", [{}, OPTIONS], ids=["defaults", "whole signs, lahiri"])
def test_a_single_wheel_of_each_kind_is_exactly_its_endpoints_chart(api, kind, endpoint, params, options):
    expected = api.get(endpoint, params={**params, **options}).json()["data"]
    wheel = _json_wheel(api, {**params, **options, "kind": kind})
    assert wheel["chart"] == expected
    assert "inner" not in wheel and "outer" not in wheel and "cross_aspects" not in wheel
    points = _points(wheel["svg"])
    assert [float(points[p["body"]].get("data-longitude")) for p in expected["positions"]] == pytest.approx(
        [p["longitude"] for p in expected["positions"]], abs=1e-6
    )


@pytest.mark.parametrize("options", [{}, OPTIONS], ids=["defaults", "whole signs, lahiri"])
def test_a_synastry_bi_wheel_is_exactly_the_synastry_charts_and_inter_aspects(api, options):
    synastry = api.get("/v1/synastry", params={**BIRTH_A, **BIRTH_B, **options}).json()["data"]
    wheel = _json_wheel(api, {**BIRTH_A, **BIRTH_B, **options, "kind": "synastry"})
    assert wheel["inner"] == synastry["chart_a"]
    assert wheel["outer"] == synastry["chart_b"]
    assert wheel["cross_aspects"] == synastry["inter_aspects"]
    assert "chart" not in wheel


@pytest.mark.parametrize("options", [{}, OPTIONS], ids=["defaults", "whole signs, lahiri"])
def test_a_transit_bi_wheel_is_the_natal_chart_inside_and_the_sky_at_the_natal_place_outside(api, options):
    natal = api.get("/v1/natal-chart", params={**BIRTH, **options}).json()["data"]
    sky = api.get("/v1/natal-chart", params={**BIRTH, **options, "datetime": "2026-03-01T12:00:00Z"}).json()["data"]
    wheel = _json_wheel(api, {**BIRTH, **options, "kind": "transit", "transit_datetime": "2026-03-01T12:00:00Z"})
    assert wheel["inner"] == natal and wheel["outer"] == sky
    # The cross aspects are /v1/synastry's inter-aspects between the same two charts.
    synastry = api.get(
        "/v1/synastry",
        params={
            "datetime_a": BIRTH["datetime"],
            "lat_a": BIRTH["lat"],
            "lon_a": BIRTH["lon"],
            "datetime_b": "2026-03-01T12:00:00Z",
            "lat_b": BIRTH["lat"],
            "lon_b": BIRTH["lon"],
            **options,
        },
    ).json()["data"]
    assert wheel["cross_aspects"] == synastry["inter_aspects"]


def test_a_progressed_bi_wheel_is_the_natal_chart_inside_and_the_progressed_chart_outside(api):
    params = {**BIRTH, "target_datetime": "2026-03-01T00:00:00Z", "year_days": 365.25, "system": "equal"}
    progressed = api.get("/v1/progressed", params=params).json()["data"]
    natal = api.get("/v1/natal-chart", params={**BIRTH, "system": "equal"}).json()["data"]
    wheel = _json_wheel(api, {**params, "kind": "progressed"})
    assert wheel["inner"] == natal and wheel["outer"] == progressed


@pytest.mark.parametrize("body", ["sun", "moon"])
def test_a_return_bi_wheel_is_the_natal_chart_inside_and_the_first_return_outside(api, body):
    returns = api.get(
        "/v1/returns",
        params={
            "datetime": BIRTH["datetime"],
            "lat": BIRTH["lat"],
            "lon": BIRTH["lon"],
            "body": body,
            "search_start": "2026-01-01T00:00:00Z",
        },
    ).json()["data"]
    natal = api.get("/v1/natal-chart", params=BIRTH).json()["data"]
    wheel = _json_wheel(api, {**BIRTH, "kind": "return", "return_body": body, "search_start": "2026-01-01T00:00:00Z"})
    assert wheel["inner"] == natal and wheel["outer"] == returns["charts"][0]


def test_each_ring_of_a_bi_wheel_carries_its_own_charts_points(api):
    wheel = _json_wheel(api, {**BIRTH_A, **BIRTH_B, "kind": "synastry"})
    drawn = [g for g in ET.fromstring(wheel["svg"]).iter(f"{SVG}g") if g.get("class") == "point"]
    for ring, chart in (("inner", wheel["inner"]), ("outer", wheel["outer"])):
        points = [g for g in drawn if g.get("data-ring") == ring and g.get("data-kind") == "body"]
        assert [g.get("data-body") for g in points] == [p["body"] for p in chart["positions"]]
        assert [float(g.get("data-longitude")) for g in points] == pytest.approx(
            [p["longitude"] for p in chart["positions"]], abs=1e-6
        )
        assert [int(g.get("data-house")) for g in points] == [p["house"] for p in chart["positions"]]
    description = ET.fromstring(wheel["svg"]).find(f"{SVG}desc").text
    assert description.startswith("Inner: chart A: ") and " Outer: chart B: " in description


@pytest.mark.parametrize(
    "params, param",
    [
        ({**BIRTH, "transit_datetime": "2026-03-01T12:00:00Z"}, "transit_datetime"),
        ({**BIRTH, "kind": "transit", "transit_datetime": "2026-03-01T12:00:00Z", "target_jd": 2461000.5}, "target_jd"),
        ({**BIRTH, "year_days": 365.25}, "year_days"),
        ({**BIRTH, "node": "true_node"}, "node"),
        (
            {**BIRTH, "kind": "progressed", "target_datetime": "2026-03-01T00:00:00Z", "return_body": "sun"},
            "return_body",
        ),
        ({**BIRTH, "search_start": "2026-01-01T00:00:00Z"}, "search_start"),
        ({**BIRTH, **BIRTH_B}, "datetime_b"),
        ({**BIRTH, **BIRTH_A, **BIRTH_B, "kind": "synastry"}, "datetime"),
    ],
    ids=[
        "transit moment, natal",
        "progression target, transit",
        "year_days, natal",
        "node, natal",
        "return_body, progressed",
        "search_start, natal",
        "a second birth, natal",
        "one birth, synastry",
    ],
)
def test_a_parameter_the_kind_does_not_take_is_refused_before_any_charge(stack, params, param):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        error = assert_error(client.get(WHEEL, params=params), 400, "invalid_parameter", param)
    assert balance(stack, name) == 10
    assert "kind=" in error["message"] and "kind=" in error["suggestion"]


@pytest.mark.parametrize(
    "params, code, param",
    [
        ({**BIRTH_A, **BIRTH_B, "kind": "composite", "resolution": "higher"}, "invalid_parameter", "resolution"),
        (
            {**BIRTH_A, **BIRTH_B, "kind": "composite", "house_position_mode": "mundane"},
            "invalid_parameter",
            "house_position_mode",
        ),
        ({**BIRTH, "kind": "draconic", "dignities": "true"}, "invalid_parameter", "dignities"),
        ({**BIRTH, "kind": "draconic", "house_position_mode": "mundane"}, "invalid_parameter", "house_position_mode"),
        ({**BIRTH, "kind": "draconic", "bodies": "sun,moon"}, "no_north_node", "bodies"),
        (
            {**BIRTH, "kind": "progressed", "target_datetime": "1980-01-01T00:00:00Z"},
            "invalid_progression",
            "target_datetime",
        ),
    ],
    ids=[
        "resolution, composite",
        "mundane composite",
        "draconic dignities",
        "mundane draconic",
        "draconic without a node",
        "progression before birth",
    ],
)
def test_a_kind_refuses_what_its_endpoint_refuses_before_any_charge(stack, params, code, param):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(client.get(WHEEL, params=params), 400, code, param)
    assert balance(stack, name) == 10


@pytest.mark.parametrize(
    "params, param",
    [
        ({**BIRTH, "kind": "transit"}, "transit_datetime"),
        ({**BIRTH, "kind": "progressed"}, "target_datetime"),
        ({**BIRTH, "kind": "return", "return_body": "sun"}, "search_start"),
        ({**BIRTH, "kind": "return", "search_start": "2026-01-01T00:00:00Z"}, "return_body"),
        ({**BIRTH_A, "kind": "synastry"}, "datetime_b"),
        ({**BIRTH_A, **BIRTH_B, "kind": "composite", "lat_b": None, "lon_b": None}, "lat_b"),
        ({"kind": "natal"}, "datetime"),
    ],
    ids=[
        "transit",
        "progressed",
        "return without search_start",
        "return without body",
        "synastry without B",
        "composite without B's place",
        "natal without birth",
    ],
)
def test_a_kind_missing_its_parameter_is_refused_before_any_charge(stack, params, param):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(
            client.get(WHEEL, params={k: v for k, v in params.items() if v is not None}),
            400,
            "missing_parameter",
            param,
        )
    assert balance(stack, name) == 10


SYNASTRY_OF_TRANSIT = {
    "datetime_a": BIRTH["datetime"],
    "lat_a": BIRTH["lat"],
    "lon_a": BIRTH["lon"],
    "datetime_b": "2026-03-01T12:00:00Z",
    "lat_b": BIRTH["lat"],
    "lon_b": BIRTH["lon"],
}


@pytest.mark.parametrize(
    "kind, params, endpoint, endpoint_params",
    [
        ("natal", BIRTH, "/v1/natal-chart", BIRTH),
        ("draconic", BIRTH, "/v1/draconic", BIRTH),
        (
            "progressed",
            {**BIRTH, "target_datetime": "2026-03-01T00:00:00Z"},
            "/v1/progressed",
            {**BIRTH, "target_datetime": "2026-03-01T00:00:00Z"},
        ),
        (
            "return",
            {**BIRTH, "return_body": "sun", "search_start": "2026-01-01T00:00:00Z"},
            "/v1/returns",
            {**BIRTH, "body": "sun", "search_start": "2026-01-01T00:00:00Z"},
        ),
        ("composite", {**BIRTH_A, **BIRTH_B}, "/v1/composite", {**BIRTH_A, **BIRTH_B}),
        ("davison", {**BIRTH_A, **BIRTH_B}, "/v1/davison", {**BIRTH_A, **BIRTH_B}),
        ("synastry", {**BIRTH_A, **BIRTH_B}, "/v1/synastry", {**BIRTH_A, **BIRTH_B}),
        # Two charts and their cross aspects: priced as the synastry of the same two charts.
        ("transit", {**BIRTH, "transit_datetime": "2026-03-01T12:00:00Z"}, "/v1/synastry", SYNASTRY_OF_TRANSIT),
    ],
)
def test_a_wheel_costs_its_kinds_chart_endpoint_plus_1(stack, kind, params, endpoint, endpoint_params):
    name, key = stack.new_key(credits=20)
    with stack.client(key) as client:
        assert client.get(endpoint, params=endpoint_params).status_code == 200
        endpoint_cost = 20 - balance(stack, name)
        assert client.get(WHEEL, params={**params, "kind": kind}).status_code == 200
    assert 20 - endpoint_cost - balance(stack, name) == endpoint_cost + 1


# --- lang and palette (issue 37) ----------------------------------------------------------

LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "ru")


def test_an_unknown_language_is_refused_with_the_languages_offered_costing_nothing(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        error = assert_error(client.get(WHEEL, params={**BIRTH, "lang": "klingon"}), 400, "invalid_parameter", "lang")
    assert all(lang in error["suggestion"] for lang in LANGUAGES)
    assert balance(stack, name) == 10


@pytest.mark.parametrize(
    "lang, title, sun",
    [
        ("de", "Radix", "Sonne: 24° Zwillinge, 9. Haus"),
        ("fr", "Thème natal", "Soleil à 24° Gémeaux dans la 9e maison"),
        ("ru", "Натальная карта", "Солнце: 24° Близнецы, 9-й дом"),
    ],
)
def test_lang_draws_the_title_and_description_in_that_language_and_names_it_on_the_root(api, lang, title, sun):
    svg = ET.fromstring(api.get(WHEEL, params={**BIRTH, "lang": lang}).text)
    assert svg.get("{http://www.w3.org/XML/1998/namespace}lang") == lang and svg.get("lang") == lang
    assert svg.find(f"{SVG}title").text == title
    assert svg.find(f"{SVG}desc").text.startswith(sun)


def test_english_is_the_default_language(api):
    assert api.get(WHEEL, params=BIRTH).text == api.get(WHEEL, params={**BIRTH, "lang": "en"}).text


def test_a_palette_colour_replaces_the_themes_and_costs_nothing_more(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        wheel = client.get(WHEEL, params={**BIRTH, "theme": "dark", "palette": "background:#101820,text:#F2AA4C"})
    assert wheel.status_code == 200, wheel.text
    svg = ET.fromstring(wheel.text)
    assert svg.find(f"{SVG}rect").get("fill") == "#101820"
    assert {t.get("fill") for t in svg.iter(f"{SVG}text")} == {"#f2aa4c"}
    assert balance(stack, name) == 7


def test_a_hash_sent_unencoded_is_refused_with_the_advice_to_send_it_as_percent_23(api):
    """A client writing palette=background:#101820 in a URL sends only "background:": the rest
    is the URL's fragment."""
    error = assert_error(
        api.get(WHEEL + "?datetime=1990-06-15T14:30:00Z&lat=51.5&lon=-0.13&palette=background:#101820"),
        400,
        "invalid_parameter",
        "palette",
    )
    assert "%23" in error["suggestion"]


# --- Caching (issue 51): a picture is a pure function of its request -----------------------


def test_a_picture_carries_an_etag_of_its_request_and_may_be_kept_for_a_day(api):
    for format in ("svg", "png"):
        wheel = api.get(WHEEL, params={**BIRTH, "format": format, "size": 300})
        assert wheel.status_code == 200, wheel.text
        assert re.fullmatch(r'"[0-9a-f]{32}"', wheel.headers["etag"])
        assert wheel.headers["cache-control"] == "public, max-age=86400"


def test_the_etag_is_of_the_parameters_after_defaults_not_of_their_spelling(api):
    tag = api.get(WHEEL, params=BIRTH).headers["etag"]
    spelled = {"lon": BIRTH["lon"], "theme": "light", "lat": BIRTH["lat"], "datetime": BIRTH["datetime"], "size": 800}
    assert api.get(WHEEL, params=spelled).headers["etag"] == tag
    assert api.get(WHEEL, params={**BIRTH, "theme": "dark"}).headers["etag"] != tag
    assert api.get(WHEEL, params={**BIRTH, "format": "png"}).headers["etag"] != tag


def test_the_etag_is_the_same_for_every_account(api, stack):
    _, other = stack.new_key()
    with stack.client(other) as client:
        assert client.get(WHEEL, params=BIRTH).headers["etag"] == api.get(WHEEL, params=BIRTH).headers["etag"]


def test_if_none_match_with_the_current_etag_is_304_with_no_body_and_costs_nothing(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        wheel = client.get(WHEEL, params={**BIRTH, "format": "png", "size": 300})
        assert balance(stack, name) == 7
        for if_none_match in (wheel.headers["etag"], f'"other", W/{wheel.headers["etag"]}', "*"):
            again = client.get(
                WHEEL, params={**BIRTH, "format": "png", "size": 300}, headers={"If-None-Match": if_none_match}
            )
            assert again.status_code == 304 and again.content == b""
            assert again.headers["etag"] == wheel.headers["etag"]
            assert again.headers["cache-control"] == wheel.headers["cache-control"]
            assert "x-ratelimit-remaining" in again.headers  # counted under the limits
    assert balance(stack, name) == 7


def test_if_none_match_with_another_etag_is_answered_the_picture_and_charged(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        tag = client.get(WHEEL, params={**BIRTH, "theme": "dark"}).headers["etag"]
        wheel = client.get(WHEEL, params=BIRTH, headers={"If-None-Match": tag})
    assert wheel.status_code == 200 and ET.fromstring(wheel.text).tag == f"{SVG}svg"
    assert balance(stack, name) == 4


def test_format_json_and_a_post_carry_no_etag(api):
    assert "etag" not in api.get(WHEEL, params={**BIRTH, "format": "json"}).headers
    assert "etag" not in api.post(WHEEL, json=BIRTH).headers


def test_a_stored_charts_picture_is_private_and_revalidated_and_its_etag_follows_the_chart(api):
    chart = api.post("/v1/charts", json={"name": "Ada", **BIRTH}).json()["data"]["id"]
    wheel = api.get(WHEEL, params={"chart": chart})
    assert wheel.headers["cache-control"] == "private, no-cache"
    assert wheel.headers["etag"] == api.get(WHEEL, params={**BIRTH, "name": "Ada"}).headers["etag"]
    assert api.get(WHEEL, params={"chart": chart}, headers={"If-None-Match": wheel.headers["etag"]}).status_code == 304
    assert api.patch(f"/v1/charts/{chart}", json={"lat": 48.85, "lon": 2.35}).status_code == 200
    moved = api.get(WHEEL, params={"chart": chart}, headers={"If-None-Match": wheel.headers["etag"]})
    assert moved.status_code == 200 and moved.headers["etag"] != wheel.headers["etag"]


def test_a_png_in_the_print_theme_is_greyscale_and_in_colour_rgb(api):
    """PNG colour types (IHDR's tenth byte): 0 for 8-bit greyscale, 2 for 8-bit RGB; the
    pixels are resvg's either way (tests/unit/shared/pictures/test_png_encoding.py)."""
    colour_types = {
        theme: api.get(WHEEL, params={**BIRTH, "format": "png", "size": 300, "theme": theme}).content[25]
        for theme in ("print", "light")
    }
    assert colour_types == {"print": 0, "light": 2}


# --- the header, the table, the ring labels (issue 51, part 2) ------------------------------


def _texts(svg_text: str, group: str) -> list[str]:
    """Return the texts of the picture's ``<g class=group>`` elements, in order."""
    return [
        text.text
        for g in ET.fromstring(svg_text).iter(f"{SVG}g")
        if g.get("class") == group
        for text in g.iter(f"{SVG}text")
    ]


def test_the_header_is_drawn_by_default_and_header_false_draws_the_bare_wheel(api):
    assert _texts(api.get(WHEEL, params=BIRTH).text, "header")
    bare = api.get(WHEEL, params={**BIRTH, "header": "false"}).text
    assert not _texts(bare, "header") and _svg_size(bare) == (800, 800)


def test_the_header_names_the_chart_its_local_time_and_zone_place_zodiac_and_houses(api):
    params = {"datetime": "1944-06-06T08:00:00", "place": 2643743, "sidereal": "lahiri", "name": "D-Day"}
    assert _texts(api.get(WHEEL, params=params).text, "header") == [
        "D-Day — Natal chart",
        "1944-06-06 08:00 BDST (UTC+02:00, Europe/London)",
        "London, GB · 51°31′N 0°08′W",
        "Sidereal zodiac (lahiri) · Houses: Placidus",
    ]


def test_the_header_shows_a_moment_sent_in_utc_in_utc_and_the_coordinates_alone(api):
    assert _texts(api.get(WHEEL, params=BIRTH).text, "header") == [
        "Natal chart",
        "1990-06-15 14:30 UTC",
        "51°30′N 0°08′W",
        "Tropical zodiac · Houses: Placidus",
    ]


def test_the_header_says_when_the_house_system_fell_back_to_porphyrius(api):
    header = _texts(api.get(WHEEL, params={**BIRTH, "lat": 75}).text, "header")
    assert header[-1] == "Tropical zodiac · Houses: Porphyry (Placidus has no cusps at this latitude)"


def test_a_name_is_drawn_as_sent_and_escaped(api):
    name = '<script>alert("x")</script> & Ada'
    svg = api.get(WHEEL, params={**BIRTH, "name": name}).text
    assert _texts(svg, "header")[0] == f"{name} — Natal chart"
    assert "<script>" not in svg


def test_a_stored_charts_name_is_the_headers_unless_the_request_names_another(stack):
    _name, key = stack.new_key(credits=20)
    with stack.client(key) as client:
        chart = client.post("/v1/charts", json={"name": "Ada", **BIRTH}).json()["data"]
        stored = client.get(WHEEL, params={"chart": chart["id"]})
        renamed = client.get(WHEEL, params={"chart": chart["id"], "name": "Byron"})
    assert _texts(stored.text, "header")[0] == "Ada — Natal chart"
    assert _texts(renamed.text, "header")[0] == "Byron — Natal chart"


def test_a_bi_wheels_header_names_both_charts_the_outer_one_at_the_natal_place_once(api):
    params = {"datetime": "1944-06-06T08:00:00", "place": 2643743, "kind": "transit"}
    header = _texts(api.get(WHEEL, params={**params, "transit_datetime": "2026-03-01T12:00:00Z"}).text, "header")
    assert header == [
        "Transits to the natal chart",
        "Inner: natal chart: 1944-06-06 08:00 BDST (UTC+02:00, Europe/London)",
        "London, GB · 51°31′N 0°08′W",
        # Sent in UTC, shown in the natal zone: the sky over the natal place.
        "Outer: transits at 2026-03-01 12:00 GMT (UTC+00:00, Europe/London)",
        "Tropical zodiac · Houses: Placidus",
    ]


def test_a_bi_wheels_rings_and_grid_axes_say_which_chart_is_whose(api):
    params = {**BIRTH, "kind": "transit", "transit_datetime": "2026-03-01T12:00:00Z", "grid": "aside"}
    svg = api.get(WHEEL, params=params).text
    labels = {
        g.get("data-ring"): [t.text for t in g.iter(f"{SVG}text")]
        for g in ET.fromstring(svg).iter(f"{SVG}g")
        if g.get("class") == "ring-label"
    }
    assert labels == {"outer": ["Outer:", "transits at 2026-03-01"], "inner": ["Inner:", "natal chart: 1990-06-15"]}
    assert _texts(svg, "grid-axes") == ["Columns: transits at 2026-03-01", "Rows: natal chart: 1990-06-15"]


def test_a_bi_wheel_png_in_russian_differs_from_the_english_one(api):
    params = {**BIRTH_A, **BIRTH_B, "kind": "synastry", "format": "png"}
    assert api.get(WHEEL, params=params).content != api.get(WHEEL, params={**params, "lang": "ru"}).content


def test_the_table_lists_each_body_with_its_house_then_the_cusps_and_the_angles(api):
    body = _json_wheel(api, {**BIRTH, "table": "aside"})
    groups = [g for g in ET.fromstring(body["svg"]).iter(f"{SVG}g")]
    rows = {g.get("data-body"): g for g in groups if g.get("class") == "table-body"}
    # A row per point drawn: the bodies, and the south node after its node.
    assert list(rows) == [p["body"] for p in body["points"]]
    for position in body["chart"]["positions"]:
        texts = [t.text for t in rows[position["body"]].iter(f"{SVG}text")]
        degree, minute = divmod(int(position["sign_degree"] * 60), 60)
        assert texts[0] == f"{degree}°{minute:02d}′" and texts[-1] == str(position["house"])
        assert ("℞" in texts) == position["retrograde"]
    houses = [(g.get("data-house"), g.get("data-angle")) for g in groups if g.get("class") == "table-house"]
    assert houses == [(str(n), None) for n in range(1, 13)] + [(None, "asc"), (None, "mc")]


@pytest.mark.parametrize(
    "grid, table, wider, taller",
    [
        ("none", "aside", 1, 0),
        ("none", "below", 0, 1),
        ("aside", "aside", 2, 0),
        ("below", "below", 0, 2),
        ("aside", "below", 1, 1),
    ],
)
def test_the_grid_and_the_table_each_add_three_quarters_of_size_where_they_stand(api, grid, table, wider, taller):
    params = {**BIRTH, "size": 800, "header": "false", "grid": grid, "table": table}
    assert _svg_size(api.get(WHEEL, params=params).text) == (800 + 600 * wider, 800 + 600 * taller)
    assert _png_size(api.get(WHEEL, params={**params, "format": "png"}).content) == (
        800 + 600 * wider,
        800 + 600 * taller,
    )


def test_the_header_and_the_table_cost_nothing_more(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert client.get(WHEEL, params={**BIRTH, "table": "below", "name": "Ada"}).status_code == 200
    assert balance(stack, name) == 7


@pytest.mark.parametrize(
    "params, outer",
    [
        (
            {**BIRTH, "kind": "progressed", "target_datetime": "2026-03-01T00:00:00Z"},
            "Outer: progressed to 2026-03-01 00:00 UTC",
        ),
        (
            {**BIRTH, "kind": "return", "return_body": "sun", "search_start": "2026-01-01T00:00:00Z"},
            "Outer: solar return at 2026-06-15 ",
        ),
        ({**BIRTH_A, **BIRTH_B, "kind": "synastry"}, "Outer: chart B: 1985-11-02 06:10 UTC"),
    ],
    ids=["progressed", "return", "synastry"],
)
def test_each_bi_wheels_header_names_its_outer_chart_with_its_moment(api, params, outer):
    assert any(line.startswith(outer) for line in _texts(api.get(WHEEL, params=params).text, "header"))


@pytest.mark.parametrize("kind, second", [("composite", "Chart A: 1990-06-15 14:30 UTC"), ("davison", "1988-02-")])
def test_a_two_birth_single_wheels_header_names_its_births_or_its_midpoint(api, kind, second):
    header = _texts(api.get(WHEEL, params={**BIRTH_A, **BIRTH_B, "kind": kind}).text, "header")
    assert header[1].startswith(second)
