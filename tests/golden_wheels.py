"""The golden chart wheels: three natal charts in the four themes, a transit bi-wheel in two of
them and a wheel with its aspect grid in one (GOLDEN), drawn to PNG as /v1/chart-wheel draws
them, kept under tests/golden/wheel/ and compared pixel by pixel by
tests/unit/services/test_wheel_png.py. The other pictures (PICTURES) are the requests the
proof by pixels draws beside the natal charts: the other kinds, and a wheel in Russian.

``python -m tests.golden_wheels --write`` draws them again (after a change of the drawing, the
fonts or resvg); each written image is then looked at once, by eye, before it is committed:
the golden images hold what was reviewed, not what the code is proven to draw. Without
``--write`` it lists the images that differ from the golden ones and exits 1 if any does.
``--docs`` draws the pictures of docs/chart-wheels.md (DOCS_PICTURES) as format=png does.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import numpy as np

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import ChartOptions, ChartRequestOptions, Moment, Place
from kernel import engine
from kernel.chart import Chart
from kernel.deadline import Deadline
from services.ephemeris import chart_wheel
from shared.runtime.chart_reply import chart_reply
from shared.runtime.config import REPO_ROOT, load_settings
from shared.runtime.validation import validate
from shared.runtime.wire import birth_from

GOLDEN_DIR = REPO_ROOT / "tests" / "golden" / "wheel"
THEMES = ("light", "dark", "high_contrast", "print")
#: The size the golden images are drawn at (pixels), the API's default.
SIZE = 800
#: name → (UTC birth, latitude, longitude): a daytime birth in London, a birth in Sydney (the
#: southern hemisphere: the Midheaven leans north), and one at 70°N in the polar night, where
#: Placidus has no cusps and the chart falls back to Porphyrius.
CHARTS = {
    "london": ("1990-06-15T14:30:00Z", 51.5074, -0.1278),
    "sydney": ("1985-03-21T02:00:00Z", -33.8688, 151.2093),
    "polar": ("1975-01-10T10:00:00Z", 70.0, 25.0),
}


#: The moment of the transits drawn around a natal chart (the docs' picture's).
TRANSIT_MOMENT = "2026-03-01T12:00:00Z"
#: The bodies of a wheel in Russian: the planets and five bodies without a glyph, which are
#: labelled by the first letters of their names (Цер, Пал, Юно, Вес, Лил), so that Cyrillic
#: letters are drawn on the wheel and not only read in its <desc>.
RUSSIAN_BODIES = ["planets", "ceres", "pallas", "juno", "vesta", "mean_apogee"]


def _birth(chart: str) -> pb.WheelBirth:
    moment, lat, lon = CHARTS[chart]
    return pb.WheelBirth(moment=Moment(datetime=moment), location=Place(lat=lat, lon=lon))


#: picture → the /v1/chart-wheel request's fields beside its format, theme and size: each
#: golden chart's natal wheel, the transits of TRANSIT_MOMENT around London's chart (a
#: bi-wheel), London's (A) and Sydney's (B) synastry (a bi-wheel) and composite, London's
#: wheel with its aspect grid aside and below, London's wheel in Russian, London's wheel
#: named, with its positions table aside, and London's wheel with both nodes, their south nodes,
#: the seven lots and the Vertex, its table aside (issue 51).
PICTURES = {
    **{chart: {"birth": _birth(chart)} for chart in CHARTS},
    "transit": {"kind": "transit", "birth": _birth("london"), "transit": Moment(datetime=TRANSIT_MOMENT)},
    "synastry": {"kind": "synastry", "birth_a": _birth("london"), "birth_b": _birth("sydney")},
    "composite": {"kind": "composite", "birth_a": _birth("london"), "birth_b": _birth("sydney")},
    "grid-aside": {"birth": _birth("london"), "grid": "aside"},
    "grid-below": {"birth": _birth("london"), "grid": "below"},
    "russian": {"birth": _birth("london"), "lang": "ru", "bodies": RUSSIAN_BODIES},
    "table": {"birth": _birth("london"), "table": "aside", "name": "London, 15 June 1990"},
    "points": {
        "birth": _birth("london"),
        "bodies": ["planets", "true_node"],
        "chart": ChartRequestOptions(
            options=ChartOptions(derived_points=True, lots=["default"], midpoints=False, antiscia=False)
        ),
        "table": "aside",
    },
}

#: The golden images, (picture, theme): each natal chart in every theme, the transit bi-wheel
#: in light and print (print's black-only lines are where the two rings are hardest to tell
#: apart), the wheel with its grid aside in dark (a picture 1.75 times as wide), and, for the
#: header and the table (issue 51), the Russian wheel and the named wheel with its table, and the
#: points drawn beside the bodies (the south nodes, the lots, the Vertex).
GOLDEN = [
    *((chart, theme) for chart in CHARTS for theme in THEMES),
    ("transit", "light"),
    ("transit", "print"),
    ("grid-aside", "dark"),
    ("russian", "light"),
    ("table", "light"),
    ("points", "light"),
]


#: The pictures of docs/chart-wheels.md: file → the request's fields beside the London birth.
DOCS_PICTURES = {
    "chart-wheel.png": {},
    "chart-wheel-transit.png": {
        "kind": "transit",
        "transit": Moment(datetime="2026-03-01T12:00:00Z"),
        "bodies": ["planets", "mean_node", "chiron"],
    },
    "chart-wheel-grid.png": {"grid": "aside", "size": 600},
    "chart-wheel-table.png": {"table": "aside", "size": 600},
    "chart-wheel-points.png": {"bodies": ["planets", "true_node"], "chart": PICTURES["points"]["chart"], "size": 600},
}


def wheel_request(picture: str, theme: str, *, format: str = "png", size: int = SIZE) -> pb.DrawChartWheelRequest:
    """Return the validated /v1/chart-wheel request of ``picture`` (a golden chart's name draws
    its natal wheel; the defaults otherwise: the planets, Placidus, the major aspects)."""
    return validate(pb.DrawChartWheelRequest(format=format, theme=theme, size=size, **PICTURES[picture]))


def cast(request: pb.DrawChartWheelRequest) -> Chart:
    """Return the chart /v1/chart-wheel draws for ``request``."""
    engine.use_ephemeris_files(load_settings().ephe_path)
    return chart_reply(request.query.chart, *birth_from(request))[2]


def draw(picture: str, theme: str, *, format: str = "png", size: int = SIZE) -> pb.ChartWheelData:
    """Return what /v1/chart-wheel answers for ``picture`` in ``theme`` (``data.png`` or ``data.svg``)."""
    engine.use_ephemeris_files(load_settings().ephe_path)
    return chart_wheel.compute(wheel_request(picture, theme, format=format, size=size), Deadline.never()).data


def draw_png(picture: str, theme: str, *, size: int = SIZE) -> bytes:
    """Return the PNG (bytes) /v1/chart-wheel answers for ``picture`` in ``theme``."""
    return draw(picture, theme, size=size).png


def golden_path(picture: str, theme: str) -> Path:
    """Return the path of the golden image of ``picture`` in ``theme``."""
    return GOLDEN_DIR / f"{picture}-{theme}.png"


def pixels(png: bytes | Path) -> np.ndarray:
    """Return a PNG's pixels as an array (height, width, 4) of RGBA bytes."""
    from PIL import Image  # a test dependency; the service never decodes a PNG

    with Image.open(io.BytesIO(png) if isinstance(png, bytes) else png) as image:
        return np.asarray(image.convert("RGBA"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write", action="store_true", help="write the golden images (then look at each before committing)"
    )
    parser.add_argument(
        "--docs", action="store_true", help="write the pictures of docs/chart-wheels.md (then look at each)"
    )
    args = parser.parse_args(argv)
    if args.docs:
        engine.use_ephemeris_files(load_settings().ephe_path)
        moment, lat, lon = CHARTS["london"]
        for name, fields in DOCS_PICTURES.items():
            request = validate(
                pb.DrawChartWheelRequest(
                    birth=pb.WheelBirth(moment=Moment(datetime=moment), location=Place(lat=lat, lon=lon)),
                    format="png",
                    **fields,
                )
            )
            (REPO_ROOT / "docs" / name).write_bytes(chart_wheel.compute(request, Deadline.never()).data.png)
            print(f"wrote docs/{name}")
        return 0
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    differing = []
    for picture, theme in GOLDEN:
        png, path = draw_png(picture, theme), golden_path(picture, theme)
        if args.write:
            path.write_bytes(png)
            print(f"wrote {path.relative_to(REPO_ROOT)}")
        elif not path.exists() or not np.array_equal(pixels(png), pixels(path)):
            differing.append(path)
            print(f"differs: {path.relative_to(REPO_ROOT)}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
