"""Civil time (kernel/civil_time.py) against published zone changes, each with its source,
and against the standard library's zoneinfo over the tz database built with backzone, for every
zone of zone.tab on a grid of dates since 1850 and for thousands of random (zone, local time)
pairs, gaps and folds included.

The reference build is made here, apart from the one the product reads: the tz database's own
compiler (zic) over the shipped zic source, into a folder of this test session, read by the
standard library alone (no code of ours between the zone file and the offset)."""

from __future__ import annotations

import random
import shutil
import subprocess
import zoneinfo
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kernel.civil_time import history_note, read_local, tz_version, zone_named, zone_names, zone_state
from kernel.errors import AmbiguousLocalTime, NonexistentLocalTime, OutOfRange, UnreadableValue
from shared.runtime.config import load_settings

TZ = load_settings().tz_path


@pytest.fixture(scope="module")
def backzone_build(processes, tmp_path_factory) -> Path:
    """Return a folder of zone files compiled by zic from the shipped source (the backzone build)."""
    folder = tmp_path_factory.mktemp("backzone-build")
    zic = shutil.which("zic") or shutil.which("zic", path="/usr/sbin:/sbin")
    assert zic, "zic (Debian's libc-bin) compiles the reference build"
    subprocess.run([zic, "-d", str(folder), str(TZ / "tzdata.zi")], check=True)
    return folder


def _reference_zone(build: Path, name: str) -> zoneinfo.ZoneInfo:
    with open(build / name, "rb") as data:
        return zoneinfo.ZoneInfo.from_file(data, key=name)


def _zone_tab() -> list[str]:
    lines = (TZ / "zone.tab").read_text(encoding="utf-8").splitlines()
    return [line.split("\t")[2] for line in lines if line and not line.startswith("#")]


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
    assert reading.utc == (local - timedelta(seconds=offset_s)).replace(tzinfo=UTC)


def test_lord_howes_half_hour_gap_is_nonexistent():
    # Daylight time begins 2024-10-06 at 02:00 local, which becomes 02:30.
    with pytest.raises(NonexistentLocalTime) as caught:
        read_local(datetime(2024, 10, 6, 2, 15), zone_named("Australia/Lord_Howe"))
    assert "2024-10-06 02:00:00 (UTC+10:30) straight to 2024-10-06 02:30:00 (UTC+11:00)" in caught.value.message
    assert "skipped 30 minutes" in caught.value.suggestion and "an hour" not in caught.value.suggestion


@pytest.mark.parametrize(
    ("zone", "local", "change", "before", "after", "day", "with_offset"),
    [
        (
            "Pacific/Kiritimati",
            datetime(1994, 12, 31, 12),
            "1994-12-31T10:00:00Z",
            "1994-12-31 00:00:00 (UTC-10:00)",
            "1995-01-01 00:00:00 (UTC+14:00)",
            "1994-12-31",
            "datetime=1994-12-31T12:00:00-10:00",
        ),
        (
            "Pacific/Apia",
            datetime(2011, 12, 30, 9),
            "2011-12-30T10:00:00Z",
            "2011-12-30 00:00:00 (UTC-10:00)",
            "2011-12-31 00:00:00 (UTC+14:00)",
            "2011-12-30",
            "datetime=2011-12-30T09:00:00-10:00",
        ),
        (
            "Pacific/Kwajalein",
            datetime(1993, 8, 21, 12),
            "1993-08-21T12:00:00Z",
            "1993-08-21 00:00:00 (UTC-12:00)",
            "1993-08-22 00:00:00 (UTC+12:00)",
            "1993-08-21",
            "datetime=1993-08-21T12:00:00-12:00",
        ),
        (
            "Asia/Manila",
            datetime(1844, 12, 31, 10),
            "1844-12-31T15:56:08Z",
            "1844-12-31 00:00:00 (UTC-15:56:08)",
            "1845-01-01 00:00:00 (UTC+08:03:52)",
            "1844-12-31",
            "datetime=1845-01-01T01:56:08Z",
        ),
    ],
    ids=["kiritimati-1994", "samoa-2011", "kwajalein-1993", "manila-1844"],
)
def test_a_day_skipped_by_a_date_line_move_names_both_dates_and_offsets(
    zone, local, change, before, after, day, with_offset
):
    # Issue 36: Kiritimati's skipped day read "from 00:00:00 straight to 00:00:00", "an hour later or earlier".
    with pytest.raises(NonexistentLocalTime) as caught:
        read_local(local, zone_named(zone))
    error = caught.value
    message, suggestion = error.worded("datetime"), error.suggested("datetime")
    assert f"at {change} the zone moved across the date line" in message
    assert f"from {before} straight to {after}" in message and f"the day {day} never happened" in message
    assert with_offset in suggestion and "hour" not in suggestion
    # The suggested reading is the skipped clock time on the calendar of before the move: a
    # day later on the calendar after it (each of these moves jumped 24 hours).
    sent = datetime.fromisoformat(with_offset.split("=", 1)[1].replace("Z", "+00:00"))
    assert sent.astimezone(zone_named(zone)).replace(tzinfo=None) == local + timedelta(days=1)


