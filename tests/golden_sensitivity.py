"""The golden sensitivity timelines (/v1/natal-chart/sensitivity's pictures), kept under
tests/golden/sensitivity/ and compared pixel by pixel by
tests/unit/services/test_sensitivity_timeline_png.py.

``python -m tests.golden_sensitivity --write`` (``python -m tests.golden_pictures sensitivity
--write``) draws them again, to be looked at before they are committed; ``--docs`` writes
docs/sensitivity.md's picture; without either it lists the images that differ
(tests/golden_pictures.py).
"""

from __future__ import annotations

import sys
from functools import partial

from celestial.v1 import search_service_pb2
from kernel.deadline import Deadline
from services.search import birth_time_sensitivity
from shared.runtime.computation import compute_reply
from shared.runtime.transcoder import request_from_query
from tests import golden_pictures

PATH = "/v1/natal-chart/sensitivity"
#: The birth of the API's tests (Paris, 1985-07-13 14:05 CEST) and a birth in Delhi.
PARIS = {"datetime": "1985-07-13T14:05:00", "tz": "Europe/Paris", "lat": "48.85", "lon": "2.35"}
DELHI = {"datetime": "1984-11-02T10:40:00", "tz": "Asia/Kolkata", "lat": "28.6139", "lon": "77.2090"}
#: The golden pictures, each the parameters of its request (format=png): a ±2 h birth, a ±12 h
#: one in the dark theme, sidereal with the angles' nakshatras and a profection, and one in
#: Russian in the print theme.
PICTURES: dict[str, dict[str, str]] = {
    "paris-2h-light": {**PARIS},
    "paris-12h-dark": {**PARIS, "window_hours": "12", "theme": "dark"},
    "delhi-sidereal-6h-high_contrast": {
        **DELHI,
        "window_hours": "6",
        "sidereal": "lahiri",
        "at": "2026-01-01T00:00:00Z",
        "theme": "high_contrast",
        "size": "1000",
    },
    "delhi-ru-4h-print": {**DELHI, "window_hours": "4", "lang": "ru", "theme": "print", "size": "900"},
}
#: docs/sensitivity.md's picture.
DOCS_PICTURES = {"sensitivity-timeline.png": "paris-2h-light"}


def _reply(picture: str, format: str) -> search_service_pb2.FindBirthTimeSensitivityResponse:
    params = {**PICTURES[picture], "format": format}
    request = request_from_query(search_service_pb2.FindBirthTimeSensitivityRequest, list(params.items()), PATH)
    return compute_reply(birth_time_sensitivity.compute, request, Deadline.never())


def draw_png(picture: str) -> bytes:
    """Return the PNG of the golden ``picture``."""
    return _reply(picture, "png").data.png


def draw_document(picture: str) -> tuple[str, int, int]:
    """Return the SVG document of the golden ``picture`` and its width and height in pixels."""
    return golden_pictures.sized(_reply(picture, "svg").data.svg)


FAMILY = golden_pictures.Family(
    name="sensitivity",
    pictures=tuple(PICTURES),
    draw_png=draw_png,
    docs={name: partial(draw_png, picture) for name, picture in DOCS_PICTURES.items()},
)


if __name__ == "__main__":
    sys.exit(golden_pictures.main(family=FAMILY))
