"""Civil time: a local clock time in an IANA time zone, read as the UTC instant it was.

The zones come from the tz database built with its ``backzone`` file (each zone keeps its own
history before 1970, where the default build merges zones that agree since then: Amsterdam's
mean time until 1937, not Brussels'), shipped with the project in ``data/tz`` and compiled by
``zic`` at set-up (:func:`use_zone_files`), never the machine's own files, so an answer does
not depend on where it runs. They are read through the standard library's ``zoneinfo``: local
mean time before a zone's standard time, wartime, every rule of daylight saving time, with
second-resolution offsets. A local time the clocks skipped (a gap) or showed twice (a fold) is
never guessed: the first is refused, the second needs ``fold`` to choose.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from functools import cache
from pathlib import PurePath
from zoneinfo import ZoneInfo

from kernel.errors import AmbiguousLocalTime, NonexistentLocalTime, OutOfRange, UnreadableValue

#: How many of the closest zone names an unknown name's suggestion lists.
SUGGESTED_ZONES = 3
#: The `tz` that asks for the zone of the request's own coordinates.
AUTO_ZONE = "auto"
#: Within this latitude of a pole (degrees), longitude no longer places a point in a zone.
POLE_LATITUDE = 89.99
#: The zic source of the shipped tz database, beside the compiled zones (deploy/build_zoneinfo.py).
ZONE_SOURCE = "tzdata.zi"
#: The zones whose history before 1970 the build takes from the tz database's backzone file.
BACKZONE_LIST = "backzone.txt"
#: Before this year the history of a zone of BACKZONE_LIST is backzone's, not the main data's.
BACKZONE_UNTIL_YEAR = 1970

_zone_files: PurePath | None = None


def use_zone_files(path: str | PurePath) -> None:
    """Read every zone from the tz database in the folder ``path`` (data/tz): its zic source
    (ZONE_SOURCE), its backzone list and the zones compiled from it into ``zoneinfo/`` by
    deploy/build_zoneinfo.py. Call it once at start-up, before the first reading."""
    global _zone_files
    _zone_files = PurePath(path)
    for cached in (zone_names, _zone_set, _zone, tz_version, _backzone_zones):
        cached.cache_clear()


def _zone_folder() -> PurePath:
    if _zone_files is None:
        raise RuntimeError("No time zones: call civil_time.use_zone_files(path) first (make setup builds them).")
    return _zone_files


@dataclass(frozen=True)
class LocalReading:
    """What a local time in a zone was understood as: the local wall-clock time (naive), the
    zone's name, its abbreviation and UTC offset then (seconds east of Greenwich), and the UTC
    instant (aware)."""

    local: datetime
    zone: str
    abbreviation: str
    utc_offset_s: int
    utc: datetime
    #: How the zone was chosen, when not named (tz=auto, a place): ZoneFound.as_dict().
    found: dict | None = None
    #: What to check about the reading (local_mean_time_note), or None.
    note: str | None = None

    def as_dict(self) -> dict:
        """Return the reading as the API shows it (``meta.moment``)."""
        shown = {
            "local": self.local.isoformat(),
            "tz": self.zone,
            "abbreviation": self.abbreviation,
            "utc_offset_seconds": self.utc_offset_s,
            "utc": iso_milliseconds(self.utc),
        }
        if self.found is not None:
            shown["tz_found"] = self.found
        if self.note is not None:
            shown["note"] = self.note
        return shown


def iso_milliseconds(clock: datetime) -> str:
    """Return a date and time as ISO 8601 rounded to the nearest millisecond, half up (as
    :func:`kernel.timescale.iso_utc` rounds a Julian Day): an aware UTC one with ``Z``
    (``2020-01-15T01:00:00.000Z``), a naive wall-clock one without (``2020-01-15T12:00:00.000``)."""
    rounded = clock.replace(microsecond=0) + timedelta(milliseconds=(clock.microsecond + 500) // 1000)
    text = rounded.isoformat(timespec="milliseconds")
    return text.replace("+00:00", "Z") if clock.tzinfo is not None else text


@dataclass(frozen=True)
class ZoneFound:
    """A zone chosen for a place rather than named: by ``source`` (``auto``, the zone the
    time-zone map gives the coordinates; ``place``, the zone the gazetteer gives a town), for
    the latitude and longitude (degrees), with ``note`` saying what to check when the map's
    answer is a convention rather than a town's clocks (at sea, at a pole), else None."""

    zone: str
    source: str
    lat: float
    lon: float
    note: str | None = None

    def as_dict(self) -> dict:
        """Return the choice as ``meta.moment`` shows it."""
        shown = {"source": self.source, "lat": self.lat, "lon": self.lon}
        if self.note:
            shown["note"] = self.note
        return shown