def test_a_day_lived_twice_by_a_date_line_move_names_both_offsets():
    # Alaska, 1867: the clocks went from UTC+14:58:47 back to UTC-09:01:13, a day lived twice.
    with pytest.raises(AmbiguousLocalTime) as caught:
        read_local(datetime(1867, 10, 19, 10), zone_named("America/Sitka"))
    error = caught.value
    assert (
        "1867-10-18T19:01:13Z (LMT, UTC+14:58:47, fold=0)" in error.message
        and "1867-10-19T19:01:13Z (LMT, UTC-09:01:13, fold=1)" in error.message
    )
    assert "date line" in error.suggestion and "summer time" not in error.suggestion


def test_a_summer_time_fold_suggestion_says_summer_time_and_its_length():
    with pytest.raises(AmbiguousLocalTime) as caught:
        read_local(datetime(2024, 11, 3, 1, 30), zone_named("America/New_York"))
    assert (
        "a change back from summer time, 1 hour back" in caught.value.suggestion
        and "(EDT, UTC-04:00, fold=0)" in caught.value.message
    )


def test_a_doubled_time_needs_fold_and_names_both_instants():
    zone = zone_named("America/New_York")
    with pytest.raises(AmbiguousLocalTime) as caught:
        read_local(datetime(2024, 11, 3, 1, 30), zone)
    assert "2024-11-03T05:30:00Z" in caught.value.message and "2024-11-03T06:30:00Z" in caught.value.message
    assert read_local(datetime(2024, 11, 3, 1, 30), zone, fold=0).abbreviation == "EDT"
    assert read_local(datetime(2024, 11, 3, 1, 30), zone, fold=1).abbreviation == "EST"


def test_an_unknown_zone_suggests_the_closest_names():
    with pytest.raises(UnreadableValue) as caught:
        zone_named("America/NewYork")
    assert "America/New_York" in caught.value.suggestion


def test_the_zones_come_from_the_shipped_tz_database_built_with_backzone():
    assert "Europe/Paris" in zone_names() and len(zone_names()) > 400
    assert zone_named("Europe/Paris").key == "Europe/Paris"
    header = (TZ / "tzdata.zi").read_text(encoding="utf-8").splitlines()[:3]
    assert header[0] == f"# version {tz_version()}" and "# ddeps backzone zone.tab" in header


# Zones the tz database's default build merges into another before 1970, each with its own
# history in the backzone build: (zone, local time, UTC offset in seconds, the zic source line).
MERGED_BEFORE_1970 = [
    (
        "Europe/Amsterdam",
        datetime(1900, 1, 1, 12),
        1172,
        "Z Europe/Amsterdam 0:19:32 - LMT 1835 / 0:19:32 N %s 1937 Jul",
    ),
    ("Africa/Kampala", datetime(1920, 6, 1, 12), 7780, "Z Africa/Kampala 2:9:40 - LMT 1928 Jul"),
    ("Europe/Oslo", datetime(1890, 6, 1, 12), 2580, "Z Europe/Oslo 0:43 - LMT 1895"),
    ("Asia/Kuala_Lumpur", datetime(1903, 6, 1, 12), 24925, "0:55:25 - SMT 1905 Jun, after LMT 1901"),
    ("Africa/Accra", datetime(1943, 6, 1, 12), 1800, "0:30 - +0030 1946 Ja 6"),
    ("Europe/Stockholm", datetime(1890, 6, 1, 12), 3614, "1:0:14 - SET 1900"),
    ("America/Curacao", datetime(1950, 6, 1, 12), -16200, "-4:30 - -0430 1965"),
]


@pytest.mark.parametrize(
    "zone, local, offset_s, source", MERGED_BEFORE_1970, ids=[row[0] for row in MERGED_BEFORE_1970]
)
def test_a_zone_keeps_its_own_history_before_1970(zone, local, offset_s, source):
    reading = read_local(local, zone_named(zone))
    assert reading.utc_offset_s == offset_s, source
    assert reading.utc == (local - timedelta(seconds=offset_s)).replace(tzinfo=UTC)


