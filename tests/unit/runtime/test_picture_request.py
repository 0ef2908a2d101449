"""The rules a request for a picture follows (shared/runtime/picture_request.py).

References: vedic.proto, ComputeVedicChartRequest (format json, svg or png; style, theme, size
and lang with their defaults); the bound of 16,000,000 pixels, checked against hand arithmetic
(two charts side by side: 2 × 2828² = 15,995,168 fits, 2 × 2829² = 16,006,482 does not)."""

from __future__ import annotations

import pytest

from celestial.v1 import vedic_pb2 as pb
from shared.errors import InvalidParameter
from shared.runtime.picture_request import (
    MAX_PNG_PIXELS,
    largest_fitting_size,
    picture_parameters,
    refuse_oversized_png,
)

NAMES = ("style", "theme", "size", "lang")


def read(beside_json: str = "", **fields) -> dict | None:
    return picture_parameters(
        pb.ComputeVedicChartRequest(**fields),
        NAMES,
        drawing="the chart",
        json_answers="the chart's points",
        beside_json=beside_json,
    )


def two_charts(size: int) -> tuple[int, int]:
    return 2 * size, size


def test_a_picture_reads_each_parameter_sent_or_its_declared_default():
    assert read(format="svg", theme="dark") == {"style": "north_indian", "theme": "dark", "size": 800, "lang": "en"}
    assert read(format="png", size=300, lang="ru")["size"] == 300


def test_format_json_without_picture_parameters_draws_nothing():
    assert read(format="json") is None


@pytest.mark.parametrize(("field", "value"), [("style", "south_indian"), ("theme", "dark"), ("size", 400)])
def test_a_picture_parameter_sent_with_format_json_is_refused_naming_it(field, value):
    with pytest.raises(InvalidParameter) as refused:
        read(format="json", **{field: value})
    assert refused.value.param == field
    assert f"{field} is how the chart is drawn; format=json answers the chart's points" in str(refused.value)
    assert f"format=svg or format=png to draw the chart with {field}={value}" in refused.value.suggestion


def test_the_switch_for_the_svg_beside_the_json_draws_with_format_json_and_takes_its_parameters():
    assert read("svg", format="json", svg=True, theme="dark")["theme"] == "dark"
    assert read("svg", format="json", svg=False) is None


def test_a_picture_parameter_refused_where_the_switch_exists_suggests_it():
    with pytest.raises(InvalidParameter) as refused:
        read("svg", format="json", svg=False, lang="de")
    assert refused.value.param == "lang"
    assert "(or svg=true to have its SVG beside the JSON)" in refused.value.suggestion


@pytest.mark.parametrize("picture_format", ["svg", "png"])
def test_the_switch_on_with_a_picture_format_is_refused_naming_it(picture_format):
    with pytest.raises(InvalidParameter) as refused:
        read("svg", format=picture_format, svg=True)
    assert refused.value.param == "svg"
    assert "format=json" in refused.value.suggestion
    assert read("svg", format=picture_format, svg=False)["style"] == "north_indian"


def test_the_largest_fitting_size_is_the_last_whose_pixels_fit():
    assert largest_fitting_size(two_charts, 2829) == 2828
    assert largest_fitting_size(lambda size: (size, size), 4001) == 4000
    # A height that is not proportional to the width (a timeline's rows over a fixed header).
    found = largest_fitting_size(lambda width: (width, width * 3 + 1000), 4000)
    assert found * (found * 3 + 1000) <= MAX_PNG_PIXELS < (found + 1) * ((found + 1) * 3 + 1000)


def test_a_png_within_the_bound_passes_and_one_past_it_is_refused_naming_size():
    refuse_oversized_png(2828, two_charts, picture="A PNG of 2 charts of 2828 pixels", fewer="fewer vargas")
    with pytest.raises(InvalidParameter) as refused:
        refuse_oversized_png(2829, two_charts, picture="A PNG of 2 charts of 2829 pixels", fewer="fewer vargas")
    assert refused.value.param == "size"
    assert str(refused.value) == (
        "A PNG of 2 charts of 2829 pixels is 5658 by 2829 pixels, more than the 16,000,000 pixels a PNG may have."
    )
    assert refused.value.suggestion == "Send size=2828 or less, fewer vargas, or format=svg (no such bound)."
