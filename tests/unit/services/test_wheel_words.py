"""A wheel's words in each language (``lang``, shared/pictures/words.json): every word
the picture draws or reads comes from the one table, every language has all of them, the
description read back names each body with its degree and house, a picture in another
language says nothing in English but the words the table says the language shares, and every
letter of every language has a glyph in the fonts the PNG is drawn with (no "tofu").

The charts are cast by the kernel with every body it draws and every aspect it knows.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1 import options_pb2
from kernel.aspects import ASPECT_NAMES
from kernel.bodies import ACCEPTED_NAMES, ALL
from kernel.chart import ChartSettings, cast_chart
from kernel.chart_extras import ChartExtras, operands_at, with_extras
from kernel.houses import parse_house_system
from kernel.lots import parse_lots
from kernel.positions import CalcFlags, Observer
from kernel.timescale import Moment
from kernel.zodiac import SIGNS
from services.ephemeris.wheel.drawing import draw_svg
from services.ephemeris.wheel.layout import ANGLE_NAMES, biwheel_layout, wheel_layout
from shared.pictures.png import render_png
from shared.pictures.themes import THEMES
from shared.pictures.words import Words, languages, table
from shared.runtime.chart_wheel_input import BIWHEELS, COMPOSITE, DAVISON, DRACONIC, NATAL

SVG = "{http://www.w3.org/2000/svg}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
KINDS = (NATAL, COMPOSITE, DAVISON, DRACONIC, *sorted(BIWHEELS))
#: The charts a bi-wheel's description may name (chart_wheel.py's, and describe()'s defaults).
CHART_NAMES = ("natal", "chart_a", "chart_b", "inner", "outer", "transit", "progressed", "solar_return", "lunar_return")
OTHER_LANGUAGES = [lang for lang in languages() if lang != "en"]


def _chart(moment: str = "1990-06-15T14:30:00Z", lat: float = 51.5, lon: float = -0.13):
    settings = ChartSettings(
        bodies=ALL, system=parse_house_system("placidus"), flags=CalcFlags(), aspect_types=ASPECT_NAMES
    )
    return cast_chart(Moment.from_iso(moment), Observer(lat, lon), settings)


def _tokens(text: str) -> set[str]:
    """Return the words of ``text`` (runs of letters), in lower case, a template's {fields} left out."""
    return {word.lower() for word in re.findall(r"[^\W\d_]+", re.sub(r"\{[a-z_]+\}", " ", text))}


def _strings(value) -> list[str]:
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return [value]


def _english_words() -> set[str]:
    entry = table()["languages"]["en"]
    return set().union(*(_tokens(text) for key, value in entry.items() if key != "name" for text in _strings(value)))


def _svg_text(svg: str) -> str:
    """Return every text a reader of the SVG meets: its title, desc, the aspects' titles and the labels drawn."""
    return "\n".join(
        element.text or ""
        for element in ET.fromstring(svg).iter()
        if element.tag in (f"{SVG}title", f"{SVG}desc", f"{SVG}text")
    )


@pytest.mark.parametrize("lang", languages())
def test_every_sign_body_and_aspect_the_wheel_can_draw_has_a_word_in_every_language(lang):
    words = Words(lang)
    assert all(words.sign(sign.lower()) for sign in SIGNS)
    assert all(words.body(body) for body in ACCEPTED_NAMES)
    assert all(words.aspect(aspect) for aspect in ASPECT_NAMES)
    assert all(words.angle_label(angle) for angle in ANGLE_NAMES)
    assert all(words.title(kind) for kind in KINDS)
    assert all(words.chart(name, "2026-03-01T12:00:00.000Z") for name in CHART_NAMES)
    assert words.retrograde_mark


def test_every_language_names_the_sources_of_its_words():
    sources = table()["sources"]
    assert set(sources) == set(languages())
    assert all(len(source) > 40 for source in sources.values())


def test_the_request_offers_exactly_the_languages_of_the_table_english_by_default():
    field = pb.DrawChartWheelRequest.DESCRIPTOR.fields_by_name["lang"]
    rule = field.GetOptions().Extensions[options_pb2.field]
    assert tuple(rule.choices) == languages() and rule.default == "en"
    assert len(languages()) >= 8


