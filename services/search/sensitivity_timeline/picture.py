"""What an uncertain birth time changes (kernel.birth_time_sensitivity) as the timeline
/v1/natal-chart/sensitivity draws: each fact's values over the window in words, glyphs and
times (``Timeline``), laid out (``layout.py``) and drawn (``drawing.py``).

Times are shown on the clock of the birth's zone when the request read the birth in one (``tz``
or a ``place``), else in UTC; the ticks are at round times of that clock, each with its UTC time
beneath. A fact's intervals are read from the facts at the birth and the changes: walking the
changes back from the birth gives each fact's value at the window's start.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo

from kernel.birth_time_sensitivity import Sensitivity
from kernel.civil_time import LocalReading, zone_named
from kernel.conditions import HIGH_LATITUDE
from kernel.errors import OutOfRange, UnreadableValue
from kernel.houses import HouseSystem
from kernel.timescale import iso_utc
from kernel.zodiac import SIGN_KEYS
from services.search.sensitivity_timeline.drawing import draw_svg
from services.search.sensitivity_timeline.layout import (
    Group,
    Label,
    Row,
    Segment,
    Tick,
    Timeline,
    tick_minutes,
    timeline_layout,
)
from services.search.sensitivity_timeline.timeline_words import TimelineWords, nakshatra_name
from shared.pictures.glyphs import glyph_outlines
from shared.pictures.themes import THEMES
from shared.runtime.sensitivity_inputs import TimelinePicture

#: The glyph of each Vimshottari lord or traditional ruler that has no glyph of its own name.
LORD_GLYPHS = {"rahu": "north_node", "ketu": "south_node"}
#: The house system that draws the cusps where the one asked for has none (kernel.houses).
POLAR_FALLBACK = "porphyrius"
#: The facts of each body, the Moon's Vedic facts and the angles', in the kernel's order.
BODY_FACTS = ("sign", "house", "aspect_asc", "aspect_mc")
VEDIC_FACTS = ("moon_nakshatra", "moon_pada", "vimshottari_lord")
MINUTES_PER_DAY = 1440.0


@dataclass(frozen=True)
class TimelineBirth:
    """The birth as the header names it: its UT1 JD, how its local time was read (None: given
    in UTC), its town (""), latitude and longitude (degrees north and east), the window's
    half-width (hours), the zodiac (the ayanamsha's name, None: tropical), the house system
    asked for, the ayanamsha of the Vedic facts and the bodies in order."""

    jd: float
    reading: LocalReading | None
    town: str
    latitude: float
    longitude: float
    window_hours: float
    sidereal: str | None
    system: HouseSystem
    vedic_ayanamsha: str
    bodies: tuple[str, ...]


def timeline_svg(found: Sensitivity, birth: TimelineBirth, picture: TimelinePicture) -> tuple[str, tuple[int, int]]:
    """Return the SVG document of the timeline of ``found`` for ``birth`` in ``picture``'s
    theme, size and language, and its width and height in pixels."""
    words = TimelineWords(picture.lang)
    clock = Clock(birth.reading, (found.start_jd, found.end_jd))
    timeline = build_timeline(found, birth, words, clock, tick_minutes(picture.size, birth.window_hours / 24.0))
    layout = timeline_layout(timeline, picture.size)
    desc = describe(timeline)
    return draw_svg(layout, THEMES[picture.theme], lang=picture.lang, desc=desc), (layout.width, layout.height)


def describe(timeline: Timeline) -> str:
    """Return the picture's description: the header's lines, then each fact's values with
    their times ("Sun, house: 10 from 10:05:00 to 11:42:13; 9 from 11:42:13 to 14:05:00.")."""
    rows = [
        f"{group.label}, {row.label}: {'; '.join(segment.title for segment in row.segments)}."
        for group in timeline.groups
        for row in group.rows
    ]
    return " ".join([". ".join(timeline.header) + ".", *rows])


def fact_segments(found: Sensitivity, birth_jd: float) -> dict[str, list[tuple[float, float, str | None]]]:
    """Return each fact's intervals over the window of the birth at ``birth_jd``: (start,
    end, value), UT1 JD, in time order."""
    values = {span.fact: span.value for span in found.facts}
    # A fact's value at a change at the birth itself is the one after it (its intervals are
    # closed at their start): every change up to the birth is walked back.
    for change in reversed([c for c in found.changes if c.jd <= birth_jd]):
        for fact in change.facts:
            values[fact.fact] = fact.before
    starts: dict[str, list[tuple[float, str | None]]] = {
        name: [(found.start_jd, value)] for name, value in values.items()
    }
    for change in found.changes:
        for fact in change.facts:
            starts[fact.fact].append((change.jd, fact.after))
    return {
        name: [
            (jd, bounds[i + 1][0] if i + 1 < len(bounds) else found.end_jd, value)
            for i, (jd, value) in enumerate(bounds)
        ]
        for name, bounds in starts.items()
    }


def build_timeline(
    found: Sensitivity, birth: TimelineBirth, words: TimelineWords, clock: Clock, step_minutes: int
) -> Timeline:
    """Return what the picture shows of ``found``: the header, ticks every ``step_minutes`` of
    ``clock``, and each fact's intervals with their labels, in ``words``' language."""
    segments = fact_segments(found, birth.jd)
    facts = list(segments)

    def row(fact: str, label: str) -> Row:
        return Row(fact, label, tuple(_segment(fact, label, *part, words, clock) for part in segments[fact]))

    groups = [
        Group(
            "angles",
            words.say("angles"),
            tuple(
                row(f"{angle}_{kind}", words.angle_row(f"{kind}_of", angle))
                for kind in ("sign", "nakshatra")
                for angle in ("asc", "mc")
                if f"{angle}_{kind}" in segments
            ),
        )
    ]
    angle_labels = {"aspect_asc": words.angle_row("aspect_to", "asc"), "aspect_mc": words.angle_row("aspect_to", "mc")}
    for body in birth.bodies:
        rows = tuple(
            row(f"{body}_{kind}", angle_labels.get(kind) or words.say(kind))
            for kind in BODY_FACTS
            if f"{body}_{kind}" in segments
        )
        groups.append(Group(body, words.body(body), rows))
    vedic = tuple(row(fact, words.say(fact.removeprefix("moon_"))) for fact in VEDIC_FACTS if fact in segments)
    groups.append(Group("jyotish", f"{words.say('jyotish')} · {birth.vedic_ayanamsha}", vedic))
    if "profection_lord" in segments:
        groups.append(
            Group("profection", words.say("profection"), (row("profection_lord", words.say("profection_lord")),))
        )
    assert sum(len(g.rows) for g in groups) == len(facts), "every fact has a row"
    wide = words.words
    zodiac = wide.header("sidereal", ayanamsha=birth.sidereal) if birth.sidereal else wide.header("tropical")
    if any(c.kind == HIGH_LATITUDE for c in found.warnings):
        houses = wide.header(
            "fallback", system=wide.house_system(POLAR_FALLBACK), requested=wide.house_system(birth.system.name)
        )
    else:
        houses = wide.header("houses", system=wide.house_system(birth.system.name))
    place = _coordinates(birth.latitude, birth.longitude, words)
    hours = f"{birth.window_hours:g}"
    # The window's end without its date when it is the start's ("1985-07-13 12:05 – 16:05").
    window_start, window_end = clock.moment(found.start_jd, zone=False), clock.moment(found.end_jd, zone=False)
    header = (
        words.say("title"),
        words.say("birth", moment=clock.moment(birth.jd)) + f" · {f'{birth.town} · ' if birth.town else ''}{place}",
        words.say("window", start=window_start, end=_without_same_date(window_end, window_start), hours=hours),
        f"{zodiac} · {houses}",
    )
    return Timeline(
        header=header,
        start_jd=found.start_jd,
        end_jd=found.end_jd,
        birth_jd=birth.jd,
        birth_label=words.say("birth_mark"),
        birth_tick=clock.tick(birth.jd),
        local_label=words.say("local") if clock.zone is not None else None,
        utc_label=wide.header("utc"),
        ticks=clock.ticks(found.start_jd, found.end_jd, step_minutes),
        groups=tuple(groups),
        changes=tuple(change.jd for change in found.changes),
    )


def _segment(
    fact: str, label: str, start: float, end: float, value: str | None, words: TimelineWords, clock: Clock
) -> Segment:
    """Return a fact's interval: its candidate labels, tone and title, by the kind of fact."""
    kind = fact.rsplit("_", 1)[-1]
    wide = words.words
    labels: tuple[Label, ...]
    tone = "text"
    if value is None:
        shown, labels = words.say("none"), ()
    elif kind == "sign":
        shown, labels, tone = wide.sign(value), (Label(value, glyph=True),), f"element:{SIGN_KEYS.index(value)}"
    elif kind in ("asc", "mc"):
        shown = wide.aspect(value)
        glyph = value in glyph_outlines()
        labels, tone = ((Label(value, glyph=True),) if glyph else (Label(shown),)), f"aspect:{value}"
    elif kind == "nakshatra":
        shown = nakshatra_name(value)
        labels = tuple(Label(text) for text in nakshatra_abbreviations(shown))
    elif kind == "lord":
        shown = words.body(value)
        glyph = LORD_GLYPHS.get(value, value)
        labels = (Label(glyph, glyph=True),) if glyph in glyph_outlines() else (Label(shown[:2]),)
    else:
        shown, labels = value, (Label(value),)
    if start == clock.window[0] and end == clock.window[1]:
        title = words.say("throughout", value=shown)
    else:
        title = words.say("during", value=shown, start=clock.time(start), end=clock.time(end))
    return Segment(start, end, value, title, labels, tone)


