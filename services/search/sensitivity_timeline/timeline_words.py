"""The words of the sensitivity timeline, by language (``lang``): its title, header lines,
group and row labels and the sentences of its description, read from the ``timeline`` part of
each language of shared/pictures/words.json; the signs, bodies, aspects, angle labels, zodiac
and house systems are the wheel's (shared.pictures.words), Rahu's and Ketu's names the Indian
charts' (the table's ``jyotish`` part). Nakshatra names are the API's transliterations
(kernel/nakshatras.py), title-cased, in every language."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shared.pictures.words import Words, table


@dataclass(frozen=True)
class TimelineWords:
    """One language's words for the timeline (``lang``, an ISO 639-1 code)."""

    lang: str

    @property
    def _entry(self) -> Mapping[str, Any]:
        return table()["languages"][self.lang]["timeline"]

    @property
    def words(self) -> Words:
        """Return the wheel's words of the same language."""
        return Words(self.lang)

    def say(self, key: str, **fields: str) -> str:
        """Return the timeline's word or template ``key`` (title, birth, window, local, angles,
        jyotish, profection, sign, house, nakshatra, pada, vimshottari_lord, profection_lord,
        none, birth_mark, throughout, during, hours …) with ``fields`` filled in."""
        return self._entry[key].format(**fields)

    def angle_row(self, key: str, angle: str) -> str:
        """Return the label of an angle's row: ``key`` sign_of, nakshatra_of or aspect_to, of
        ``angle`` (asc, mc) as the wheel labels it ("ASC sign", "aspect to MC")."""
        return self.say(key, angle=self.words.angle_label(angle))

    def body(self, name: str) -> str:
        """Return the name of ``name``: a body of the chart, or a lord (rahu, ketu too)."""
        grahas = table()["jyotish"]["languages"][self.lang]["grahas"]
        if name in grahas:
            return grahas[name]
        try:
            return self.words.body(name)
        except KeyError:
            return name.replace("_", " ").title()


def nakshatra_name(key: str) -> str:
    """Return a nakshatra's name as drawn: the API's transliteration title-cased ("Purva
    Phalguni" for purva_phalguni)."""
    return key.replace("_", " ").title()
