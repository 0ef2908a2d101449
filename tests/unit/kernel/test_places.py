"""Places by name (kernel/places.py) and the zone of a point (civil_time.zone_at).

The reference coordinates are each town's centre as published on its Wikipedia page (the
infobox's coordinates, rounded to 0.01°), a source our gazetteer was not built from; within
0.1° because a town's centre is a choice (GeoNames' point, a city hall, a cathedral) that
differs between sources by a few kilometres, and 0.1° (11 km) still tells a town from the
next one. The zones are those the tz database assigns the country or region.
"""

from __future__ import annotations

import pytest

from kernel.civil_time import zone_at
from kernel.places import ascii_name, find_towns, fold_name, town

#: (spelling sent, country, Wikipedia's latitude and longitude, tz database zone)
LARGEST_TOWNS = [
    ("Paris", "FR", 48.86, 2.35, "Europe/Paris"),
    ("Berlin", "DE", 52.52, 13.40, "Europe/Berlin"),
    ("Koln", "DE", 50.94, 6.96, "Europe/Berlin"),
    ("Köln", "DE", 50.94, 6.96, "Europe/Berlin"),
    ("Tokyo", "JP", 35.69, 139.69, "Asia/Tokyo"),
    ("Sao Paulo", "BR", -23.55, -46.63, "America/Sao_Paulo"),
    ("São Paulo", "BR", -23.55, -46.63, "America/Sao_Paulo"),
    ("Mumbai", "IN", 19.08, 72.88, "Asia/Kolkata"),
    ("New York", "US", 40.71, -74.01, "America/New_York"),
    ("Madrid", "ES", 40.42, -3.70, "Europe/Madrid"),
    ("Warszawa", "PL", 52.23, 21.01, "Europe/Warsaw"),
    ("Zurich", "CH", 47.37, 8.54, "Europe/Zurich"),
    ("Zürich", "CH", 47.37, 8.54, "Europe/Zurich"),
    ("Ciudad de Mexico", "MX", 19.43, -99.13, "America/Mexico_City"),
    ("Istanbul", "TR", 41.01, 28.98, "Europe/Istanbul"),
    ("Praha", "CZ", 50.09, 14.42, "Europe/Prague"),
    ("Sydney", "AU", -33.87, 151.21, "Australia/Sydney"),
]


@pytest.mark.parametrize(
    "spelling, country, lat, lon, zone", LARGEST_TOWNS, ids=[f"{row[0]}-{row[1]}" for row in LARGEST_TOWNS]
)
def test_the_largest_towns_are_found_by_name_with_or_without_accents(spelling, country, lat, lon, zone):
    best = find_towns(spelling, country=country, limit=1)[0]
    assert abs(best.lat - lat) < 0.1 and abs(best.lon - lon) < 0.1, (best.name, best.lat, best.lon)
    assert best.tz == zone
    assert zone_at(best.lat, best.lon).zone == zone  # tz=auto at the town agrees with the gazetteer


def test_a_town_is_found_again_by_its_id():
    paris = find_towns("paris", country="FR", limit=1)[0]
    assert town(paris.id) == paris
    assert town(1) is None


def test_fold_name_ignores_case_accents_and_separators():
    assert fold_name("Saint-Étienne") == fold_name("SAINT ETIENNE") == "saint etienne"
    assert fold_name("Øster  Ålesund") == "oster alesund"
    assert fold_name("l'Aquila") == "l aquila"


def test_ascii_name_keeps_the_case():
    assert ascii_name("Zürich") == "Zurich"
    assert ascii_name("Łódź") == "Lodz"


def test_a_query_of_three_letters_or_more_also_matches_the_beginning_of_names():
    assert "Paris" in [t.name for t in find_towns("pari", country="FR")]
    assert "Paris" not in [t.name for t in find_towns("pa", country="FR", limit=20)]


@pytest.mark.parametrize(
    "lat, lon, zone, where",
    [
        (48.85, 2.35, "Europe/Paris", None),
        (-31.55, 159.08, "Australia/Lord_Howe", None),  # the half-hour DST island
        (28.61, 77.21, "Asia/Kolkata", None),
        (0.0, -140.0, "Etc/GMT+9", "At sea"),  # nautical zone: 15° per hour, sign inverted in Etc names
        (0.0, 100.0 - 7.4, "Etc/GMT-6", "At sea"),
        (90.0, 0.0, None, "pole"),
    ],
)
def test_zone_at_gives_the_maps_zone_and_says_when_it_is_a_convention(lat, lon, zone, where):
    found = zone_at(lat, lon)
    if zone is not None:
        assert found.zone == zone
    if where is None:
        assert found.note is None
    else:
        assert where in found.note
