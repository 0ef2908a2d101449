"""/v1/chart-wheel (issue 37): the natal chart drawn as a wheel, rule by rule. The picture's
own geometry is checked in tests/unit/services/test_wheel.py; here, that the wheel draws exactly the
chart /v1/natal-chart answers for the same parameters, and the endpoint's rules."""

from __future__ import annotations

import base64
import hashlib
import struct
import xml.etree.ElementTree as ET

import pytest

from tests.api.test_conventions_api import assert_error, balance

WHEEL = "/v1/chart-wheel"
BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
SVG = "{http://www.w3.org/2000/svg}"


def _points(svg_text: str) -> dict[str, ET.Element]:
    return {g.get("data-body"): g for g in ET.fromstring(svg_text).iter(f"{SVG}g") if g.get("class") == "point"}


@pytest.mark.parametrize("params", [
    {},
    {"bodies": "all", "system": "whole_sign", "sidereal": "lahiri"},
    {"system": "gauquelin", "aspects": "conjunction,square"},
    {"datetime": "1944-06-06T08:00:00", "place": 2643743, "lat": None, "lon": None},
], ids=["default", "all bodies, whole signs, lahiri", "gauquelin", "local time at a place"])
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


def test_format_png_is_the_picture_itself_with_its_digest(api):
    wheel = api.get(WHEEL, params={**BIRTH, "format": "png"})
    assert wheel.status_code == 200, wheel.text
    assert wheel.headers["content-type"] == "image/png"
    assert _png_size(wheel.content) == (800, 800)
    digest = base64.b64encode(hashlib.sha256(wheel.content).digest()).decode()
    assert wheel.headers["content-digest"] == f"sha-256=:{digest}:"


@pytest.mark.parametrize("size", [200, 1000])
def test_a_png_is_size_pixels_square(api, size):
    assert _png_size(api.get(WHEEL, params={**BIRTH, "format": "png", "size": size}).content) == (size, size)


def test_the_largest_png_passes_through_the_gateway(api):
    """4,000 px, every body, the dark theme: about 1.2 MB, within gRPC's 4 MB message limit
    between the service and the gateway."""
    wheel = api.get(WHEEL, params={**BIRTH, "format": "png", "size": 4000, "bodies": "all", "theme": "dark"})
    assert wheel.status_code == 200, wheel.text
    assert _png_size(wheel.content) == (4000, 4000)


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
    assert api.get(WHEEL, params={**BIRTH, "theme": "dark"}).content == api.get(WHEEL, params={**BIRTH, "theme": "dark"}).content


@pytest.mark.parametrize("theme", ["light", "dark", "high_contrast", "print"])
def test_each_theme_draws_in_its_own_colours(api, theme):
    text = api.get(WHEEL, params={**BIRTH, "theme": theme}).text
    background = ET.fromstring(text).find(f"{SVG}rect").get("fill")
    assert background == {"light": "#ffffff", "dark": "#0d1117", "high_contrast": "#ffffff", "print": "#ffffff"}[theme]
    assert "var(" not in text


def test_size_sets_the_pictures_width_and_height(api):
    svg = ET.fromstring(api.get(WHEEL, params={**BIRTH, "size": 1200}).text)
    assert (svg.get("width"), svg.get("height"), svg.get("viewBox")) == ("1200", "1200", "0 0 1200 1200")


def test_a_wheel_costs_the_natal_charts_2_credits_plus_1(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert client.get(WHEEL, params=BIRTH).status_code == 200
        assert balance(stack, name) == 7
        assert client.get(WHEEL, params={**BIRTH, "format": "json"}).json()["meta"]["credits_used"] == 3
        assert client.get(WHEEL, params={**BIRTH, "format": "png"}).status_code == 200
        assert balance(stack, name) == 1


@pytest.mark.parametrize("params, param", [
    ({"theme": "neon"}, "theme"),
    ({"format": "gif"}, "format"),
    ({"size": 100}, "size"),
    ({"size": 5000}, "size"),
    ({"lat": 95}, "lat"),
])
def test_bad_wheel_parameters_are_refused_before_any_charge(stack, params, param):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(client.get(WHEEL, params={**BIRTH, **params}), 400, "invalid_parameter", param)
    assert balance(stack, name) == 10