@cache
def _zone_map():
    from timezonefinder import TimezoneFinder

    return TimezoneFinder()


def open_zone_map() -> None:
    """Open the time-zone map's polygons (timezonefinder-data) now, so that the first tz=auto
    a process reads does not pay for it (0.1-0.4 s)."""
    _zone_map().timezone_at(lat=0.0, lng=0.0)


def zone_at(lat: float, lon: float) -> ZoneFound:
    """Return the zone of the point at ``lat``, ``lon`` (degrees north, east) from the
    time-zone map shipped in timezonefinder-data (the timezone-boundary-builder polygons of
    OpenStreetMap, territorial waters included). At sea it is the nautical zone of the
    longitude (Etc/GMT+N); at a pole, where every meridian meets, whatever zone the map draws
    there; both say so in ``note``."""
    finder = _zone_map()
    zone = finder.timezone_at(lat=lat, lng=lon) or "Etc/UTC"
    note = None
    if abs(lat) >= POLE_LATITUDE:
        note = (
            f"At a pole every meridian meets: {zone} is the zone the time-zone map draws there, not a town's clocks. "
            "Send tz to choose another."
        )
    elif finder.timezone_at_land(lat=lat, lng=lon) is None:
        note = f"At sea: {zone} is the nautical zone of the longitude, not a town's clocks. Send tz to choose another."
    return ZoneFound(zone, AUTO_ZONE, lat, lon, note)


@cache
def zone_names() -> tuple[str, ...]:
    """Return every zone name of the shipped tz database (its zones and their links), sorted."""
    names = []
    with open(_zone_folder() / ZONE_SOURCE, encoding="utf-8") as source:
        for line in source:
            fields = line.split()
            if fields[:1] == ["Z"]:
                names.append(fields[1])
            elif fields[:1] == ["L"]:
                names.append(fields[2])
    return tuple(sorted(names))


@cache
def tz_version() -> str:
    """Return the release of the shipped tz database (``2026f``), from its zic source's header."""
    with open(_zone_folder() / ZONE_SOURCE, encoding="utf-8") as source:
        header = source.readline().split()
    if header[:2] != ["#", "version"]:
        raise RuntimeError(f"{_zone_folder() / ZONE_SOURCE} does not begin with its version.")
    return header[2]


@cache
def _backzone_zones() -> frozenset[str]:
    with open(_zone_folder() / BACKZONE_LIST, encoding="ascii") as listing:
        return frozenset(line.strip() for line in listing if line.strip() and not line.startswith("#"))


@cache
def _zone(name: str) -> ZoneInfo:
    with open(_zone_folder() / "zoneinfo" / name, "rb") as data:
        return ZoneInfo.from_file(data, key=name)


def history_note(zone_name: str, local: datetime) -> str | None:
    """Return a note when the tz database itself calls the zone's history at the local time
    ``local`` uncertain: before 1970, a zone whose history the default build merges into
    another's and the backzone build keeps apart (Europe/Amsterdam). None otherwise."""
    if local.year >= BACKZONE_UNTIL_YEAR or zone_name not in _backzone_zones():
        return None
    return (
        f"The tz database keeps {zone_name}'s clocks before 1970 in its backzone file, which it marks as less reliable "
        "than its main data: if the time comes from a document, check the offset it was written in."
    )


