"""The ETag, Cache-Control and If-None-Match of pictures (gateway/picture_caching.py), rule by
rule; the gateway's answers with them are in tests/api/test_chart_wheel_api.py."""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as ephemeris_pb
from celestial.v1 import search_service_pb2 as search_pb
from celestial.v1.common_pb2 import Moment
from gateway import picture_caching, version
from gateway.picture_caching import (
    FIXED,
    STORED,
    answers_a_picture,
    cache_control,
    entity_tag,
    none_match,
    picture_formats,
)
from shared.runtime.validation import validate

WHEEL = "/v1/chart-wheel"


def _wheel(**fields) -> ephemeris_pb.DrawChartWheelRequest:
    request = ephemeris_pb.DrawChartWheelRequest(**fields)
    request.birth.moment.CopyFrom(Moment(datetime="1990-06-15T14:30:00Z"))
    request.birth.location.lat, request.birth.location.lon = 51.5, -0.13
    return validate(request).message


def test_the_picture_formats_are_the_image_members_of_the_answer():
    assert picture_formats(ephemeris_pb.DrawChartWheelResponse.DESCRIPTOR) == {"svg", "png"}


def test_a_calendar_document_is_no_picture():
    responses = search_pb.DESCRIPTOR.message_types_by_name.values()
    assert all("ics" not in picture_formats(response) for response in responses)


def test_a_wheel_answers_a_picture_by_default_and_not_as_json():
    response = ephemeris_pb.DrawChartWheelResponse.DESCRIPTOR
    assert answers_a_picture(_wheel(), response)
    assert answers_a_picture(_wheel(format="png"), response)
    assert not answers_a_picture(_wheel(format="json"), response)


def test_the_tag_is_a_strong_quoted_128_bit_hex_digest():
    tag = entity_tag(WHEEL, _wheel())
    assert tag.startswith('"') and tag.endswith('"') and len(tag) == 34
    int(tag.strip('"'), 16)


def test_a_default_sent_or_left_out_gives_the_same_tag():
    assert entity_tag(WHEEL, _wheel()) == entity_tag(WHEEL, _wheel(theme="light", size=800, format="svg"))


def test_each_parameter_changes_the_tag():
    tags = {entity_tag(WHEEL, _wheel(**fields)) for fields in ({}, {"theme": "dark"}, {"size": 801}, {"lang": "ru"})}
    assert len(tags) == 4


@pytest.mark.parametrize("name", ["BUILD_VERSION", "API_VERSION"])
def test_a_new_version_changes_the_tag(monkeypatch, name):
    before = entity_tag(WHEEL, _wheel())
    monkeypatch.setattr(version, name, getattr(version, name) + "+1")
    assert entity_tag(WHEEL, _wheel()) != before


def test_a_release_that_draws_differently_changes_the_tag_whatever_the_build_number(monkeypatch):
    before = entity_tag(WHEEL, _wheel())
    monkeypatch.setattr(picture_caching, "code_digest", lambda: "0" * 16)
    assert entity_tag(WHEEL, _wheel()) != before


def test_a_new_rasteriser_changes_the_tag(monkeypatch):
    before = entity_tag(WHEEL, _wheel())
    monkeypatch.setattr(picture_caching, "RASTERISER", "svg2png-py 0.0.0")
    assert entity_tag(WHEEL, _wheel()) != before


def test_a_new_zlib_changes_the_tag(monkeypatch):
    """A PNG's IDAT is deflated by Python's zlib: another zlib may write other bytes."""
    before = entity_tag(WHEEL, _wheel())
    monkeypatch.setattr(picture_caching.zlib, "ZLIB_RUNTIME_VERSION", "0.0.0")
    assert entity_tag(WHEEL, _wheel()) != before


def test_a_picture_of_sent_parameters_is_public_for_a_day_and_a_stored_charts_private():
    request_cls = ephemeris_pb.DrawChartWheelRequest
    assert cache_control(request_cls, {"datetime", "lat", "lon"}) == FIXED == "public, max-age=86400"
    for name in ("chart", "chart_a", "chart_b"):
        assert cache_control(request_cls, {name, "theme"}) == STORED == "private, no-cache"


@pytest.mark.parametrize(
    "header, matches",
    [
        (None, False),
        ('"abc"', True),
        ('W/"abc"', True),
        ('"x", "abc"', True),
        ('"x",W/"abc" ', True),
        ("*", True),
        ('"abcd"', False),
        ('"ab"', False),
        ("abc", False),
        ("", False),
    ],
)
def test_if_none_match_matches_the_tag_weakly_in_a_list_or_as_a_star(header, matches):
    assert none_match(header, '"abc"') is matches