def test_amsterdam_at_noon_on_new_years_day_1900_was_11_40_28_utc():
    # Amsterdam kept its own mean time (UTC+0:19:32) until 1937; the default build reads WET.
    assert read_local(datetime(1900, 1, 1, 12), zone_named("Europe/Amsterdam")).utc == datetime(
        1900, 1, 1, 11, 40, 28, tzinfo=UTC
    )


def test_every_zone_of_zone_tab_reads_as_the_backzone_build_since_1850(backzone_build):
    """Every zone of zone.tab, at noon on the 1st and the 15th of every second month from 1850
    to 2040: the same UTC instant, or, where the clocks skipped noon (Khartoum on 2000-01-15),
    the same refusal."""
    names = _zone_tab()
    assert len(names) > 400
    checked = skipped = 0
    for name in names:
        reference, ours = _reference_zone(backzone_build, name), zone_named(name)
        for year in range(1850, 2041):
            for month in range(1, 13, 2):
                for day in (1, 15):
                    local = datetime(year, month, day, 12)
                    expected = local.replace(tzinfo=reference).astimezone(UTC)
                    checked += 1
                    if expected.astimezone(reference).replace(tzinfo=None) != local:
                        skipped += 1
                        with pytest.raises(NonexistentLocalTime):
                            read_local(local, ours, fold=0)
                    else:
                        assert read_local(local, ours, fold=0).utc == expected, (name, local)
    assert checked == len(names) * 191 * 12 and skipped < 10


def test_the_tz_database_s_own_doubt_about_a_merged_zone_is_a_note_before_1970():
    note = read_local(datetime(1900, 1, 1, 12), zone_named("Europe/Amsterdam")).note
    assert note and "backzone" in note and "Europe/Amsterdam" in note
    assert read_local(datetime(1975, 1, 1, 12), zone_named("Europe/Amsterdam")).note is None
    assert read_local(datetime(1900, 1, 1, 12), zone_named("Europe/Brussels")).note is None  # main data
    assert history_note("Europe/Paris", datetime(1900, 1, 1)) is None


def test_thousands_of_random_local_times_read_as_zoneinfo_reads_them(backzone_build):
    """The reference: zoneinfo over the backzone build alone (no system zone files). A local
    time is a gap when neither fold round-trips, a fold when the two folds differ in UTC."""
    zoneinfo.reset_tzpath(to=[str(backzone_build)])
    try:
        chance = random.Random(27)
        names = zone_names()
        seen = {"plain": 0, "gap": 0, "fold": 0}
        for _ in range(4000):
            name = chance.choice(names)
            reference = _reference_zone(backzone_build, name)
            local = datetime(1850, 1, 1) + timedelta(seconds=chance.randrange(0, 200 * 365 * 86400, 900))
            if chance.random() < 0.6:  # aim at a change of this zone, where gaps and folds are
                local = _near_a_change(reference, local, chance) or local
            first = local.replace(tzinfo=reference, fold=0).astimezone(UTC)
            second = local.replace(tzinfo=reference, fold=1).astimezone(UTC)
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
                assert reading.utc == first and reading.utc_offset_s == int(
                    local.replace(tzinfo=reference).utcoffset().total_seconds()
                )
        assert seen["gap"] >= 20 and seen["fold"] >= 20, seen  # the sample reaches both
    finally:
        zoneinfo.reset_tzpath()


def _near_a_change(zone: zoneinfo.ZoneInfo, local: datetime, chance: random.Random) -> datetime | None:
    """Return a local time within an hour of one of ``zone``'s offset changes in the year of
    ``local``, or None when it has none that year."""
    start = datetime(local.year, 1, 1, tzinfo=UTC)
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


def test_a_wall_clock_time_whose_utc_instant_falls_before_the_year_1_is_out_of_range():
    with pytest.raises(OutOfRange) as raised:
        read_local(datetime(1, 1, 1), zoneinfo.ZoneInfo("Asia/Tokyo"))
    assert raised.value.about == "moment"


def test_an_instant_whose_wall_clock_falls_before_the_year_1_is_out_of_range():
    with pytest.raises(OutOfRange):
        zone_state(datetime(1, 1, 1, tzinfo=UTC), "America/New_York")


def test_the_daylight_saving_part_of_an_offset_is_its_hour_in_summer_and_none_in_winter():
    from kernel.civil_time import daylight_saving_s

    assert daylight_saving_s(datetime(1985, 7, 14, 13, 30, tzinfo=UTC), "Europe/Paris") == 3600
    assert daylight_saving_s(datetime(1985, 1, 14, 13, 30, tzinfo=UTC), "Europe/Paris") == 0
    # Lord Howe Island keeps half an hour of summer time.
    assert daylight_saving_s(datetime(2020, 1, 14, 0, 0, tzinfo=UTC), "Australia/Lord_Howe") == 1800
