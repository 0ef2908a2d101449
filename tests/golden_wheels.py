"""The golden chart wheels: three natal charts in the four themes, a transit bi-wheel in two of
them and a wheel with its aspect grid in one (GOLDEN), drawn to PNG as /v1/chart-wheel draws
them, kept under tests/golden/wheel/ and compared pixel by pixel by
tests/unit/services/test_wheel_png.py. The other pictures (PICTURES) are the requests the
proof by pixels draws beside the natal charts: the other kinds, and a wheel in Russian.

``python -m tests.golden_wheels --write`` (``python -m tests.golden_pictures wheel --write``)
draws them again, to be looked at before they are committed; ``--docs`` draws the pictures of
docs/chart-wheels.md (DOCS_PICTURES) as format=png does; without either it lists the images
that differ from the golden ones (tests/golden_pictures.py).
"""

from __future__ import annotations

import sys
from functools import partial

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import ChartOptions, ChartRequestOptions, Moment, Place
from kernel import engine
from kernel.chart import Chart
from kernel.deadline import Deadline
from services.ephemeris import chart_wheel
from shared.runtime.chart_reply import chart_reply
from shared.runtime.config import load_settings
from shared.runtime.validation import validate
from shared.runtime.wire import birth_from
from tests import golden_pictures

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
#: A crowded bi-wheel (issue 51): the 1962-02-04 22:00Z London stellium (seven bodies in 16°
#: of Aquarius) inside the transits of 2020-01-12, their own crowd (the Sun, Mercury, Saturn,
#: Pluto and Ceres within 7° of Capricorn), with the asteroids, Chiron and the node; drawn at
#: 400 px, where the bi-wheel's least glyph and label sizes bind (geometry.legible).
STELLIUM = ("1962-02-04T22:00:00Z", 51.5074, -0.1278)
CROWDED_TRANSIT = "2020-01-12T12:00:00Z"
CROWDED_BODIES = ["planets", "chiron", "ceres", "pallas", "juno", "vesta"]
#: The pictures drawn at another size than SIZE (pixels).
SIZES = {"crowded": 400}
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
    "crowded": {
        "kind": "transit",
        "birth": pb.WheelBirth(moment=Moment(datetime=STELLIUM[0]), location=Place(lat=STELLIUM[1], lon=STELLIUM[2])),
        "transit": Moment(datetime=CROWDED_TRANSIT),
        "bodies": CROWDED_BODIES,
    },
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
#: apart), the crowded bi-wheel at 400 px, the wheel with its grid aside in dark (a picture
#: 1.75 times as wide), and, for the
#: header and the table (issue 51), the Russian wheel and the named wheel with its table, and the
#: points drawn beside the bodies (the south nodes, the lots, the Vertex).
GOLDEN = [
    *((chart, theme) for chart in CHARTS for theme in THEMES),
    ("transit", "light"),
    ("transit", "print"),
    ("crowded", "light"),
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


def draw(picture: str, theme: str, *, format: str = "png", size: int | None = None) -> pb.ChartWheelData:
    """Return what /v1/chart-wheel answers for ``picture`` in ``theme`` (``data.png`` or
    ``data.svg``), ``size`` pixels wide (the picture's own size, SIZES or SIZE, by default)."""
    engine.use_ephemeris_files(load_settings().ephe_path)
    size = SIZES.get(picture, SIZE) if size is None else size
    return chart_wheel.compute(wheel_request(picture, theme, format=format, size=size), Deadline.never()).data


def draw_png(picture: str, theme: str, *, size: int | None = None) -> bytes:
    """Return the PNG (bytes) /v1/chart-wheel answers for ``picture`` in ``theme`` (``size``: as ``draw``)."""
    return draw(picture, theme, size=size).png


def _docs_png(fields: dict) -> bytes:
    """Return the PNG of a picture of docs/chart-wheels.md: London's birth with ``fields``."""
    request = validate(pb.DrawChartWheelRequest(birth=_birth("london"), format="png", **fields))
    return chart_wheel.compute(request, Deadline.never()).data.png


#: A golden image's name (its file's, without .png) → its picture and theme.
_GOLDEN_NAMES = {f"{picture}-{theme}": (picture, theme) for picture, theme in GOLDEN}

FAMILY = golden_pictures.Family(
    name="wheel",
    pictures=tuple(_GOLDEN_NAMES),
    draw_png=lambda name: draw_png(*_GOLDEN_NAMES[name]),
    docs={name: partial(_docs_png, fields) for name, fields in DOCS_PICTURES.items()},
)


if __name__ == "__main__":
    sys.exit(golden_pictures.main(family=FAMILY))