@pytest.mark.parametrize("lang", languages())
def test_the_svg_root_names_its_language(lang):
    svg = ET.fromstring(draw_svg(wheel_layout(_chart()), THEMES["light"], size=800, title="", words=Words(lang)))
    assert svg.get(XML_LANG) == lang and svg.get("lang") == lang


def _clauses_by_body(description: str, words: Words, bodies) -> dict[str, str]:
    """Return what follows each body's name in its clause of a description (the entries are
    separated by "; "), the name found at the clause's start or after a chart's name and ":",
    the longest name first ("Luna Nera media" before "Luna")."""
    clauses = [clause.strip() for clause in re.split(r"; |\. ", description.rstrip("."))]
    found = {}
    for body in sorted(bodies, key=lambda b: -len(words.body(b))):
        name = words.body(body)
        at = re.compile(f"(^|: ){re.escape(name)}")
        match = next(c for c in clauses if at.search(c))
        clauses.remove(match)
        found[body] = match[at.search(match).end() :]
    return found


@pytest.mark.parametrize("lang", languages())
def test_the_description_names_every_body_with_its_sign_degree_and_house(lang):
    words, chart = Words(lang), _chart()
    description = (
        ET.fromstring(draw_svg(wheel_layout(chart), THEMES["light"], size=800, title="", words=words))
        .find(f"{SVG}desc")
        .text
    )
    clauses = _clauses_by_body(description, words, [p.body for p in chart.positions])
    for position in chart.positions:
        clause = clauses[position.body]
        assert [int(n) for n in re.findall(r"\d+", clause)] == [int(position.sign_degree), position.house], clause
        assert words.sign(position.sign.lower()) in clause
        assert (table()["languages"][lang]["retrograde"] in clause) == position.retrograde, clause


@pytest.mark.parametrize("lang", languages())
def test_a_bi_wheels_description_names_both_rings_bodies_each_in_its_own_house(lang):
    words, inner, outer = Words(lang), _chart(), _chart("2026-03-01T12:00:00Z")
    layout = biwheel_layout(inner, outer, [])
    description = (
        ET.fromstring(
            draw_svg(
                layout,
                THEMES["light"],
                size=800,
                title="",
                words=words,
                rings=(words.chart("natal"), words.chart("transit", "2026")),
            )
        )
        .find(f"{SVG}desc")
        .text
    )
    inner_text, outer_text = description.split(f". {table()['languages'][lang]['outer']}")
    for text, chart in ((inner_text, inner), (outer_text, outer)):
        clauses = _clauses_by_body(text, words, [p.body for p in chart.positions])
        for position in chart.positions:
            assert re.findall(r"\d+", clauses[position.body]) == [str(int(position.sign_degree)), str(position.house)]


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_a_picture_in_another_language_says_no_english_word_but_those_the_table_shares(lang):
    words, shared = Words(lang), set(table()["languages"][lang]["same_as_english"])
    texts = [
        draw_svg(wheel_layout(_chart()), THEMES["light"], size=800, title=words.title(kind), words=words)
        for kind in KINDS
    ]
    texts += [
        draw_svg(
            biwheel_layout(_chart(), _chart("2026-03-01T12:00:00Z"), []),
            THEMES["light"],
            size=800,
            title="",
            words=words,
            rings=(words.chart(name), words.chart(name, "2026")),
        )
        for name in CHART_NAMES
    ]
    # The points beside the bodies too: the south nodes, the seven lots and the Vertex.
    extras = ChartExtras(derived=True, midpoints=False, antiscia=False, lots=parse_lots(["default"]))
    with_lots = with_extras(_chart(), extras, operands_at(_chart(), Moment.from_iso("1990-06-15T14:30:00Z")))
    texts.append(
        draw_svg(wheel_layout(with_lots, vertex=True), THEMES["light"], size=800, title="", words=words, table="aside")
    )
    said = set().union(*(_tokens(_svg_text(svg)) for svg in texts))
    assert said & _english_words() <= shared


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_the_words_a_language_shares_with_english_are_its_own_words_too(lang):
    entry = table()["languages"][lang]
    own = set().union(
        *(
            _tokens(text)
            for key, value in entry.items()
            if key not in ("name", "same_as_english")
            for text in _strings(value)
        )
    )
    assert set(entry["same_as_english"]) <= own & _english_words()


