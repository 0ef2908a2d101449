"""The golden North and South Indian charts (/v1/vedic/chart's pictures), kept under
tests/golden/vedic/ and compared pixel by pixel by tests/unit/services/test_indian_charts_png.py.

``python -m tests.golden_vedic --write`` (``python -m tests.golden_pictures vedic --write``)
draws them again, to be looked at before they are committed; ``--docs`` writes docs/vedic.md's
two pictures; without either it lists the images that differ (tests/golden_pictures.py).
"""

from __future__ import annotations

import sys
from functools import partial

from celestial.v1 import vedic_pb2
from kernel.deadline import Deadline
from services.timelords import vedic_chart
from services.timelords.indian_charts.drawing import draw_svg, picture_size
from services.timelords.indian_charts.jyotish_words import JyotishWords
from services.timelords.indian_charts.layout import ChartPoint, chart_layout
from shared.pictures.png import render_png
from shared.pictures.themes import THEMES
from shared.runtime.computation import compute_reply
from shared.runtime.transcoder import request_from_query
from tests import golden_pictures

#: The birth of the recorded example (London, 1990-06-15 14:30 UTC) and a birth in Delhi.
LONDON = {"datetime": "1990-06-15T14:30:00Z", "lat": "51.5074", "lon": "-0.1278"}
DELHI = {"datetime": "1984-11-02T05:10:00Z", "lat": "28.6139", "lon": "77.2090"}
#: The golden pictures, each the parameters of its /v1/vedic/chart request (format=png).
PICTURES: dict[str, dict[str, str]] = {
    "north-london-light": {**LONDON, "style": "north_indian", "size": "500"},
    "south-london-light": {**LONDON, "style": "south_indian", "size": "500"},
    "north-delhi-ru-dark": {**DELHI, "lang": "ru", "theme": "dark", "outer": "true", "vargas": "D9,D10", "size": "400"},
    "south-delhi-high_contrast": {**DELHI, "style": "south_indian", "theme": "high_contrast", "size": "400"},
}
#: The worst case a house meets, drawn from the layout (no birth has it): every graha, the
#: outer planets too, retrograde and combust at 29°59′, in one sign (Taurus, the North Indian
#: 2nd house, a corner triangle, the smallest), the lagna in Aries, in the print theme.
CROWDED = ("north-crowded-print", "south-crowded-print")
#: docs/vedic.md's pictures: the recorded example's birth in each style.
DOCS_PICTURES = {"vedic-north-indian.png": "north-london-light", "vedic-south-indian.png": "south-london-light"}


def draw_png(picture: str) -> bytes:
    """Return the PNG of the golden ``picture``."""
    if picture in CROWDED:
        return render_png(*draw_document(picture))
    params = {**PICTURES[picture], "format": "png"}
    request = request_from_query(vedic_pb2.ComputeVedicChartRequest, list(params.items()), "/v1/vedic/chart")
    return compute_reply(vedic_chart.compute, request, Deadline.never()).data.png


def draw_document(picture: str) -> tuple[str, int, int]:
    """Return the SVG document of the golden ``picture`` and its width and height in pixels."""
    if picture in CROWDED:
        return _crowded_svg(picture.split("-")[0] + "_indian")
    params = {**PICTURES[picture], "format": "svg"}
    request = request_from_query(vedic_pb2.ComputeVedicChartRequest, list(params.items()), "/v1/vedic/chart")
    return golden_pictures.sized(compute_reply(vedic_chart.compute, request, Deadline.never()).data.svg)


def _crowded_svg(style: str, size: int = 500) -> tuple[str, int, int]:
    words = JyotishWords("en")
    bodies = ("sun", "moon", "mars", "mercury", "jupiter", "venus", "saturn", "rahu", "ketu", "uranus", "neptune")
    points = [ChartPoint(body, 1, 2, 29.99, True, True) for body in (*bodies, "pluto")]
    points.append(ChartPoint("lagna", 0, 1, 12.5))
    layout = chart_layout(style, "D1", "D1 Rasi", points, {p.body: words.abbreviation(p.body) for p in points})
    svg = draw_svg([layout], THEMES["print"], size=size, words=words, desc="Every graha in Taurus.")
    return svg, *picture_size(size, 1)


FAMILY = golden_pictures.Family(
    name="vedic",
    pictures=(*PICTURES, *CROWDED),
    draw_png=draw_png,
    docs={name: partial(draw_png, picture) for name, picture in DOCS_PICTURES.items()},
)


if __name__ == "__main__":
    sys.exit(golden_pictures.main(family=FAMILY))