def zone_named(name: str) -> ZoneInfo:
    """Return the zone ``name`` names (exactly as the tz database spells it). Raises
    UnreadableValue, with the closest names as suggestion, for any other."""
    if name not in _zone_set():
        closest = difflib.get_close_matches(name, zone_names(), n=SUGGESTED_ZONES, cutoff=0.5)
        if not closest:
            folded = name.casefold()
            closest = [zone for zone in zone_names() if folded in zone.casefold()][:SUGGESTED_ZONES]
        hint = (
            f"Did you mean {', '.join(closest)}?"
            if closest
            else "Use an IANA zone name such as Europe/Paris or America/New_York."
        )
        raise UnreadableValue(
            wording=lambda param: f"{param}={name!r} is not a time zone of the tz database.", suggestion=hint
        )
    return _zone(name)


def beyond_zone_history() -> OutOfRange:
    """Return the refusal of a moment whose UTC or wall-clock date falls outside the years 1
    to 9999, which no time zone's history (and no Python datetime) reaches; worded with the
    name of the moment's parameter, which the reader supplies."""
    return OutOfRange(
        wording=lambda param: f"{param}: a time zone is known for the years 1 to 9999 only.",
        suggestion="Send a moment between 0001-01-01 and 9999-12-31.",
        about="moment",
    )


@cache
def _zone_set() -> frozenset[str]:
    return frozenset(zone_names())


def read_local(local: datetime, zone: ZoneInfo, *, fold: int | None = None) -> LocalReading:
    """Return what the naive wall-clock time ``local`` in ``zone`` was.

    Raises NonexistentLocalTime when the clocks skipped it, and AmbiguousLocalTime, naming both
    UTC instants, when they showed it twice and ``fold`` (0 the first, 1 the second) is None;
    both are worded with the name of the parameter that carried ``local``, which the reader
    supplies (``shared/runtime/kernel_errors.py``).
    """
    first = local.replace(tzinfo=zone, fold=0)
    second = local.replace(tzinfo=zone, fold=1)
    try:
        first_utc, second_utc = first.astimezone(UTC), second.astimezone(UTC)
    except OverflowError:
        raise beyond_zone_history() from None
    if (
        first_utc.astimezone(zone).replace(tzinfo=None) != local
        and second_utc.astimezone(zone).replace(tzinfo=None) != local
    ):
        change = _change_between(min(first_utc, second_utc), max(first_utc, second_utc), zone)
        old = timezone((change - timedelta(seconds=1)).astimezone(zone).utcoffset() or timedelta())
        before, after = change.astimezone(old).replace(tzinfo=None), change.astimezone(zone)
        new = after.utcoffset() or timedelta()
        after = after.replace(tzinfo=None)
        if new - old.utcoffset(None) >= DATE_LINE_JUMP:
            days = _whole_days(before, after)
            if not days:
                skipped = f"the clock times from {_clock_text(before)} to {_clock_text(after)}"
            else:
                skipped = f"the day {days[0]}" if len(days) == 1 else f"the days {days[0]} to {days[-1]}"
            old_utc = local.replace(tzinfo=old).astimezone(UTC)
            with_offset = local.replace(tzinfo=old).isoformat()
            # The datetime grammar takes offsets of whole minutes; an older offset of local
            # mean time (UTC-15:56:08) is given as the UTC instant alone.
            old_reading = (
                f"{with_offset} (the same as {_utc_text(old_utc)})"
                if int(old.utcoffset(None).total_seconds()) % 60 == 0
                else _utc_text(old_utc)
            )
            raise NonexistentLocalTime(
                wording=lambda param: (
                    f"{param}={local.isoformat()} did not happen in {zone.key}: at {_utc_text(change)} the zone moved "
                    f"across the date line, its clocks going from {_clock_text(before)} "
                    f"({_offset_name(old.utcoffset(None))}) straight to {_clock_text(after)} ({_offset_name(new)}), "
                    f"so {skipped} never happened there."
                ),
                suggesting=lambda param: (
                    "Check the date. If the certificate kept the calendar of before the move, send the time with "
                    f"that offset: {param}={old_reading}, which is "
                    f"{old_utc.astimezone(zone).replace(tzinfo=None).isoformat()} on {zone.key}'s calendar after the "
                    "move."
                ),
            )
        jump = _duration_text(new - old.utcoffset(None))
        why = (
            "a change to summer time"
            if _dst(change, zone) > _dst(change - timedelta(seconds=1), zone)
            else "a change of the zone's UTC offset"
        )
        raise NonexistentLocalTime(
            wording=lambda param: (
                f"{param}={local.isoformat()} did not happen in {zone.key}: at {_utc_text(change)} the clocks went "
                f"from {_clock_text(before)} ({_offset_name(old.utcoffset(None))}) straight to {_clock_text(after)} "
                f"({_offset_name(new)})."
            ),
            suggestion=(
                f"The clocks skipped {jump} here ({why}); send the time of day the certificate meant, {jump} later or "
                "earlier, or a datetime with its UTC offset."
            ),
        )
    if first_utc != second_utc and fold is None:
        shown = abs(second_utc - first_utc)
        if shown >= DATE_LINE_JUMP:
            suggestion = (
                f"{zone.key} moved across the date line then and its clocks showed {_duration_text(shown)} twice; add "
                f"fold=0 for the first reading ({_offset_name(first.utcoffset())}, the calendar of before the move) "
                f"or fold=1 for the second ({_offset_name(second.utcoffset())})."
            )
        else:
            why = (
                "a change back from summer time"
                if (first.dst() or timedelta()) > (second.dst() or timedelta())
                else "a change of the zone's UTC offset"
            )
            suggestion = (
                f"The clocks showed this time twice here ({why}, {_duration_text(shown)} back); add fold=0 for the "
                "first or fold=1 for the second."
            )
        raise AmbiguousLocalTime(
            wording=lambda param: (
                f"{param}={local.isoformat()} happened twice in {zone.key}: at {_utc_text(first_utc)} "
                f"({first.tzname()}, {_offset_name(first.utcoffset())}, fold=0) and at {_utc_text(second_utc)} "
                f"({second.tzname()}, {_offset_name(second.utcoffset())}, fold=1)."
            ),
            suggestion=suggestion,
        )
    chosen = second if fold == 1 else first
    offset = chosen.utcoffset()
    assert offset is not None
    return LocalReading(
        local,
        zone.key,
        chosen.tzname() or "",
        int(offset.total_seconds()),
        chosen.astimezone(UTC),
        note=history_note(zone.key, local),
    )