def _without_same_date(text: str, other: str) -> str:
    """Return ``text`` (a date, a space and a time) without its date when ``other`` has the same."""
    date, _, time = text.partition(" ")
    return time if date == other.partition(" ")[0] else text


def nakshatra_abbreviations(name: str) -> tuple[str, ...]:
    """Return a nakshatra's name and its shorter forms, longest first: "Purva Phalguni", "P.
    Phalguni", "P.Pha." (two-word names share their first word: Purva, Uttara); "Krittika",
    "Krit.", "Kr"; "Mula", "Mu". All but the two letters tell each nakshatra from the other 26."""
    words = name.split(" ")
    if len(words) == 1:
        return tuple(dict.fromkeys((name, f"{name[:4]}." if len(name) > 5 else name, name[:2])))
    initial, last = words[0][0], words[-1]
    return (name, f"{initial}. {last}", f"{initial}.{last[:3]}.")


def _coordinates(latitude: float, longitude: float, words: TimelineWords) -> str:
    wide = words.words

    def minutes(angle: float) -> str:
        total = round(abs(angle) * 60.0)
        return f"{total // 60}°{total % 60:02d}′"

    north = wide.coordinate(minutes(latitude), "north" if latitude >= 0 else "south")
    east = wide.coordinate(minutes(longitude), "east" if longitude >= 0 else "west")
    return f"{north} {east}"


