"""The words of the North and South Indian charts, by language (``lang``): the grahas'
abbreviations, Rahu's and Ketu's names, the lagna, "combust" and the varga names, read from
the ``jyotish`` part of shared/pictures/words.json (whose ``sources`` names where they come
from); signs, the other grahas' names and the sentence templates are the wheel's
(shared.pictures.words)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shared.pictures.words import Words, table


@dataclass(frozen=True)
class JyotishWords:
    """One language's words for the Indian charts (``lang``, an ISO 639-1 code)."""

    lang: str

    @property
    def _entry(self) -> Mapping[str, Any]:
        return table()["jyotish"]["languages"][self.lang]

    @property
    def _templates(self) -> Mapping[str, str]:
        return table()["languages"][self.lang]["templates"]

    @property
    def words(self) -> Words:
        """Return the wheel's words of the same language."""
        return Words(self.lang)

    def abbreviation(self, body: str) -> str:
        """Return the label a chart draws for ``body`` (a graha, or lagna): Su, Mo ... in English."""
        if body == "lagna":
            return self._entry["lagna"][:2]
        return self._entry["abbreviations"][body]

    def name(self, body: str) -> str:
        """Return the name of ``body`` (a graha, or lagna) in the description."""
        if body == "lagna":
            return self._entry["lagna"]
        return self._entry["grahas"].get(body) or self.words.body(body)

    def varga_name(self, name: str) -> str:
        """Return the name of the varga ``name`` (rasi, navamsa ... as kernel/vargas.py spells it)."""
        return self._entry.get("vargas", {}).get(name) or name.capitalize()

    def rasi_clause(self, body: str, degree: int, sign: str, retrograde: bool, combust: bool, house: int) -> str:
        """Return a graha of the rasi in words ("Sun in 21° Cancer in the 9th house"), its
        retrograde and combust said; the lagna without a house ("Lagna in 12° Leo")."""
        if body == "lagna":
            return self._templates["angle"].format(angle=self.name(body), degree=degree, sign=self.words.sign(sign))
        retro = self._templates["retrograde"].format(retrograde=table()["languages"][self.lang]["retrograde"])
        clause = self._templates["body"].format(
            body=self.name(body),
            degree=degree,
            sign=self.words.sign(sign),
            retrograde=retro if retrograde else "",
            house=self.words.house(house),
        )
        return f"{clause} ({self._entry['combust']})" if combust else clause

    def varga_clause(self, body: str, sign: str) -> str:
        """Return a point of a varga in words: its sign only ("Sun in Leo")."""
        return self._entry["in_sign"].format(body=self.name(body), sign=self.words.sign(sign))
