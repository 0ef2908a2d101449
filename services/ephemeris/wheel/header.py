"""What a wheel's header says, in the request's language: plain lines of text, no SVG
(``header_drawing.py`` draws them above the wheel).

The header names the chart (the request's ``name``, or its kind's title), then each chart the
picture draws with its moment and place, then the zodiac and the house system. A moment is
shown as the request gave it: the local time with the zone's abbreviation, UTC offset and
name when the request read it in a zone (``tz``, or a ``place``'s zone), else UTC, its date
and time written as the language writes them (``Words.moment``). A place is
its town's name when the request named a town, and its coordinates in degrees and minutes
(``51°30′N 0°07′W``). When the house system asked for has no cusps at the chart's latitude
(the polar circles), the header says which system drew the cusps instead (Porphyrius).

A bi-wheel's charts are named by their ring ("Inner: natal chart: …", "Outer: transits at
…"); a composite's by the two births it is the midpoint of ("chart A: …", "chart B: …"). A
chart whose place is the one before it (transits, at the natal place) repeats no place line.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from shared.pictures.words import Words


@dataclass(frozen=True)
class ShownMoment:
    """A moment as a header shows it: its wall-clock date (``1990-06-15``) and time (``15:30``,
    ``15:30:07`` when the seconds are not 0), and the zone it was read in: the IANA name, the
    abbreviation and the UTC offset (seconds east of Greenwich); the zone empty ("") for a
    moment shown in UTC."""

    date: str
    time: str
    zone: str = ""
    abbreviation: str = ""
    utc_offset_s: int = 0


@dataclass(frozen=True)
class ChartCaption:
    """One chart a picture draws, as its header names it: ``chart`` a key of the words'
    ``charts`` (natal, chart_a, transit, solar_return …), its ``ring`` on a bi-wheel (inner,
    outer; "" on a single wheel), its moment (None for a chart that has none of its own: a
    composite), its town's name ("" when none was named) and its latitude and longitude
    (degrees north and east; None for a chart seen from no place); and, for a chart relocated
    to that place, ``born_at``: the birth's town ("" when none was named), latitude and
    longitude (None when the chart is not relocated)."""

    chart: str
    moment: ShownMoment | None
    ring: str = ""
    town: str = ""
    latitude: float | None = None
    longitude: float | None = None
    born_at: tuple[str, float, float] | None = None


@dataclass(frozen=True)
class HeaderLine:
    """One line of a header: its text, whether it is set in bold (the first), and whether it
    is indented under the line above (a place under its chart's moment)."""

    text: str
    bold: bool = False
    indented: bool = False


def header_lines(
    title: str,
    name: str,
    captions: tuple[ChartCaption, ...],
    sidereal: str | None,
    houses: tuple[str, str] | None,
    words: Words,
) -> tuple[HeaderLine, ...]:
    """Return the header's lines: the chart's ``name`` and ``title`` (bold; the title alone
    when no name is given), each chart of ``captions`` with its moment and (when not the place
    of the caption before it) its place, then the zodiac (``sidereal``: the ayanamsha's name,
    None for the tropical zodiac) and the houses (``houses``: the system asked for and the one
    that drew the cusps, or None for a chart without houses), all in ``words``' language."""
    lines = [HeaderLine(f"{name} — {title}" if name else title, bold=True)]
    last_place: tuple[float | None, float | None] | None = None
    for caption in captions:
        moment = shown_moment(caption.moment, words) if caption.moment is not None else ""
        text = words.dated_chart(caption.chart, moment) if moment else words.chart(caption.chart)
        if caption.ring:
            text = words.labelled(words.ring(caption.ring), text)
        elif len(captions) == 1:
            text = moment
        else:  # a composite's births begin their lines: "Chart A: …"
            text = text[:1].upper() + text[1:]
        if text:
            lines.append(HeaderLine(text))
        place = (caption.latitude, caption.longitude)
        if caption.latitude is not None and caption.longitude is not None and place != last_place:
            where = place_text(caption.town, caption.latitude, caption.longitude, words)
            if caption.born_at is not None:  # relocated: born at one place, cast for another
                born = place_text(*caption.born_at, words)
                lines.append(HeaderLine(words.header("born", place=born), indented=bool(text)))
                where = words.header("relocated", place=where)
            lines.append(HeaderLine(where, indented=bool(text)))
        last_place = place
    zodiac = words.header("sidereal", ayanamsha=sidereal) if sidereal else words.header("tropical")
    if houses is None:
        lines.append(HeaderLine(zodiac))
    else:
        asked, drawn = houses
        if asked == drawn:
            system = words.header("houses", system=words.house_system(drawn))
        else:
            system = words.header("fallback", system=words.house_system(drawn), requested=words.house_system(asked))
        lines.append(HeaderLine(f"{zodiac} · {system}"))
    return tuple(lines)


def place_text(town: str, latitude: float, longitude: float, words: Words) -> str:
    """Return a place as the header writes it: its town (when named) and its coordinates
    (degrees north and east) in ``words``' language."""
    where = coordinates(latitude, longitude, words)
    return f"{town} · {where}" if town else where


def ring_label(caption: ChartCaption, words: Words) -> tuple[str, str]:
    """Return the two lines that name a bi-wheel's ring beside the wheel: the ring's word
    ("Outer:") and its chart with its date in the language's medium form, short enough for the
    wheel's corner ("transits at 2026-03-01", "Transite am 01.03.2026")."""
    date = words.date(caption.moment.date, "medium") if caption.moment is not None else ""
    return words.labelled(words.ring(caption.ring)), words.dated_chart(caption.chart, date) if date else words.chart(
        caption.chart
    )


def shown_moment(moment: ShownMoment, words: Words) -> str:
    """Return a moment as the header writes it: ``1990-06-15 15:30 BST (UTC+01:00,
    Europe/London)`` in its zone, ``1990-06-15 14:30 UTC`` without one (``15. Juni 1990,
    15:30 BST …`` in German: the date and time as ``words.moment`` writes them); the seconds
    only when not zero, and a numeric abbreviation (``+03``) left out as the offset says it
    already."""
    text = words.moment(moment.date, moment.time)
    utc = words.header("utc")
    if not moment.zone:
        return f"{text} {utc}"
    offset = utc_offset(moment.utc_offset_s)
    named = moment.abbreviation and moment.abbreviation[0] not in "+-"
    return f"{text} {moment.abbreviation + ' ' if named else ''}({utc}{offset}, {moment.zone})"


def clock_moment(clock: datetime, zone: str = "", abbreviation: str = "", utc_offset_s: int = 0) -> ShownMoment:
    """Return the ShownMoment of a wall-clock ``clock`` (its seconds shown only when not 0,
    its fraction of a second dropped) in ``zone`` ("" for UTC)."""
    time = f"{clock:%H:%M}" + (f":{clock:%S}" if clock.second else "")
    return ShownMoment(f"{clock:%Y-%m-%d}", time, zone, abbreviation, utc_offset_s)


def iso_moment(iso_utc: str) -> ShownMoment:
    """Return the ShownMoment, in UTC, of an ISO 8601 UTC text (``-3001-02-03T00:00:00.000Z``
    too, which no Python datetime holds), its seconds shown only when not 0."""
    date, _, clock = iso_utc.rstrip("Z").partition("T")
    hours_minutes, seconds = clock[:5], clock[6:8]
    return ShownMoment(date, hours_minutes if seconds in ("", "00") else f"{hours_minutes}:{seconds}")


def utc_offset(seconds: int) -> str:
    """Return a UTC offset (seconds east) as ``+01:00`` or ``-03:30`` (``+05:53:28`` for a
    local mean time's seconds)."""
    sign = "-" if seconds < 0 else "+"
    hours, rest = divmod(abs(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours:02d}:{minutes:02d}" + (f":{secs:02d}" if secs else "")


def coordinates(latitude: float, longitude: float, words: Words) -> str:
    """Return a place's latitude and longitude (degrees north and east) in whole degrees and
    minutes (rounded to the minute) with their hemispheres, as the language writes them:
    ``51°30′N 0°07′W``."""
    north = words.coordinate(_degrees_minutes(latitude), "north" if latitude >= 0 else "south")
    east = words.coordinate(_degrees_minutes(longitude), "east" if longitude >= 0 else "west")
    return f"{north} {east}"


def _degrees_minutes(angle_deg: float) -> str:
    minutes = round(abs(angle_deg) * 60.0)
    return f"{minutes // 60}°{minutes % 60:02d}′"
