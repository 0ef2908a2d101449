"""/v1/chart-wheel's ``band`` (issue 51): the zodiac band plain (the default) or each sign's
segment tinted by its element, at no extra cost; the tints' contrast is held in
tests/unit/services/test_wheel_contrast.py."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from kernel.zodiac import SIGNS as ZODIAC_SIGNS
from shared.pictures.themes import ELEMENT_OF_SIGN, THEMES
from tests.api.test_conventions_api import assert_error, balance

WHEEL = "/v1/chart-wheel"
BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
SVG = "{http://www.w3.org/2000/svg}"
SIGNS = tuple(sign.lower() for sign in ZODIAC_SIGNS)


def _segments(svg_text: str) -> list[ET.Element]:
    return [p for p in ET.fromstring(svg_text).iter(f"{SVG}path") if p.get("class") == "band-segment"]


def test_the_band_is_plain_by_default_with_no_segments(api):
    plain = api.get(WHEEL, params=BIRTH).text
    assert plain == api.get(WHEEL, params={**BIRTH, "band": "plain"}).text
    assert _segments(plain) == []


@pytest.mark.parametrize("theme", ["light", "dark", "high_contrast"])
def test_band_elements_tints_each_signs_segment_by_its_element(api, theme):
    wheel = api.get(WHEEL, params={**BIRTH, "band": "elements", "theme": theme})
    assert wheel.status_code == 200, wheel.text
    segments = _segments(wheel.text)
    assert [(s.get("data-sign"), s.get("data-element")) for s in segments] == list(zip(SIGNS, ELEMENT_OF_SIGN))
    fills = {s.get("data-element"): s.get("fill") for s in segments}
    assert len(set(fills.values())) == 4 and THEMES[theme].band not in fills.values()
    assert all(s.get("fill") == fills[s.get("data-element")] for s in segments)


def test_band_elements_costs_what_a_plain_wheel_costs(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert client.get(WHEEL, params={**BIRTH, "band": "elements"}).status_code == 200
    assert balance(stack, name) == 7


def test_an_unknown_band_is_refused_before_any_charge(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        error = assert_error(client.get(WHEEL, params={**BIRTH, "band": "signs"}), 400, "invalid_parameter", "band")
    assert "elements" in error["suggestion"]
    assert balance(stack, name) == 10
