"""Places by name: the towns of the GeoNames gazetteer, found by any spelling of their name.

The towns are GeoNames' ``cities500`` dump (CC BY 4.0, https://www.geonames.org/), built by
``deploy/build_gazetteer.py`` into a read-only SQLite file that a process opens with
:func:`use_gazetteer`. A name is matched folded (:func:`fold_name`): any case, accents
optional, hyphens and apostrophes as spaces, against the town's name and its Latin-script
alternate names (``Munchen`` and ``Munich`` both find München).
"""

from __future__ import annotations

import sqlite3
import threading
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import PurePath

from kernel.errors import UnreadableValue

#: The database's tables: one row per town, one per (folded spelling, town).
SCHEMA = """
CREATE TABLE places (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    ascii_name TEXT NOT NULL,
    country TEXT NOT NULL,
    admin1 TEXT NOT NULL,
    lat REAL NOT NULL,
    lon REAL NOT NULL,
    tz TEXT NOT NULL,
    population INTEGER NOT NULL
);
CREATE TABLE names (
    key TEXT NOT NULL,
    place_id INTEGER NOT NULL,
    own INTEGER NOT NULL,
    PRIMARY KEY (key, place_id)
) WITHOUT ROWID;
"""

#: A query shorter than this matches whole names only: a one- or two-letter prefix matches
#: tens of thousands of towns, none of them meant.
SHORTEST_PREFIX = 3

# Letters that Unicode does not decompose into a base letter and a mark.
_LETTERS = str.maketrans({"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i", "ħ": "h"})
_SEPARATORS = str.maketrans({"-": " ", "'": " ", "’": " ", "‘": " ", ".": " ", ",": " ", "`": " "})


def fold_name(name: str) -> str:
    """Return ``name`` as matched: case-folded, without accents, separators as single spaces
    (``Saint-Étienne`` gives ``saint etienne``)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold().translate(_LETTERS))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.translate(_SEPARATORS).split())


def ascii_name(name: str) -> str:
    """Return ``name`` without its accents, its case kept (``Zürich`` gives ``Zurich``)."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return bare.translate(
        str.maketrans(
            {
                "ø": "o",
                "Ø": "O",
                "ł": "l",
                "Ł": "L",
                "đ": "d",
                "Đ": "D",
                "æ": "ae",
                "Æ": "Ae",
                "œ": "oe",
                "Œ": "Oe",
                "ß": "ss",
            }
        )
    )


@dataclass(frozen=True)
class Town:
    """One place of the gazetteer: its GeoNames id, name (as GeoNames spells it) and ASCII
    name, ISO 3166 country code, first-level division code (GeoNames' admin1 code), latitude
    and longitude (degrees north and east, WGS 84), IANA time zone and population."""

    id: int
    name: str
    ascii_name: str
    country: str
    admin1: str
    lat: float
    lon: float
    tz: str
    population: int

    def as_dict(self) -> dict:
        """Return the town as the API shows it."""
        return {
            "name": self.name,
            "ascii_name": self.ascii_name,
            "country": self.country,
            "admin1": self.admin1,
            "lat": self.lat,
            "lon": self.lon,
            "tz": self.tz,
            "population": self.population,
            "id": str(self.id),
        }


_COLUMNS = "places.id, name, ascii_name, country, admin1, lat, lon, tz, population"
_path: str | None = None
_local = threading.local()


def use_gazetteer(path: str | PurePath) -> None:
    """Read the towns from the database at ``path`` (built by deploy/build_gazetteer.py)."""
    global _path
    _path = str(path)
    _local.__dict__.clear()


def _database() -> sqlite3.Connection:
    # One read-only connection per thread: sqlite3 connections are not shared across threads,
    # and `immutable` lets SQLite skip locking a file nothing writes.
    connection = getattr(_local, "connection", None)
    if connection is None or getattr(_local, "path", None) != _path:
        if _path is None:
            raise RuntimeError("No gazetteer: call places.use_gazetteer(path) first (make setup builds it).")
        connection = sqlite3.connect(f"file:{_path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        _local.connection, _local.path = connection, _path
    return connection


def town(place_id: int) -> Town | None:
    """Return the town with GeoNames id ``place_id``, or None."""
    row = _database().execute(f"SELECT {_COLUMNS} FROM places WHERE id = ?", (place_id,)).fetchone()
    return Town(*row) if row else None


def countries() -> frozenset[str]:
    """Return the ISO 3166-1 alpha-2 codes of the countries that have towns in the gazetteer."""
    return _countries(_path)


@cache
def _countries(path: str | None) -> frozenset[str]:
    return frozenset(row[0] for row in _database().execute("SELECT DISTINCT country FROM places"))


def find_towns(query: str, *, country: str | None = None, limit: int = 5) -> list[Town]:
    """Return up to ``limit`` towns named ``query``: the towns one of whose spellings is the
    whole folded query, by population (largest first), then those whose own name begins with
    it (for a query of SHORTEST_PREFIX letters or more), by population. With ``country`` (ISO
    3166 alpha-2, any case), only that country's towns.

    Only a town's own name is matched by its beginning: an alternate name is often a longer
    description ("Ville de Paris", "New Delhi" for Delhi) whose first word would rank its town
    above the towns a user is typing."""
    key = fold_name(query)
    if not key:
        return []
    where_country = " AND places.country = ?" if country else ""
    extra = (country.upper(),) if country else ()
    found: list[Town] = []
    seen: set[int] = set()
    searches = [("names.key = ?", (key,))]
    if len(key) >= SHORTEST_PREFIX:
        searches.append(("names.key > ? AND names.key < ? AND names.own = 1", (key, key + "\U0010ffff")))
    for condition, values in searches:
        rows = _database().execute(
            f"SELECT DISTINCT {_COLUMNS} FROM names JOIN places ON places.id = names.place_id "
            f"WHERE {condition}{where_country} ORDER BY population DESC, places.id LIMIT ?",
            (*values, *extra, limit + len(found)),
        )
        for row in rows:
            if row[0] not in seen and len(found) < limit:
                seen.add(row[0])
                found.append(Town(*row))
    return found


def town_from_parameter(text: str) -> Town:
    """Return the town a ``place`` parameter names by its id (from /v1/places). Raises
    UnreadableValue (worded with the parameter's name) for anything else, suggesting the ids of the towns a
    name given instead would find (never a silent guess)."""
    if text.strip().isdigit():
        found = town(int(text))
        if found is not None:
            return found
        raise UnreadableValue(
            wording=lambda param: f"{param}={text!r} is no place id of the gazetteer.",
            suggestion="Find the town's id with GET /v1/places?q=<its name>.",
        )
    candidates = find_towns(text, limit=3)

    def hint(param: str) -> str:
        if candidates:
            choices = "; ".join(
                f"{param}={t.id} ({t.name}, {t.admin1 + ', ' if t.admin1 else ''}{t.country})" for t in candidates
            )
            return f"{param} takes an id from /v1/places. Did you mean {choices}?"
        return f"{param} takes an id from /v1/places: GET /v1/places?q=<the town's name>."

    raise UnreadableValue(wording=lambda param: f"{param}={text!r} is not a place id.", suggesting=hint)
