"""The sensitivity timeline (services/search/sensitivity_timeline), rule by rule: the pictures
of tests/golden_sensitivity.py parsed back into the facts and compared with the JSON answer of
the same request, and the layout's rules on timelines made for them."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from celestial.v1 import search_service_pb2
from kernel.birth_time_sensitivity import ChartChange, FactChange, FactSpan, Sensitivity
from kernel.deadline import Deadline
from kernel.nakshatras import NAKSHATRA_TABLE
from kernel.timescale import iso_utc
from services.search import birth_time_sensitivity
from services.search.sensitivity_timeline.layout import (
    GLYPH_SIDE,
    LABEL_PAD,
    VALUE_FONT,
    Group,
    Label,
    Row,
    Segment,
    Tick,
    Timeline,
    text_width,
    tick_minutes,
    timeline_layout,
)
from services.search.sensitivity_timeline.picture import fact_segments, nakshatra_abbreviations, nakshatra_name
from shared.pictures.themes import THEMES
from shared.pictures.words import languages
from shared.runtime.computation import compute_reply
from shared.runtime.transcoder import request_from_query
from tests.golden_sensitivity import PATH, PICTURES, draw_document

SVG = "{http://www.w3.org/2000/svg}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
PARIS = "paris-2h-light"


def _json(params: dict[str, str]) -> search_service_pb2.BirthTimeSensitivityData:
    request = request_from_query(
        search_service_pb2.FindBirthTimeSensitivityRequest, list({**params, "format": "json"}.items()), PATH
    )
    return compute_reply(birth_time_sensitivity.compute, request, Deadline.never()).data.json


def _picture_params(picture: str) -> dict[str, str]:
    return {k: v for k, v in PICTURES[picture].items() if k not in ("theme", "size", "lang")}


def _svg(params: dict[str, str]) -> ET.Element:
    request = request_from_query(
        search_service_pb2.FindBirthTimeSensitivityRequest, list({**params, "format": "svg"}.items()), PATH
    )
    return ET.fromstring(compute_reply(birth_time_sensitivity.compute, request, Deadline.never()).data.svg)


def _rows(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == "fact"]


def _intervals(row: ET.Element) -> list[ET.Element]:
    return [g for g in row.iter(f"{SVG}g") if g.get("class") == "interval"]


@pytest.fixture(scope="module")
def drawn() -> dict[str, ET.Element]:
    return {picture: ET.fromstring(draw_document(picture)[0]) for picture in PICTURES}


# --- The picture read back into the facts ----------------------------------------------------


@pytest.mark.parametrize("picture", list(PICTURES))
def test_each_rows_intervals_cover_the_window_end_to_end_each_a_new_value(drawn, picture):
    data = _json(_picture_params(picture))
    for row in _rows(drawn[picture]):
        spans = _intervals(row)
        assert float(spans[0].get("data-from")) == pytest.approx(data.start.jd, abs=1e-6)
        assert float(spans[-1].get("data-until")) == pytest.approx(data.end.jd, abs=1e-6)
        for before, after in zip(spans, spans[1:]):
            assert before.get("data-until") == after.get("data-from")
            assert before.get("data-value") != after.get("data-value")


@pytest.mark.parametrize("picture", list(PICTURES))
def test_every_boundary_in_a_row_is_a_change_of_its_fact_in_the_json_with_its_values(drawn, picture):
    data = _json(_picture_params(picture))
    changes: dict[str, list[tuple[str, str | None, str | None]]] = {}
    for change in data.changes:
        for fact in change.facts:
            before = fact.before if fact.HasField("before") else None
            after = fact.after if fact.HasField("after") else None
            changes.setdefault(fact.fact, []).append((f"{change.instant.jd:.6f}", before, after))
    for row in _rows(drawn[picture]):
        spans = _intervals(row)
        drawn_changes = [
            (b.get("data-until"), b.get("data-value"), a.get("data-value")) for b, a in zip(spans, spans[1:])
        ]
        assert drawn_changes == changes.get(row.get("data-fact"), []), row.get("data-fact")


@pytest.mark.parametrize("picture", list(PICTURES))
def test_the_birth_is_marked_and_every_change_has_its_rule(drawn, picture):
    data = _json(_picture_params(picture))
    lines = list(drawn[picture].iter(f"{SVG}line"))
    assert [line.get("data-jd") for line in lines if line.get("class") == "birth"] == [f"{data.birth.jd:.6f}"]
    rules = [line.get("data-jd") for line in lines if line.get("class") == "change"]
    assert rules == [f"{change.instant.jd:.6f}" for change in data.changes]


@pytest.mark.parametrize("picture", list(PICTURES))
def test_a_row_is_steady_exactly_when_its_fact_never_changes_drawn_quietly_and_a_changing_one_stands_out(
    drawn, picture
):
    theme = THEMES[PICTURES[picture].get("theme", "light")]
    for row in _rows(drawn[picture]):
        spans = _intervals(row)
        steady = len(spans) == 1
        assert row.get("data-steady") == str(steady).lower()
        label = row.find(f"{SVG}text")
        assert (label.get("font-weight") == "bold") is not steady
        rects = [span.find(f"{SVG}rect") for span in spans]
        assert all((rect.get("stroke-dasharray") is not None) is steady for rect in rects)
        inks = {element.get("fill") for span in spans for element in span if element.tag in (f"{SVG}text", f"{SVG}use")}
        if steady:
            assert {rect.get("fill") for rect in rects} == {theme.background}
            assert inks <= {theme.faint} and label.get("fill") == theme.faint
        elif theme.faint != theme.text:
            assert theme.faint not in inks


@pytest.mark.parametrize("picture", list(PICTURES))
def test_every_label_fits_inside_its_interval(drawn, picture):
    """An interval's label is drawn only where it fits with a margin: a glyph's side, or a
    text's estimated width (layout.TEXT_EM em a letter, more than Noto Sans' average)."""
    labelled = 0
    for row in _rows(drawn[picture]):
        for span in _intervals(row):
            rect = span.find(f"{SVG}rect")
            room = float(rect.get("width"))
            mark = span.find(f"{SVG}use")
            if mark is not None:
                width = float(mark.get("width"))
                left = float(mark.get("x"))
            elif (text := span.find(f"{SVG}text")) is not None:
                width = text_width(text.text, float(text.get("font-size")))
                left = float(text.get("x")) - width / 2
            else:
                continue
            labelled += 1
            assert width < room
            assert float(rect.get("x")) <= left and left + width <= float(rect.get("x")) + room
    assert labelled > 50


@pytest.mark.parametrize("picture", list(PICTURES))
def test_every_interval_names_its_value_and_times_in_a_title(drawn, picture):
    for row in _rows(drawn[picture]):
        for span in _intervals(row):
            title = span.find(f"{SVG}title").text
            assert title and (len(_intervals(row)) == 1 or ":" in title)


def test_the_picture_is_an_image_with_a_title_and_a_description_of_every_fact(drawn):
    root = drawn[PARIS]
    assert root.get("role") == "img" and root.get(XML_LANG) == "en"
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    assert title.text == "Birth-time sensitivity"
    for row in _rows(root):
        for span in _intervals(row):
            assert span.find(f"{SVG}title").text in desc.text


def test_the_header_names_the_birth_its_place_the_window_the_zodiac_and_the_houses(drawn):
    header = [t.text for t in next(g for g in drawn[PARIS].iter(f"{SVG}g") if g.get("class") == "header")]
    assert header == [
        "Birth-time sensitivity",
        "Birth: 1985-07-13 14:05 CEST (UTC+02:00, Europe/Paris) · 48°51′N 2°21′E",
        "Birth times 1985-07-13 12:05 – 16:05 (±2 h)",
        "Tropical zodiac · Houses: Placidus",
    ]


def test_a_sidereal_chart_says_its_ayanamsha_and_draws_the_angles_nakshatras(drawn):
    root = drawn["delhi-sidereal-6h-high_contrast"]
    header = [t.text for t in next(g for g in root.iter(f"{SVG}g") if g.get("class") == "header")]
    assert header[3] == "Sidereal zodiac (lahiri) · Houses: Placidus"
    facts = [row.get("data-fact") for row in _rows(root)]
    assert facts[:4] == ["asc_sign", "mc_sign", "asc_nakshatra", "mc_nakshatra"] and facts[-1] == "profection_lord"


def test_inside_the_polar_circle_the_header_says_which_houses_drew_the_cusps():
    root = _svg({"datetime": "1985-07-13T14:05:00", "tz": "Europe/Oslo", "lat": "69.65", "lon": "18.96"})
    header = [t.text for t in next(g for g in root.iter(f"{SVG}g") if g.get("class") == "header")]
    assert header[3] == "Tropical zodiac · Houses: Porphyry (Placidus has no cusps at this latitude)"


@pytest.mark.parametrize("lang", languages())
def test_every_language_draws_its_own_title_and_labels(lang):
    root = _svg({**_picture_params(PARIS), "lang": lang})
    assert root.get(XML_LANG) == lang
    if lang != "en":
        english = {t.text for t in _svg(_picture_params(PARIS)).iter(f"{SVG}text")}
        assert root.find(f"{SVG}title").text not in english
        assert "Local time" not in {t.text for t in root.iter(f"{SVG}text")}


def test_the_same_request_draws_the_same_bytes():
    assert draw_document(PARIS) == draw_document(PARIS)


# --- The time axis -------------------------------------------------------------------------


def _ticks(root: ET.Element) -> list[tuple[float, list[str]]]:
    """Return each labelled tick's UT1 JD and texts (a tick beside the birth's times has none)."""
    ticks = [
        (float(g.get("data-jd")), [t.text for t in g.iter(f"{SVG}text")])
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "tick"
    ]
    return [(jd, texts) for jd, texts in ticks if texts]


def _clock(jd: float, zone: str) -> str:
    utc = datetime.fromisoformat(iso_utc(jd, "minute").replace("Z", ":00+00:00"))
    return f"{utc.astimezone(ZoneInfo(zone) if zone != 'UTC' else UTC):%H:%M}"


@pytest.mark.parametrize(
    ("params", "zone"),
    [
        ({"datetime": "1984-11-02T10:40:00", "tz": "Asia/Kolkata", "lat": "28.6", "lon": "77.2"}, "Asia/Kolkata"),
        ({"datetime": "2026-03-29T04:30:00", "tz": "Europe/Paris", "lat": "48.85", "lon": "2.35"}, "Europe/Paris"),
    ],
    ids=["a half-hour offset", "across the change to summer time"],
)
def test_each_tick_shows_its_local_time_above_its_utc_time(params, zone):
    ticks = _ticks(_svg({**params, "window_hours": "6"}))  # hourly ticks
    assert len(ticks) >= 5
    for jd, (local, utc) in ticks:
        assert (local, utc) == (_clock(jd, zone), _clock(jd, "UTC"))
    if zone == "Asia/Kolkata":  # round on the local clock, so half past on UTC's
        assert all(local.endswith(":00") and utc.endswith(":30") for _, (local, utc) in ticks)


def test_a_birth_given_in_utc_has_one_row_of_utc_ticks():
    ticks = _ticks(_svg({"datetime": "1985-07-13T12:05:00Z", "lat": "48.85", "lon": "2.35"}))
    assert ticks and all(len(texts) == 1 and texts[0] == _clock(jd, "UTC") for jd, texts in ticks)


def test_the_birth_shows_its_own_clock_and_utc_times_and_no_tick_label_beside_them(drawn):
    root = drawn[PARIS]
    birth = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "birth-time")
    assert [t.text for t in birth.iter(f"{SVG}text")] == ["14:05", "12:05"]
    birth_x = float(next(t for t in birth.iter(f"{SVG}text")).get("x"))
    for g in (g for g in root.iter(f"{SVG}g") if g.get("class") == "tick"):
        for text in g.iter(f"{SVG}text"):
            assert abs(float(text.get("x")) - birth_x) > text_width("00:00", float(text.get("font-size")))


def test_ticks_are_a_round_step_that_leaves_room_for_their_labels():
    assert tick_minutes(1200, 2 / 24) == 20
    assert tick_minutes(1200, 12 / 24) == 120
    assert tick_minutes(1200, 0.25 / 24) == 5


# --- The layout ----------------------------------------------------------------------------


def _timeline(segments: tuple[Segment, ...]) -> Timeline:
    return Timeline(
        header=("Title", "Birth", "Window", "Zodiac"),
        start_jd=0.0,
        end_jd=1.0,
        birth_jd=0.5,
        birth_label="birth",
        birth_tick=Tick(0.5, "12:00", "12:00"),
        local_label=None,
        utc_label="UTC",
        ticks=(),
        groups=(Group("moon", "Moon", (Row("moon_nakshatra", "nakshatra", segments),)),),
        changes=tuple(s.start_jd for s in segments[1:]),
    )


def _marks(width_share: float, labels: tuple[Label, ...]) -> str | None:
    segments = (
        Segment(0.0, 0.1, "a", "a", labels),
        Segment(0.1, 0.1 + width_share, "b", "b", labels),
        Segment(0.1 + width_share, 1.0, "c", "c", labels),
    )
    interval = timeline_layout(_timeline(segments), 1200).groups[0].rows[0].intervals[1]
    return interval.mark.text if interval.mark is not None else None


def test_an_intervals_label_is_the_longest_of_its_forms_that_fits_and_none_when_none_does():
    forms = tuple(Label(text) for text in nakshatra_abbreviations("Purva Phalguni"))
    plot = 1200 - 20 - 20 - 100  # about the plot's width in pixels
    full = text_width("Purva Phalguni", VALUE_FONT) + 2 * LABEL_PAD
    assert _marks(2 * full / plot, forms) == "Purva Phalguni"
    assert _marks(0.9 * full / plot, forms) == "P. Phalguni"
    assert _marks(0.6 * full / plot, forms) == "P.Pha."
    assert _marks(0.2 * full / plot, forms) is None
    assert _marks(0.5 * GLYPH_SIDE / plot, (Label("aries", glyph=True),)) is None


def test_a_label_the_birth_line_would_cross_moves_to_the_wider_side_of_the_birth():
    segments = (Segment(0.0, 1.0, "krittika", "Krittika", (Label("Krittika"),)),)
    layout = timeline_layout(_timeline(segments), 1200)
    interval = layout.groups[0].rows[0].intervals[0]
    assert interval.mark is not None
    assert abs(interval.mark.x - layout.birth_x) > text_width("Krittika", VALUE_FONT) / 2


def test_every_nakshatras_short_forms_but_the_last_tell_it_from_the_others():
    forms = [nakshatra_abbreviations(nakshatra_name(name)) for name, _ in NAKSHATRA_TABLE]
    for depth in range(2):
        column = [f[min(depth, len(f) - 1)] for f in forms]
        assert len(set(column)) == len(NAKSHATRA_TABLE)
    assert nakshatra_name("purva_phalguni") == "Purva Phalguni"


# --- The intervals read from the facts at the birth and the changes -------------------------


def test_a_facts_intervals_are_walked_from_its_value_at_the_birth_through_the_changes():
    found = Sensitivity(
        start_jd=10.0,
        end_jd=12.0,
        facts=(FactSpan("asc_sign", "leo", 11.0, 11.5), FactSpan("sun_sign", "cancer", None, None)),
        changes=(
            ChartChange(10.5, (FactChange("asc_sign", "cancer", "virgo"),)),
            # A change at the birth itself: the birth's value is the one after it.
            ChartChange(11.0, (FactChange("asc_sign", "virgo", "leo"),)),
            ChartChange(11.5, (FactChange("asc_sign", "leo", "libra"),)),
        ),
    )
    assert fact_segments(found, 11.0) == {
        "asc_sign": [(10.0, 10.5, "cancer"), (10.5, 11.0, "virgo"), (11.0, 11.5, "leo"), (11.5, 12.0, "libra")],
        "sun_sign": [(10.0, 12.0, "cancer")],
    }


def _header(params: dict[str, str]) -> list[str]:
    return [t.text for t in next(g for g in _svg(params).iter(f"{SVG}g") if g.get("class") == "header")]


def test_a_birth_before_the_year_1_is_drawn_in_utc_its_window_dated_at_both_ends():
    header = _header({"jd": "1000000.5", "lat": "30", "lon": "31"})
    assert header[1] == "Birth: -001975-10-22 00:00 UTC · 30°00′N 31°00′E"
    assert header[2] == "Birth times -001975-10-21 22:00 UTC – -001975-10-22 02:00 UTC (±2 h)"


def test_a_local_mean_times_offset_is_shown_to_the_second():
    header = _header({"datetime": "1700-01-01T12:00:00", "tz": "Europe/Paris", "lat": "48.85", "lon": "2.35"})
    assert header[1] == "Birth: 1700-01-01 12:00 LMT (UTC+00:09:21, Europe/Paris) · 48°51′N 2°21′E"
