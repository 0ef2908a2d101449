"""The golden sensitivity timelines (/v1/natal-chart/sensitivity's pictures), kept under
tests/golden/sensitivity/ and compared pixel by pixel by
tests/unit/services/test_sensitivity_timeline_png.py.

``python -m tests.golden_sensitivity --write`` draws them again (after a change of the drawing,
the fonts or resvg; look at each before committing them: the golden images hold what was
reviewed, not what the code is proven to draw); ``--docs`` writes docs/sensitivity.md's
picture. Without either it lists the images that differ and exits 1 if any does.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

from celestial.v1 import search_service_pb2
from kernel import civil_time, engine
from kernel.deadline import Deadline
from services.search import birth_time_sensitivity
from shared.runtime.computation import compute_reply
from shared.runtime.config import REPO_ROOT, load_settings
from shared.runtime.transcoder import request_from_query
from tests.golden_wheels import pixels

GOLDEN_DIR = REPO_ROOT / "tests" / "golden" / "sensitivity"
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
    svg = _reply(picture, "svg").data.svg
    root = ET.fromstring(svg)
    return svg, int(root.get("width")), int(root.get("height"))


def golden_path(picture: str) -> Path:
    """Return the path of the golden image ``picture``."""
    return GOLDEN_DIR / f"{picture}.png"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the golden images (then look at each)")
    parser.add_argument(
        "--docs", action="store_true", help="write the picture of docs/sensitivity.md (then look at it)"
    )
    args = parser.parse_args(argv)
    settings = load_settings()
    engine.use_ephemeris_files(settings.ephe_path)
    civil_time.use_zone_files(settings.tz_path)
    if args.docs:
        for name, picture in DOCS_PICTURES.items():
            (REPO_ROOT / "docs" / name).write_bytes(draw_png(picture))
            print(f"wrote docs/{name}")
        return 0
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    differing = []
    for picture in PICTURES:
        png, path = draw_png(picture), golden_path(picture)
        if args.write:
            path.write_bytes(png)
            print(f"wrote {path.relative_to(REPO_ROOT)}")
        elif not path.exists() or not np.array_equal(pixels(png), pixels(path)):
            differing.append(path)
            print(f"differs: {path.relative_to(REPO_ROOT)}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
