"""A Vedic chart (kernel.vedic_chart) as the picture /v1/vedic/chart draws: the rasi (D1),
each graha with its degree, then each varga asked for with the signs alone, as North or
South Indian charts (``layout.py``, ``drawing.py``)."""

from __future__ import annotations

from kernel.vargas import parse_varga
from kernel.vedic_chart import VedicChart
from kernel.zodiac import SIGN_KEYS
from services.timelords.indian_charts.drawing import describe, draw_svg, picture_size
from services.timelords.indian_charts.jyotish_words import JyotishWords
from services.timelords.indian_charts.layout import ChartPoint, chart_layout
from shared.pictures.themes import THEMES
from shared.runtime.vedic_inputs import ChartPicture

#: The rasi's code: drawn from the points themselves, with their degrees.
RASI = "D1"


def chart_svg(chart: VedicChart, picture: ChartPicture) -> tuple[str, tuple[int, int]]:
    """Return the SVG document of ``chart`` (its rasi, then every varga it holds but the rasi,
    in ``picture``'s style, theme, size and language) and its width and height in pixels."""
    words = JyotishWords(picture.lang)
    abbreviations = {p.name: words.abbreviation(p.name) for p in chart.points}
    rasi = [
        ChartPoint(p.name, SIGN_KEYS.index(p.sign), p.house, p.degree, bool(p.retrograde), bool(p.combust))
        for p in chart.points
    ]
    layouts = [chart_layout(picture.style, RASI, _title(RASI, words), rasi, abbreviations)]
    sections = [(layouts[0].title, [_rasi_clause(point, words) for point in rasi])]
    for code, signs in chart.vargas.items():
        if code == RASI:
            continue
        lagna_sign = SIGN_KEYS.index(signs["lagna"])
        points = [
            ChartPoint(
                p.name,
                SIGN_KEYS.index(signs[p.name]),
                (SIGN_KEYS.index(signs[p.name]) - lagna_sign) % 12 + 1,
                None,
                bool(p.retrograde),
                bool(p.combust),
            )
            for p in chart.points
        ]
        layouts.append(chart_layout(picture.style, code, _title(code, words), points, abbreviations))
        sections.append((layouts[-1].title, [words.varga_clause(p.body, SIGN_KEYS[p.sign]) for p in points]))
    svg = draw_svg(layouts, THEMES[picture.theme], size=picture.size, words=words, desc=describe(sections))
    return svg, picture_size(picture.size, len(layouts))


def _title(code: str, words: JyotishWords) -> str:
    return f"{code} {words.varga_name(parse_varga(code).name)}"


def _rasi_clause(point: ChartPoint, words: JyotishWords) -> str:
    degree = int(point.degree or 0.0)
    return words.rasi_clause(point.body, degree, SIGN_KEYS[point.sign], point.retrograde, point.combust, point.house)