class Clock:
    """The clock the picture's times are read on: the zone the birth was read in (``reading``),
    else UTC; ``window`` the first and last birth times (UT1 JD)."""

    def __init__(self, reading: LocalReading | None, window: tuple[float, float]):
        self.reading = reading
        self.window = window
        self.zone: tzinfo | None = None
        if reading is not None:
            try:
                self.zone = zone_named(reading.zone)
            except UnreadableValue:  # a zone the database does not name: the reading's offset then
                self.zone = timezone(timedelta(seconds=reading.utc_offset_s))

    def local(self, jd: float) -> datetime | None:
        """Return the aware local datetime of UT1 JD ``jd``, its UTC (as every instant of the
        answer) to the nearest second, in the zone; None without a zone, or outside the years
        a datetime holds, or in a leap second."""
        if self.zone is None:
            return None
        try:
            return datetime.fromisoformat(iso_utc(jd, "second").replace("Z", "+00:00")).astimezone(self.zone)
        except (OutOfRange, OverflowError, ValueError):
            return None

    def time(self, jd: float) -> str:
        """Return the clock time of ``jd`` to the second: ``14:05:00``."""
        local = self.local(jd)
        if local is not None:
            return f"{local:%H:%M:%S}"
        return iso_utc(jd, "second")[-9:-1]

    def moment(self, jd: float, zone: bool = True) -> str:
        """Return the date and time of ``jd`` to the minute, with its zone's abbreviation, UTC
        offset and name when ``zone`` (``1985-07-13 14:05 CEST (UTC+02:00, Europe/Paris)``), or
        ``… UTC`` without a zone."""
        local = self.local(jd)
        if local is None:
            text = iso_utc(jd, "minute").rstrip("Z").replace("T", " ")
            return f"{text} UTC"
        text = f"{local:%Y-%m-%d %H:%M}" + (f":{local:%S}" if local.second else "")
        if not zone or self.reading is None:
            return text
        offset = local.utcoffset() or timedelta(0)
        seconds = round(offset.total_seconds())
        sign = "-" if seconds < 0 else "+"
        hours, rest = divmod(abs(seconds), 3600)
        seconds_text = f":{rest % 60:02d}" if rest % 60 else ""  # a local mean time's (+00:09:21)
        abbreviation = local.tzname() or ""
        named = abbreviation and abbreviation[0] not in "+-"
        return (
            f"{text} {abbreviation + ' ' if named else ''}(UTC{sign}{hours:02d}:{rest // 60:02d}{seconds_text}, "
            f"{self.reading.zone})"
        )

    def ticks(self, start: float, end: float, step: int) -> tuple[Tick, ...]:
        """Return a tick at every round ``step`` minutes of the clock from ``start`` to ``end``
        (UT1 JD), each with its clock time and its UTC time."""
        first = self.local(start)
        offset_min = round((first.utcoffset() or timedelta(0)).total_seconds() / 60.0) if first is not None else 0
        utc_minutes = (start + 0.5) * MINUTES_PER_DAY
        tick = math.ceil((utc_minutes + offset_min) / step - 1e-9) * step - offset_min
        ticks = []
        while tick <= (end + 0.5) * MINUTES_PER_DAY + 1e-9:
            jd = tick / MINUTES_PER_DAY - 0.5
            ticks.append(self.tick(jd))
            tick += step
        return tuple(ticks)

    def tick(self, jd: float) -> Tick:
        """Return the tick at ``jd``: its clock time (None without a zone) and UTC time, to the minute."""
        local = self.local(jd + 30.0 / 86_400.0) if self.zone is not None else None  # to the nearest minute
        return Tick(jd, f"{local:%H:%M}" if local is not None else None, iso_utc(jd, "minute")[-6:-1])
