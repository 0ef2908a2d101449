"""A wheel's header, table and frame (issue 51, part 2), rule by rule: the header's lines for
given charts (services/ephemeris/wheel/header.py), the positions-and-cusps table of a cast
chart (table.py), and where the header, the wheel, the grid and the table stand (frame.py's
frame). Pure: no request, no stack."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from datetime import datetime

import pytest

from kernel.aspects import MAJOR_SEVEN
from kernel.bodies import PLANETS
from kernel.chart import ChartSettings, cast_chart
from kernel.houses import HOUSE_SYSTEM_NAMES, parse_house_system
from kernel.positions import CalcFlags, Observer
from kernel.timescale import Moment
from services.ephemeris.wheel.frame import GRID_SHARE, HEADER_TEXT, frame, header_height
from services.ephemeris.wheel.geometry import ZODIAC_OUTER, text_width
from services.ephemeris.wheel.header import (
    ChartCaption,
    HeaderLine,
    clock_moment,
    coordinates,
    header_lines,
    iso_moment,
    ring_label,
    shown_moment,
    utc_offset,
)
from services.ephemeris.wheel.header_drawing import header_svg, ring_labels_svg
from services.ephemeris.wheel.layout import biwheel_layout, wheel_layout
from services.ephemeris.wheel.points import chart_points
from services.ephemeris.wheel.table import positions_table
from shared.pictures.themes import THEMES
from shared.pictures.words import ENGLISH, Words, languages, table
from tests.unit.services.test_wheel_words import _english_words, _tokens

LONDON = ChartCaption(
    "natal",
    clock_moment(datetime(1944, 6, 6, 8, 0), "Europe/London", "BDST", 7200),
    town="London, GB",
    latitude=51.50853,
    longitude=-0.12574,
)
UTC_BIRTH = ChartCaption("natal", iso_moment("1990-06-15T14:30:00.000Z"), latitude=51.5, longitude=-0.13)


def _texts(lines: tuple[HeaderLine, ...]) -> list[str]:
    return [line.text for line in lines]


def test_a_natal_header_names_the_chart_its_local_time_with_zone_and_offset_its_town_and_coordinates():
    lines = header_lines("Natal chart", "Ada", (LONDON,), None, ("placidus", "placidus"), ENGLISH)
    assert _texts(lines) == [
        "Ada — Natal chart",
        "1944-06-06 08:00 BDST (UTC+02:00, Europe/London)",
        "London, GB · 51°31′N 0°08′W",
        "Tropical zodiac · Houses: Placidus",
    ]
    assert [line.bold for line in lines] == [True, False, False, False]


def test_without_a_name_the_first_line_is_the_kinds_title():
    assert header_lines("Natal chart", "", (UTC_BIRTH,), None, None, ENGLISH)[0] == HeaderLine("Natal chart", True)


def test_a_moment_without_a_zone_is_shown_in_utc():
    assert shown_moment(UTC_BIRTH.moment, ENGLISH) == "1990-06-15 14:30 UTC"


def test_the_seconds_are_shown_only_when_not_zero():
    assert shown_moment(iso_moment("2026-06-06T02:37:03.412Z"), ENGLISH) == "2026-06-06 02:37:03 UTC"
    assert clock_moment(datetime(2026, 6, 6, 2, 37, 3)).time == "02:37:03"


def test_a_numeric_zone_abbreviation_is_left_to_the_offset():
    moment = clock_moment(datetime(2000, 1, 1, 12, 0), "Asia/Kolkata", "+0530", 19800)
    assert shown_moment(moment, ENGLISH) == "2000-01-01 12:00 (UTC+05:30, Asia/Kolkata)"


@pytest.mark.parametrize(
    "seconds, text", [(0, "+00:00"), (3600, "+01:00"), (-12600, "-03:30"), (-75, "-00:01:15"), (21208, "+05:53:28")]
)
def test_a_utc_offset_is_written_in_hours_and_minutes_and_seconds_when_it_has_them(seconds, text):
    assert utc_offset(seconds) == text


def test_a_moment_before_the_year_1_is_shown_from_its_iso_text():
    assert iso_moment("-3001-02-03T00:00:00.000Z") == iso_moment("-3001-02-03T00:00:00Z")
    assert shown_moment(iso_moment("-3001-02-03T00:00:00.000Z"), ENGLISH) == "-3001-02-03 00:00 UTC"


@pytest.mark.parametrize(
    "lat, lon, text",
    [
        (51.5074, -0.1278, "51°30′N 0°08′W"),
        (-33.8688, 151.2093, "33°52′S 151°13′E"),
        (0.0, 0.0, "0°00′N 0°00′E"),
        (-0.9999, 179.9999, "1°00′S 180°00′E"),
    ],
)
def test_coordinates_are_degrees_and_minutes_rounded_with_their_hemispheres(lat, lon, text):
    assert coordinates(lat, lon, ENGLISH) == text


#: The letters of the four cardinal points after a latitude and a longitude (north, south,
#: east, west), by language, as each language abbreviates its own words for them (Duden: Nord,
#: Süd, Ost, West; Larousse: nord, sud, est, ouest; RAE: norte, sur, este, oeste; Treccani:
#: nord, sud, est, ovest; Houaiss: norte, sul, leste, oeste; Van Dale: noord, zuid, oost, west)
#: and, in Russian, the abbreviations of северная/южная широта, восточная/западная долгота,
#: each word cut to its letter and point and spaced, as ГОСТ Р 7.0.12-2011 abbreviates.
COMPASS = {
    "en": ("51°30′N 0°08′W", "33°52′S 151°13′E"),
    "de": ("51°30′N 0°08′W", "33°52′S 151°13′O"),
    "fr": ("51°30′N 0°08′O", "33°52′S 151°13′E"),
    "es": ("51°30′N 0°08′O", "33°52′S 151°13′E"),
    "it": ("51°30′N 0°08′O", "33°52′S 151°13′E"),
    "pt": ("51°30′N 0°08′O", "33°52′S 151°13′L"),
    "nl": ("51°30′N 0°08′W", "33°52′Z 151°13′O"),
    "ru": ("51°30′ с. ш. 0°08′ з. д.", "33°52′ ю. ш. 151°13′ в. д."),
}


def test_every_language_has_a_row_of_compass_letters():
    assert set(COMPASS) == set(languages())


@pytest.mark.parametrize("lang", sorted(COMPASS))
def test_coordinates_are_written_with_the_languages_own_compass_letters(lang):
    north_west, south_east = COMPASS[lang]
    assert coordinates(51.5074, -0.1278, Words(lang)) == north_west
    assert coordinates(-33.8688, 151.2093, Words(lang)) == south_east


# --- dates and times, against CLDR (Babel's locale data, a reference our code did not write) ---

#: Dates over every month, at both ends of a month and across the years, the 1st (some
#: languages write it differently) and a year before 1000.
DATES = [f"{year:04d}-{month:02d}-{day:02d}" for year in (1944, 2026) for month in range(1, 13) for day in (1, 28)]
DATES += ["0800-12-25", "1999-09-09"]
OTHER_LANGUAGES = [lang for lang in languages() if lang != "en"]


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
@pytest.mark.parametrize("form", ["long", "medium"])
def test_a_date_is_cldrs_long_or_medium_date_with_the_languages_month_names(lang, form):
    babel_dates = pytest.importorskip("babel.dates", reason="Babel (requirements-dev.txt) holds CLDR's data")
    words = Words(lang)
    for iso in DATES:
        assert words.date(iso, form) == babel_dates.format_date(datetime.fromisoformat(iso), form, locale=lang), iso


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_a_time_is_cldrs_24_hour_time_with_seconds_only_when_given(lang):
    babel_dates = pytest.importorskip("babel.dates", reason="Babel (requirements-dev.txt) holds CLDR's data")
    words = Words(lang)
    for clock in ("00:00", "08:05", "12:30", "23:59"):
        at = datetime.fromisoformat(f"2000-01-01T{clock}")
        assert words.time(clock) == babel_dates.format_time(at, "short", locale=lang), clock
        assert words.time(f"{clock}:07") == babel_dates.format_time(at.replace(second=7), "medium", locale=lang)


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_a_moment_joins_its_date_and_time_as_cldrs_long_date_time_pattern(lang):
    babel_dates = pytest.importorskip("babel.dates", reason="Babel (requirements-dev.txt) holds CLDR's data")
    words = Words(lang)
    at = datetime(1944, 6, 6, 8, 0)
    cldr = babel_dates.get_datetime_format("long", locale=lang).format(
        babel_dates.format_time(at, "short", locale=lang), babel_dates.format_date(at, "long", locale=lang)
    )
    assert words.moment("1944-06-06", "08:00") == cldr


def test_english_keeps_the_iso_date_the_json_answers_write():
    assert ENGLISH.moment("1944-06-06", "08:00") == "1944-06-06 08:00"
    assert ENGLISH.date("1944-06-06", "medium") == "1944-06-06"


def test_a_year_before_the_year_1_is_written_as_its_astronomical_number():
    assert Words("de").date("-3001-02-03") == "3. Februar -3001"
    assert ENGLISH.date("-3001-02-03") == "-3001-02-03"


def test_a_label_takes_the_colon_as_the_language_sets_it():
    assert ENGLISH.labelled("Inner", "natal chart") == "Inner: natal chart"
    assert Words("fr").labelled("Intérieur", "thème natal") == "Intérieur : thème natal"
    assert Words("fr").labelled("Extérieur") == "Extérieur :"


def test_a_sidereal_chart_names_its_ayanamsha():
    lines = header_lines("Natal chart", "", (UTC_BIRTH,), "lahiri", ("whole_sign", "whole_sign"), ENGLISH)
    assert lines[-1].text == "Sidereal zodiac (lahiri) · Houses: Whole Sign"


def test_the_polar_fallback_names_the_system_drawn_and_the_one_asked_for():
    lines = header_lines("Natal chart", "", (UTC_BIRTH,), None, ("placidus", "porphyrius"), ENGLISH)
    assert lines[-1].text == "Tropical zodiac · Houses: Porphyry (Placidus has no cusps at this latitude)"


def test_a_bi_wheel_names_each_chart_by_its_ring_and_a_shared_place_once():
    transits = ChartCaption("transit", iso_moment("2026-03-01T12:00:00.000Z"), "outer", latitude=51.5, longitude=-0.13)
    inner = ChartCaption("natal", UTC_BIRTH.moment, "inner", latitude=51.5, longitude=-0.13)
    lines = header_lines("Transits to the natal chart", "", (inner, transits), None, ("placidus",) * 2, ENGLISH)
    assert _texts(lines) == [
        "Transits to the natal chart",
        "Inner: natal chart: 1990-06-15 14:30 UTC",
        "51°30′N 0°08′W",
        "Outer: transits at 2026-03-01 12:00 UTC",
        "Tropical zodiac · Houses: Placidus",
    ]
    assert lines[2].indented


def test_a_synastry_names_both_births_places():
    chart_b = ChartCaption("chart_b", iso_moment("1985-11-02T06:10:00.000Z"), "outer", "", -33.87, 151.21)
    chart_a = ChartCaption("chart_a", UTC_BIRTH.moment, "inner", "", 51.5, -0.13)
    texts = _texts(header_lines("Synastry", "", (chart_a, chart_b), None, None, ENGLISH))
    assert texts[3:5] == ["Outer: chart B: 1985-11-02 06:10 UTC", "33°52′S 151°13′E"]


def test_a_composite_names_the_two_births_it_is_the_midpoint_of():
    chart_a = ChartCaption("chart_a", UTC_BIRTH.moment, latitude=51.5, longitude=-0.13)
    chart_b = ChartCaption("chart_b", iso_moment("1985-11-02T06:10:00.000Z"), latitude=-33.87, longitude=151.21)
    texts = _texts(header_lines("Composite chart", "", (chart_a, chart_b), None, None, ENGLISH))
    assert texts[1] == "Chart A: 1990-06-15 14:30 UTC" and texts[3] == "Chart B: 1985-11-02 06:10 UTC"


def test_a_ring_label_names_the_ring_and_its_chart_with_its_date():
    transits = ChartCaption("transit", iso_moment("2026-03-01T12:00:00.000Z"), "outer")
    assert ring_label(transits, ENGLISH) == ("Outer:", "transits at 2026-03-01")
    assert ring_label(transits, Words("ru")) == ("Внешний круг:", "транзиты на 1 мар. 2026\u202fг.")


def test_the_header_is_in_the_requests_language():
    lines = header_lines("Натальная карта", "", (UTC_BIRTH,), "lahiri", ("placidus", "porphyrius"), Words("ru"))
    assert _texts(lines)[1:] == [
        "15 июня 1990\u202fг., 14:30 UTC",
        "51°30′ с. ш. 0°08′ з. д.",
        "Сидерический зодиак (lahiri) · Дома: Порфирий (система Плацидус не строится на этой широте)",
    ]


# --- the table ---------------------------------------------------------------------------


def _chart(moment: str = "1990-06-15T14:30:00Z", lat: float = 51.5, lon: float = -0.13):
    settings = ChartSettings(
        bodies=PLANETS, system=parse_house_system("placidus"), flags=CalcFlags(), aspect_types=MAJOR_SEVEN
    )
    return cast_chart(Moment.from_iso(moment), Observer(lat, lon), settings)


def test_the_table_has_a_row_per_body_with_its_degree_sign_retrograde_and_house():
    chart = _chart()
    table = positions_table(wheel_layout(chart))
    # A row per point the wheel draws: the bodies, and the south node after its node.
    assert [row.body for row in table.bodies] == [p.body for p in chart_points(chart)]
    rows = {row.body: row for row in table.bodies}
    for position in chart.positions:
        (placement,) = rows[position.body].placements
        assert placement.sign == position.sign.lower() and placement.house == position.house
        assert placement.retrograde == position.retrograde
        assert placement.degree * 60 + placement.minute == int(position.sign_degree * 60)


def test_the_tables_houses_are_the_cusps_then_the_ascendant_and_midheaven_truncated_to_the_minute():
    chart = _chart()
    table = positions_table(wheel_layout(chart))
    assert [(row.house, row.angle) for row in table.houses] == [(n, "") for n in range(1, 13)] + [
        (0, "asc"),
        (0, "mc"),
    ]
    asc = table.houses[12].placement
    within = chart.houses.ascendant_deg % 30.0
    assert (asc.degree, asc.minute) == divmod(int(within * 60), 60)


def test_a_bi_wheels_table_gives_each_body_on_both_rings_each_in_its_own_charts_house():
    inner, outer = _chart(), _chart("2026-03-01T12:00:00Z")
    table = positions_table(biwheel_layout(inner, outer, []))
    assert table.rings == 2
    for row, a, b in zip(table.bodies, inner.positions, outer.positions):
        assert [p.house for p in row.placements] == [a.house, b.house]


# --- the frame ---------------------------------------------------------------------------


def test_without_header_grid_or_table_the_picture_is_the_wheels_square():
    placed = frame(800)
    assert (placed.width, placed.height, placed.header, placed.wheel) == (800, 800, 0, (0, 0))


def test_the_header_stands_above_the_wheel_as_tall_as_its_lines():
    placed = frame(800, header_lines=4)
    assert placed.header == header_height(800, 4) > header_height(800, 3) > 0
    assert placed.wheel == (0, placed.header) and placed.height == 800 + placed.header


def test_what_is_aside_stands_right_of_the_wheel_grid_first_and_what_is_below_under_it():
    side = round(800 * GRID_SHARE)
    both_aside = frame(800, "aside", "aside", 4)
    assert both_aside.grid[0] == 800 and both_aside.table[0] == 800 + side
    assert (both_aside.width, both_aside.height) == (800 + 2 * side, 800 + both_aside.header)
    both_below = frame(800, "below", "below")
    assert both_below.grid[1] == 800 and both_below.table[1] == 800 + side
    assert (both_below.width, both_below.height) == (800, 800 + 2 * side)
    mixed = frame(800, "aside", "below")
    assert (mixed.width, mixed.height) == (800 + side, 800 + side)
    assert mixed.table == (0, 800, 800, side)


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != "en"])
def test_a_header_in_another_language_says_no_english_word_but_those_the_table_shares(lang):
    words = Words(lang)
    said = set()
    for asked, drawn in [(system, system) for system in HOUSE_SYSTEM_NAMES] + [("placidus", "porphyrius")]:
        lines = header_lines(words.title("transit"), "", (LONDON, UTC_BIRTH), "lahiri", (asked, drawn), words)
        said |= set().union(*(_tokens(line.text) for line in lines))
    said |= _tokens(" ".join(ring_label(ChartCaption("transit", UTC_BIRTH.moment, "outer"), words)))
    said |= _tokens(" ".join(words.header(key, chart="") for key in ("rows", "columns", "position", "house", "cusps")))
    # The zone's and the town's names and the ayanamsha's identifier are names, not words.
    said -= _tokens("Europe/London London GB BDST lahiri")
    assert said & _english_words() <= set(table()["languages"][lang]["same_as_english"])


# --- lines too long for their room ----------------------------------------------------------

#: A header line no picture of 800 pixels holds at the header's font: a lunar return in
#: Spanish, its date in words, in a zone with a long name.
LONG_LINE = (
    "Exterior: revolución lunar del 25 de septiembre de 2026, 11:28:07 -03 (UTC-03:00, America/Argentina/Buenos_Aires)"
)


def _drawn(svg: str) -> list[tuple[float, float, float, str, bool]]:
    """Return each text of ``svg`` (a <g>): its x, baseline y, font size, text and boldness."""
    return [
        (float(t.get("x")), float(t.get("y")), float(t.get("font-size")), t.text, t.get("font-weight") == "bold")
        for t in ET.fromstring(svg).iter("text")
    ]


def test_a_header_line_too_long_for_the_picture_is_set_smaller_to_fit_and_a_short_one_is_not():
    size = 800
    lines = (HeaderLine("Natal chart", bold=True), HeaderLine(LONG_LINE))
    (x_title, _, title_font, _, _), (x, _, font, text, _) = _drawn(header_svg(lines, THEMES["light"], size))
    assert title_font == round(size * HEADER_TEXT) and font < title_font
    assert x + text_width(text, font) <= size - x_title  # the left margin kept on the right
    wider = _drawn(header_svg(lines, THEMES["light"], size, width=1400))[1][2]
    assert wider == title_font  # a picture with its table aside has the room


@pytest.mark.parametrize("size", [400, 800, 2000])
def test_a_ring_label_too_long_for_its_corner_never_meets_the_zodiac_band(size):
    labels = (("Exterior:", LONG_LINE.split(": ", 1)[1]), ("Interior:", "carta natal: 15 jun 1990"))
    half = size / 2.0
    band = half * 0.98 * ZODIAC_OUTER
    for x, baseline, font, text, bold in _drawn(ring_labels_svg(labels, THEMES["light"], size)):
        right = x + text_width(text, font, bold=bold)
        # The text's box, from its cap height above the baseline to its descent below it: its
        # point nearest the wheel's centre lies outside the zodiac band's outer edge.
        top, bottom = baseline - 0.75 * font, baseline + 0.25 * font
        nearest = (min(max(half, x), right), min(max(half, top), bottom))
        assert math.hypot(nearest[0] - half, nearest[1] - half) > band, (text, size)
