"""Civil time: a local clock time in an IANA time zone, read as the UTC instant it was.

The zones come from the tz database of the ``tzdata`` package (never the machine's own files,
so an answer does not depend on where it runs), read through the standard library's
``zoneinfo``: local mean time before a zone's standard time, wartime, every rule of daylight
saving time, with second-resolution offsets. A local time the clocks skipped (a gap) or showed
twice (a fold) is never guessed: the first is refused, the second needs ``fold`` to choose.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import cache
from importlib import resources
from zoneinfo import ZoneInfo

from shared.errors import InvalidParameter
from shared.kernel.errors import AmbiguousLocalTime, NonexistentLocalTime

#: How many of the closest zone names an unknown name's suggestion lists.
SUGGESTED_ZONES = 3


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

    def as_dict(self) -> dict:
        """Return the reading as the API shows it (``meta.moment``)."""
        return {
            "local": self.local.isoformat(),
            "tz": self.zone,
            "abbreviation": self.abbreviation,
            "utc_offset_seconds": self.utc_offset_s,
            "utc": self.utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.utc.microsecond // 1000:03d}Z",
        }


@cache
def zone_names() -> tuple[str, ...]:
    """Return every zone name of the tzdata package, sorted."""
    listing = resources.files("tzdata").joinpath("zones").read_text(encoding="ascii")
    return tuple(sorted(line.strip() for line in listing.splitlines() if line.strip()))


@cache
def _zone(name: str) -> ZoneInfo:
    with resources.files("tzdata.zoneinfo").joinpath(*name.split("/")).open("rb") as data:
        return ZoneInfo.from_file(data, key=name)


def zone_named(name: str, *, param: str = "tz") -> ZoneInfo:
    """Return the zone ``name`` names (exactly as the tz database spells it). Raises
    InvalidParameter naming ``param``, with the closest names as suggestion, for any other."""
    if name not in _zone_set():
        closest = difflib.get_close_matches(name, zone_names(), n=SUGGESTED_ZONES, cutoff=0.5)
        if not closest:
            folded = name.casefold()
            closest = [zone for zone in zone_names() if folded in zone.casefold()][:SUGGESTED_ZONES]
        hint = f"Did you mean {', '.join(closest)}?" if closest else "Use an IANA zone name such as Europe/Paris or America/New_York."
        raise InvalidParameter(f"{param}={name!r} is not a time zone of the tz database.", suggestion=hint, param=param)
    return _zone(name)


@cache
def _zone_set() -> frozenset[str]:
    return frozenset(zone_names())


def read_local(local: datetime, zone: ZoneInfo, *, fold: int | None = None, param: str = "datetime") -> LocalReading:
    """Return what the naive wall-clock time ``local`` in ``zone`` was.

    Raises NonexistentLocalTime when the clocks skipped it, and AmbiguousLocalTime, naming both
    UTC instants, when they showed it twice and ``fold`` (0 the first, 1 the second) is None.
    Errors name ``param``.
    """
    first = local.replace(tzinfo=zone, fold=0)
    second = local.replace(tzinfo=zone, fold=1)
    first_utc, second_utc = first.astimezone(timezone.utc), second.astimezone(timezone.utc)
    if first_utc.astimezone(zone).replace(tzinfo=None) != local and second_utc.astimezone(zone).replace(tzinfo=None) != local:
        change = _change_between(min(first_utc, second_utc), max(first_utc, second_utc), zone)
        before = change.astimezone(timezone((change - timedelta(seconds=1)).astimezone(zone).utcoffset() or timedelta()))
        raise NonexistentLocalTime(
            f"{param}={local.isoformat()} did not happen in {zone.key}: at {_utc_text(change)} the clocks went "
            f"from {before.strftime('%H:%M:%S')} straight to {change.astimezone(zone).strftime('%H:%M:%S')}.",
            param=param,
        )
    if first_utc != second_utc and fold is None:
        raise AmbiguousLocalTime(
            f"{param}={local.isoformat()} happened twice in {zone.key}: at {_utc_text(first_utc)} "
            f"({first.tzname()}, fold=0) and at {_utc_text(second_utc)} ({second.tzname()}, fold=1).",
            param=param,
        )
    chosen = second if fold == 1 else first
    offset = chosen.utcoffset()
    assert offset is not None
    return LocalReading(local, zone.key, chosen.tzname() or "", int(offset.total_seconds()), chosen.astimezone(timezone.utc))


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
    return datetime.fromtimestamp(high, timezone.utc)


def _utc_text(instant: datetime) -> str:
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")
