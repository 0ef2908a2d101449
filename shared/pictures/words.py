"""The words a wheel draws and reads, by language (``lang``): read from ``words.json``, the one
table of every sign, body and aspect name, the angle labels, "retrograde" and its mark (℞), the
titles and chart names, and the small templates each language's description is built from.
The table's ``sources`` names, per language, where its terms come from.

A template is a ``str.format`` pattern. Languages with grammatical case (German, Russian) read
a body as a list entry, "Sonne: 21° Krebs, 9. Haus", so no sign name is ever inflected; the
Romance languages put the sign after a preposition that needs no article ("à 21° Cancer", "a
21° de Cáncer", "in Cancro") and say "retrograde" in a form that agrees with every body
("en movimiento retrógrado"). House numbers are ordinals where the language writes them so
(CLDR's digit ordinals: "9th", "9.", "9e", "9-й"), a plain number after the noun where it
does not ("casa 9").

A header's dates and times are CLDR's (its long date with the month's name, a medium one where
room is short, the 24-hour clock and the long date-time join: "15. Juni 1990, 14:30"), held
in the table as patterns and month names; English keeps ISO 8601, as the JSON answers write a
moment.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

#: The table of words, by language.
WORDS_FILE = Path(__file__).with_name("words.json")
#: CLDR's ordinal plural rules (plurals.xml, type="ordinal") of the languages whose ordinals
#: have more than the one category "other": the category of ``n``, by language.
ORDINAL_RULES: dict[str, Callable[[int], str]] = {
    "en": lambda n: (
        "one"
        if n % 10 == 1 and n % 100 != 11
        else "two"
        if n % 10 == 2 and n % 100 != 12
        else "few"
        if n % 10 == 3 and n % 100 != 13
        else "other"
    ),
    "fr": lambda n: "one" if n == 1 else "other",
}


@cache
def table() -> dict[str, Any]:
    """Return the whole table: ``sources`` (by language) and ``languages`` (each language's words)."""
    return json.loads(WORDS_FILE.read_text(encoding="utf-8"))


def languages() -> tuple[str, ...]:
    """Return the codes (ISO 639-1) of the languages the table holds, English first."""
    return tuple(table()["languages"])


@dataclass(frozen=True)
class Words:
    """One language's words (``lang``, an ISO 639-1 code) and how its sentences are built."""

    lang: str

    @property
    def _entry(self) -> Mapping[str, Any]:
        return table()["languages"][self.lang]

    def sign(self, name: str) -> str:
        """Return the name of the sign ``name`` (aries ... pisces)."""
        return self._entry["signs"][name]

    def body(self, name: str) -> str:
        """Return the name of the body ``name`` (an identifier of kernel/bodies.py, or lilith),
        or of the point ``name`` a wheel draws beside the bodies (mean_south_node,
        true_south_node, vertex, a lot's id of kernel/lots.py)."""
        entry = self._entry
        return entry["bodies"][name] if name in entry["bodies"] else entry["points"][name]

    def lot_mark(self, lot: str) -> str:
        """Return the short mark a lot without a glyph is drawn as on a wheel (``lot``, a lot's id
        but part_of_fortune's, which is drawn as ⊗): the first letters of its name, "Spi"."""
        return self._entry["lot_marks"][lot]

    def aspect(self, name: str) -> str:
        """Return the name of the aspect ``name`` (an identifier of kernel/aspects.py)."""
        return self._entry["aspects"][name]

    def angle_label(self, name: str) -> str:
        """Return the label drawn at the angle ``name`` (asc, mc, dsc, ic): ASC, MC, DSC, IC in
        English."""
        return self._entry["angles"][name]

    @property
    def retrograde_mark(self) -> str:
        """Return the mark drawn beside a retrograde body: ℞ (U+211E), in every language."""
        return self._entry["retrograde_mark"]

    def title(self, kind: str) -> str:
        """Return the picture's title for a wheel of ``kind`` (natal, transit ...)."""
        return self._entry["titles"][kind]

    def chart(self, name: str, moment: str = "") -> str:
        """Return the name a bi-wheel's description gives one of its charts: ``name`` is natal,
        chart_a, chart_b, inner, outer, or transit, progressed, solar_return, lunar_return (at
        ``moment``, an ISO 8601 text)."""
        return self._entry["charts"][name].format(moment=moment)

    def dated_chart(self, name: str, moment: str) -> str:
        """Return a chart's name (``chart``) with its moment ``moment`` (a text): in the
        name's own place for it ("transits at 2026-03-01 12:00 UTC"), else after a colon as
        ``labelled`` sets it ("natal chart: 1990-06-15 15:30 BST")."""
        template = self._entry["charts"][name]
        return template.format(moment=moment) if "{moment}" in template else self.labelled(template, moment)

    def ring(self, name: str) -> str:
        """Return the word naming a bi-wheel's ring ``name`` (inner or outer): Inner, Outer."""
        return self._entry[name]

    def house(self, number: int) -> str:
        """Return the house number as the language's description writes it: an ordinal
        ("9th", "9.", "1re") or the plain number."""
        forms = self._entry["ordinal"]
        category = ORDINAL_RULES.get(self.lang, lambda _n: "other")(number)
        return forms.get(category, forms["other"]).format(n=number)

    def body_clause(
        self, body: str, degree: int, sign: str, retrograde: bool, house: int, *, outer: bool = False
    ) -> str:
        """Return one body in words: its name, degree in its sign, whether retrograde and its
        house ("Sun in 21° Cancer in the 9th house"); ``outer``: a bi-wheel's outer body, in
        its own chart's house where the language says so ("in its 9th house")."""
        templates = self._entry["templates"]
        retro = templates["retrograde"].format(retrograde=self._entry["retrograde"]) if retrograde else ""
        return templates["outer_body" if outer else "body"].format(
            body=self.body(body), degree=degree, sign=self.sign(sign), retrograde=retro, house=self.house(house)
        )

    def angle_clause(self, name: str, degree: int, sign: str) -> str:
        """Return the Ascendant (``name`` asc) or the Midheaven (mc) in words, with its degree
        and sign."""
        angle = self._entry["ascendant" if name == "asc" else "midheaven"]
        return self._entry["templates"]["angle"].format(angle=angle, degree=degree, sign=self.sign(sign))

    def aspect_clause(self, body_a: str, aspect: str, body_b: str) -> str:
        """Return an aspect in words: "Sun square Moon"."""
        return self._entry["templates"]["aspect"].format(
            body_a=self.body(body_a), aspect=self.aspect(aspect), body_b=self.body(body_b)
        )

    def biwheel(self, inner_chart: str, inner: str, outer_chart: str, outer: str) -> str:
        """Return a bi-wheel's description: the inner chart's name and its bodies and angles in
        words (``inner``), then the outer chart's (``outer``)."""
        return self._entry["templates"]["biwheel"].format(
            inner=self._entry["inner"],
            inner_chart=inner_chart,
            inner_bodies=inner,
            outer=self._entry["outer"],
            outer_chart=outer_chart,
            outer_bodies=outer,
        )

    def house_system(self, name: str) -> str:
        """Return the name of the house system ``name`` (an identifier of kernel/houses.py)."""
        return self._entry["house_systems"][name]

    def header(self, key: str, **fields: str) -> str:
        """Return the header's (and the table's) word or template ``key`` (tropical, sidereal,
        houses, fallback, utc, rows, columns, body, position, house, cusps, born, relocated)
        with ``fields`` filled in."""
        return self._entry["header"][key].format(**fields)

    def labelled(self, label: str, text: str = "") -> str:
        """Return ``text`` after its label ``label`` and a colon, as the language sets a colon
        ("Inner: natal chart", "Intérieur : thème natal"); with ``text`` "" the label and its
        colon alone ("Outer:")."""
        return self._entry["header"]["label"].format(label=label, text=text).rstrip()

    def date(self, iso_date: str, form: str = "long") -> str:
        """Return a date written ``iso_date`` (ISO 8601, ``1990-06-15``; ``-3001-02-03`` in
        astronomical year numbering too) as the language writes it in CLDR's ``form``: long,
        with the month's name ("15. Juni 1990", "15 июня 1990 г."), or medium, shorter, for
        the ring labels and the grid's axes ("15.06.1990", "15 juin 1990", "15 июн. 1990 г.");
        the year as a plain number. English keeps the ISO 8601 text the JSON answers write."""
        year, month, day = iso_date.rsplit("-", 2)
        header = self._entry["header"]
        months = header.get("months", {}).get(form)
        name = months[int(month) - 1] if months else ""
        return header["date"][form].format(iso=iso_date, year=int(year), month=name, mm=month, day=int(day), dd=day)

    def time(self, clock: str) -> str:
        """Return a wall-clock time written ``clock`` (``08:05`` or ``08:05:09``, 24-hour) as the
        language writes it on a 24-hour clock: CLDR's short time, or its medium time when the
        seconds are given ("8:05" in Spanish, "08:05" elsewhere)."""
        hours, minutes, *seconds = clock.split(":")
        text = self._entry["header"]["time"].format(hh=hours, h=int(hours), mm=minutes)
        return f"{text}:{seconds[0]}" if seconds else text

    def moment(self, iso_date: str, clock: str) -> str:
        """Return a date and time (``date``, ``time``) joined as CLDR's long date-time pattern
        joins them: "15. Juni 1990, 14:30"."""
        return self._entry["header"]["moment"].format(date=self.date(iso_date), time=self.time(clock))

    def coordinate(self, angle: str, hemisphere: str) -> str:
        """Return a latitude or longitude written ``angle`` (``51°30′``) in the hemisphere
        ``hemisphere`` (north, south, east, west) as the language writes it: ``51°30′N``."""
        header = self._entry["header"]
        return header["coordinate"].format(angle=angle, hemisphere=header["compass"][hemisphere])


#: The English words, the default.
ENGLISH = Words("en")
