"""Civil time (shared/kernel/civil_time.py) against published zone changes, each with its source,
and against the standard library's zoneinfo over the tzdata package for thousands of random
(zone, local time) pairs, gaps and folds included."""

from __future__ import annotations

import random
import zoneinfo
from datetime import datetime, timedelta, timezone

import pytest

from shared.errors import InvalidParameter
from shared.kernel.civil_time import read_local, zone_named, zone_names
from shared.kernel.errors import AmbiguousLocalTime, NonexistentLocalTime

# Published changes: (zone, local time, abbreviation, UTC offset in seconds, source).
PUBLISHED = [
    # tz database, europe: "Zone Europe/Paris 0:09:21 - LMT 1891 Mar 16 / 0:09:21 - PMT 1911 Mar 11"
    ("Europe/Paris", datetime(1880, 1, 1, 12), "LMT", 561, "Paris local mean time before 1891"),
    ("Europe/Paris", datetime(1911, 3, 10, 12), "PMT", 561, "Paris Mean Time until 1911-03-11"),
    ("Europe/Paris", datetime(1911, 3, 12, 12), "WET", 0, "Western European Time from 1911-03-11"),
    # tz database, northamerica: "Rule US 1942 only Feb 9 2:00 1:00 W # War" and
    # "Rule US 1945 only Aug 14 23:00u 1:00 P # Peace", "Rule US 1945 only Sep 30 2:00 0 S".
    ("America/New_York", datetime(1943, 1, 15, 12), "EWT", -4 * 3600, "New York war time, winter 1943"),
    ("America/New_York", datetime(1945, 9, 1, 12), "EPT", -4 * 3600, "New York peace time, September 1945"),
    ("America/New_York", datetime(1946, 1, 15, 12), "EST", -5 * 3600, "New York standard time again"),
    # tz database, asia: "Zone Asia/Kolkata ... 5:30 - IST" since 1945 Oct 15 (one zone for India).
    ("Asia/Kolkata", datetime(1960, 6, 1, 12), "IST", 19800, "India Standard Time, one zone"),
    ("Asia/Kolkata", datetime(2024, 6, 1, 12), "IST", 19800, "India Standard Time, one zone"),
    # tz database, australasia: Lord Howe keeps +10:30 and moves half an hour in summer.
    ("Australia/Lord_Howe", datetime(2024, 7, 15, 12), "+1030", 37800, "Lord Howe standard time"),
    ("Australia/Lord_Howe", datetime(2024, 1, 15, 12), "+11", 39600, "Lord Howe half-hour daylight time"),
]


@pytest.mark.parametrize("zone, local, abbreviation, offset_s, what", PUBLISHED, ids=[row[4] for row in PUBLISHED])
def test_published_zone_changes(zone, local, abbreviation, offset_s, what):
    reading = read_local(local, zone_named(zone))
    assert (reading.abbreviation, reading.utc_offset_s) == (abbreviation, offset_s), what
    assert reading.utc == (local - timedelta(seconds=offset_s)).replace(tzinfo=timezone.utc)


def test_lord_howes_half_hour_gap_is_nonexistent():
    # Daylight time begins 2024-10-06 at 02:00 local, which becomes 02:30.
    with pytest.raises(NonexistentLocalTime) as caught:
        read_local(datetime(2024, 10, 6, 2, 15), zone_named("Australia/Lord_Howe"))
    assert "02:00:00 straight to 02:30:00" in caught.value.message


def test_a_doubled_time_needs_fold_and_names_both_instants():
    zone = zone_named("America/New_York")
    with pytest.raises(AmbiguousLocalTime) as caught:
        read_local(datetime(2024, 11, 3, 1, 30), zone)
    assert "2024-11-03T05:30:00Z" in caught.value.message and "2024-11-03T06:30:00Z" in caught.value.message
    assert read_local(datetime(2024, 11, 3, 1, 30), zone, fold=0).abbreviation == "EDT"
    assert read_local(datetime(2024, 11, 3, 1, 30), zone, fold=1).abbreviation == "EST"


def test_an_unknown_zone_suggests_the_closest_names():
    with pytest.raises(InvalidParameter) as caught:
        zone_named("America/NewYork", param="tz_a")
    assert caught.value.param == "tz_a" and "America/New_York" in caught.value.suggestion


def test_the_zones_come_from_the_tzdata_package():
    assert "Europe/Paris" in zone_names() and len(zone_names()) > 400
    assert zone_named("Europe/Paris").key == "Europe/Paris"


def test_thousands_of_random_local_times_read_as_zoneinfo_reads_them():
    """The reference: zoneinfo over the tzdata package alone (no system zone files). A local
    time is a gap when neither fold round-trips, a fold when the two folds differ in UTC."""
    zoneinfo.reset_tzpath(to=[])  # only the tzdata package, as civil_time reads it
    try:
        chance = random.Random(27)
        names = zone_names()
        seen = {"plain": 0, "gap": 0, "fold": 0}
        for _ in range(4000):
            name = chance.choice(names)
            reference = zoneinfo.ZoneInfo(name)
            local = datetime(1850, 1, 1) + timedelta(seconds=chance.randrange(0, 200 * 365 * 86400, 900))
            if chance.random() < 0.6:  # aim at a change of this zone, where gaps and folds are
                local = _near_a_change(reference, local, chance) or local
            first = local.replace(tzinfo=reference, fold=0).astimezone(timezone.utc)
            second = local.replace(tzinfo=reference, fold=1).astimezone(timezone.utc)
            round_trips = [utc.astimezone(reference).replace(tzinfo=None) == local for utc in (first, second)]
            if not any(round_trips):
                seen["gap"] += 1
                with pytest.raises(NonexistentLocalTime):
                    read_local(local, zone_named(name))
            elif first != second:
                seen["fold"] += 1
                with pytest.raises(AmbiguousLocalTime):
                    read_local(local, zone_named(name))
                assert read_local(local, zone_named(name), fold=0).utc == first
                assert read_local(local, zone_named(name), fold=1).utc == second
            else:
                seen["plain"] += 1
                reading = read_local(local, zone_named(name))
                assert reading.utc == first and reading.utc_offset_s == int(local.replace(tzinfo=reference).utcoffset().total_seconds())
        assert seen["gap"] >= 20 and seen["fold"] >= 20, seen  # the sample reaches both
    finally:
        zoneinfo.reset_tzpath()


def _near_a_change(zone: zoneinfo.ZoneInfo, local: datetime, chance: random.Random) -> datetime | None:
    """Return a local time within an hour of one of ``zone``'s offset changes in the year of
    ``local``, or None when it has none that year."""
    start = datetime(local.year, 1, 1, tzinfo=timezone.utc)
    previous = start.astimezone(zone).utcoffset()
    for day in range(1, 366):
        instant = start + timedelta(days=day)
        offset = instant.astimezone(zone).utcoffset()
        if offset != previous:
            # The change lies within that day: find its hour, then land near it in local time.
            for hour in range(24):
                moment = instant - timedelta(days=1) + timedelta(hours=hour)
                if moment.astimezone(zone).utcoffset() != previous:
                    near = moment.astimezone(zone).replace(tzinfo=None)
                    return near + timedelta(minutes=chance.randrange(-90, 90, 15))
        previous = offset
    return None