@pytest.mark.parametrize(
    "lang, houses",
    [
        (
            "en",
            {
                1: "1st",
                2: "2nd",
                3: "3rd",
                4: "4th",
                11: "11th",
                12: "12th",
                13: "13th",
                21: "21st",
                22: "22nd",
                33: "33rd",
            },
        ),
        ("de", {1: "1.", 9: "9."}),
        ("fr", {1: "1re", 2: "2e", 12: "12e"}),
        ("nl", {1: "1e", 9: "9e"}),
        ("ru", {1: "1-й", 9: "9-й"}),
        ("es", {1: "1", 9: "9"}),
    ],
)
def test_house_numbers_are_written_as_cldr_writes_the_languages_ordinals(lang, houses):
    assert {number: Words(lang).house(number) for number in houses} == houses


@pytest.mark.parametrize("lang", languages())
def test_both_spellings_of_the_mean_apogee_have_one_name_in_every_language(lang):
    words = Words(lang)
    assert words.body("lilith") == words.body("mean_apogee") != words.body("osc_apogee")


def test_the_retrograde_mark_is_the_prescription_sign_in_every_language():
    assert {Words(lang).retrograde_mark for lang in languages()} == {"\u211e"}


# --- the PNG: every letter of every language is drawn in the bundled fonts, none as "tofu" ----

#: A character no bundled font has (a private-use code point): resvg draws the font's
#: missing glyph, a box, for it, as for any letter the fonts lack.
NO_GLYPH = "\ue000"


def _letter_pixels(letter: str, bold: bool):
    from tests.golden_pictures import pixels  # Pillow decodes the PNG; a test dependency

    weight = ' font-weight="bold"' if bold else ""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96"><rect width="96" height="96" fill="#ffffff"/>'
        f'<text x="48" y="48" font-family="Noto Sans, sans-serif" font-size="60"{weight} text-anchor="middle" '
        f'dominant-baseline="central" fill="#000000">{escape(letter)}</text></svg>'
    )
    return pixels(render_png(svg, 96))


def _is_tofu(letter: str, bold: bool) -> bool:
    """Return whether ``letter`` is drawn as the bundled font's missing glyph, or not at all."""
    drawn = _letter_pixels(letter, bold)
    return bool((drawn == _letter_pixels(NO_GLYPH, bold)).all() or (drawn[..., :3] > 127).all())


def test_a_letter_the_bundled_fonts_lack_is_seen_as_tofu():
    pytest.importorskip("PIL", reason="Pillow decodes the PNGs in these tests: run make setup")
    assert _is_tofu("क", bold=False) and _is_tofu("漢", bold=True)
    assert not _is_tofu("Ж", bold=False)


@pytest.mark.parametrize("lang", languages())
def test_every_letter_a_language_draws_or_reads_has_a_glyph_in_the_bundled_fonts(lang):
    """The labels a PNG draws (angle labels in bold, the others regular) and every other word
    of the language's table, in case a picture draws it one day."""
    pytest.importorskip("PIL", reason="Pillow decodes the PNGs in these tests: run make setup")
    entry = table()["languages"][lang]
    letters = {
        letter for text in _strings({k: v for k, v in entry.items() if k != "same_as_english"}) for letter in text
    }
    svg = ET.fromstring(draw_svg(wheel_layout(_chart()), THEMES["light"], size=800, title="", words=Words(lang)))
    letters |= {letter for element in svg.iter(f"{SVG}text") for letter in element.text}
    missing = [
        (letter, bold)
        for letter in sorted(letters - set("{}"))
        if not letter.isspace()  # a space (the narrow one of "1990 г." too) draws no ink
        for bold in (False, True)
        if _is_tofu(letter, bold)
    ]
    assert missing == []