#: A change of UTC offset at least this large is a move across the date line (a day skipped
#: or lived twice: Alaska 1867, Kwajalein 1993, Kiritimati 1994, Samoa 2011), not a change of
#: summer time or standard time, which move the clocks by at most a few hours.
DATE_LINE_JUMP = timedelta(hours=12)


def _dst(instant: datetime, zone: ZoneInfo) -> timedelta:
    """Return the daylight saving time ``zone`` kept at the aware ``instant``."""
    return instant.astimezone(zone).dst() or timedelta()


def _whole_days(start: datetime, end: datetime) -> list[str]:
    """Return the ISO dates of the whole calendar days between the naive ``start`` and ``end``
    (those from whose midnight to the next both lie in [start, end]); empty when none does."""
    day = start.date() if start.time() == datetime.min.time() else start.date() + timedelta(days=1)
    days = []
    while datetime.combine(day + timedelta(days=1), datetime.min.time()) <= end:
        days.append(day.isoformat())
        day += timedelta(days=1)
    return days


def _clock_text(local: datetime) -> str:
    """Return a naive wall-clock time as "YYYY-MM-DD HH:MM:SS"."""
    return local.replace(tzinfo=None).isoformat(sep=" ", timespec="seconds")


def _offset_name(offset: timedelta | None) -> str:
    """Return a UTC offset as "UTC+14:00" ("UTC+00:19:32" when it has seconds)."""
    seconds = int((offset or timedelta()).total_seconds())
    text = _offset_text(seconds)
    return text[:-3] if text.endswith(":00") else text


def _duration_text(span: timedelta) -> str:
    """Return a length of clock time in words: "1 hour", "30 minutes", "1 hour 20 minutes", "24 hours"."""
    seconds = int(abs(span.total_seconds()))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    parts = [
        f"{n} {unit}{'s' if n != 1 else ''}"
        for n, unit in ((hours, "hour"), (minutes, "minute"), (seconds, "second"))
        if n
    ]
    return " ".join(parts) or "0 seconds"


def _change_between(early: datetime, late: datetime, zone: ZoneInfo) -> datetime:
    """Return the UTC instant (whole seconds) at which ``zone``'s offset changes between
    ``early`` and ``late`` (it changes once in a gap)."""
    low, high = int(early.timestamp()), int(late.timestamp())
    offset_at_low = datetime.fromtimestamp(low, zone).utcoffset()
    while high - low > 1:
        middle = (low + high) // 2
        if datetime.fromtimestamp(middle, zone).utcoffset() == offset_at_low:
            low = middle
        else:
            high = middle
    return datetime.fromtimestamp(high, UTC)


def _utc_text(instant: datetime) -> str:
    # isoformat, not strftime: glibc's %Y does not pad years before 1000 to four digits.
    return instant.replace(tzinfo=None).isoformat(timespec="seconds") + "Z"


@dataclass(frozen=True)
class ZoneState:
    """A zone at an instant: its name, abbreviation, UTC offset (seconds east of Greenwich),
    whether daylight saving time was in force, and the instant's wall-clock time there (naive)."""

    zone: str
    abbreviation: str
    utc_offset_s: int
    dst: bool
    local: datetime


def zone_state(utc: datetime, zone_name: str) -> ZoneState:
    """Return the state of the zone ``zone_name`` (a tz database name) at the aware instant ``utc``.
    Raises OutOfRange when the wall-clock date there falls outside the years 1 to 9999."""
    try:
        local = utc.astimezone(_zone(zone_name))
    except OverflowError:
        raise beyond_zone_history() from None
    offset, dst = local.utcoffset(), local.dst()
    assert offset is not None
    return ZoneState(
        zone_name, local.tzname() or "", int(offset.total_seconds()), bool(dst), local.replace(tzinfo=None)
    )


def daylight_saving_s(utc: datetime, zone_name: str) -> int:
    """Return the daylight-saving part of the zone ``zone_name``'s UTC offset at the aware
    instant ``utc``, in seconds, as Python's zoneinfo reads the tz database (0 in standard time;
    3600 mostly, 1800 on Lord Howe Island)."""
    dst = utc.astimezone(_zone(zone_name)).dst()
    return int(dst.total_seconds()) if dst else 0


#: Seconds of local mean time per degree of east longitude (the Sun crosses 360° in 24 hours).
MEAN_TIME_S_PER_DEGREE = 240
#: A town closer than this (seconds of mean time, a quarter of a degree) to its zone's reference
#: city keeps the zone's local mean time without a note.
MEAN_TIME_TOLERANCE_S = 60


def local_mean_time_note(reading: LocalReading, lon: float) -> str | None:
    """Return a note when ``reading`` is in local mean time (LMT, before the zone kept a
    standard time) and the place at east longitude ``lon`` (degrees) kept another: the tz
    database's LMT is that of the zone's reference city (Paris for Europe/Paris, for every
    French town), so a certificate written in the town's own mean time means another instant,
    which the note gives. None otherwise."""
    if reading.abbreviation != "LMT":
        return None
    own_s = round(lon * MEAN_TIME_S_PER_DEGREE)
    if abs(own_s - reading.utc_offset_s) < MEAN_TIME_TOLERANCE_S:
        return None
    own_utc = reading.local - timedelta(seconds=own_s)
    return (
        f"{reading.zone} kept local mean time then; the tz database's is its reference city's "
        f"({_offset_text(reading.utc_offset_s)}), but at longitude {lon:g}° local mean time is {_offset_text(own_s)}. "
        "If the time was the town's own mean time, send "
        f"datetime={own_utc.replace(tzinfo=None).isoformat(timespec='seconds')}Z instead."
    )


def _offset_text(seconds: int) -> str:
    sign = "-" if seconds < 0 else "+"
    hours, rest = divmod(abs(seconds), 3600)
    return f"UTC{sign}{hours:02d}:{rest // 60:02d}:{rest % 60:02d}"
