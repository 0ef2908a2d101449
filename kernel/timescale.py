"""Moments in time: UTC text in, UT1 and TT Julian Days out, and the spec's Instant rendering."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cached_property
from zoneinfo import ZoneInfo

from kernel import engine
from kernel.civil_time import LocalReading, beyond_zone_history, read_local
from kernel.errors import OutOfRange, UnreadableMoment, UnreadableValue

SECONDS_PER_DAY = 86400.0
# The Julian Day at which the days of _days_from_civil begin (1970-01-01T00:00).
_JD_OF_CIVIL_DAY_ZERO = 2440587.5

# Supported span of UT1 Julian Days: the Moshier fallback ephemeris of Swiss Ephemeris is
# defined from JD 625000.5 (-3001-02-03 proleptic Gregorian) to JD 2818000.5; we stop at
# 3000-01-01 (JD 2816787.5), just short of the end of the bundled files (3000-01-10).
JD_UT1_MIN = 625000.5
JD_UT1_MAX = 2816787.5
#: The same span as UTC dates (proleptic Gregorian, astronomical year numbering: year -3001
#: is 3002 BCE); tests/unit/kernel/test_timescale.py checks it against the two Julian Days.
SUPPORTED_SPAN_TEXT = "-3001-02-03T00:00:00Z (3002 BCE) to 3000-01-01T00:00:00Z"
#: How far before a moment the searches for its day's sunrise may start, days: the panchang's
#: day and the planetary day (kernel/panchang.py, kernel/planetary_hours.py) look for the
#: sunrise that opens it at most a day and a half back; half a day more for the step back.
DAY_SEARCH_DAYS = 2.0

_ISO = re.compile(
    r"""
    (?P<year>[+-]\d{4,6}|\d{4})-(?P<month>\d{2})-(?P<day>\d{2})
    (?:
        [Tt ](?P<hour>\d{2})
        (?::(?P<minute>\d{2})
            (?::(?P<second>\d{2})(?:[.,](?P<fraction>\d+))?)?
        )?
        (?P<offset>[Zz]|[+-]\d{2}(?::?\d{2})?)?
    )?
    """,
    re.VERBOSE | re.ASCII,  # \d is 0-9 only: ISO 8601 has no other digits
)


def written_offset_s(text: str) -> int:
    """Return the UTC offset (seconds east) an ISO 8601 date-time that :meth:`Moment.from_iso`
    reads was written in: its ``±HH[:MM]``, 0 for ``Z`` or none."""
    match = _ISO.fullmatch(text)
    offset = match["offset"] if match else None
    if not offset or offset in ("Z", "z"):
        return 0
    digits = offset[1:].replace(":", "")
    return (-1 if offset[0] == "-" else 1) * (int(digits[:2]) * 3600 + int(digits[2:] or 0) * 60)


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Return days since 1970-01-01 of a proleptic-Gregorian date (any year; H. Hinnant)."""
    year -= month <= 2
    era = year // 400  # floor division: Hinnant's C truncates, hence his "year - 399"
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _civil_from_days(days: int) -> tuple[int, int, int]:
    """Return the proleptic-Gregorian (year, month, day) ``days`` after 1970-01-01 (H. Hinnant)."""
    days += 719468
    era = days // 146097  # floor division, as above
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    year = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + (3 if mp < 10 else -9)
    return year + (month <= 2), month, day


def _days_in_month(year: int, month: int) -> int:
    """Return the length of a proleptic-Gregorian month in days."""
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


def format_year(year: int) -> str:
    """Return an ISO 8601 year: four digits for 0001-9999, else the expanded form ±YYYYYY.

    The expanded form is the one ECMAScript's Date reads (year 0 is 1 BCE, astronomical
    numbering: -000500 is 501 BCE).
    """
    if 1 <= year <= 9999:
        return f"{year:04d}"
    return f"{'-' if year < 0 else '+'}{abs(year):06d}"


def _check_range(jd_ut1: float, shown: str, about: str | None = None) -> None:
    """Raise UnreadableValue (worded with the parameter's name, ``about`` the argument that gave
    the value) unless ``jd_ut1`` lies in the supported span; ``shown`` is the value as the
    error quotes it."""
    if not (JD_UT1_MIN <= jd_ut1 <= JD_UT1_MAX):
        raise UnreadableValue(
            wording=lambda param: (
                f"{param}={shown} is outside the supported span: Julian Day (UT1) {JD_UT1_MIN} to "
                f"{JD_UT1_MAX}, i.e. {SUPPORTED_SPAN_TEXT}."
            ),
            suggestion=f"Choose a moment from {SUPPORTED_SPAN_TEXT}.",
            about=about,
        )


@dataclass(frozen=True, init=False)
class Moment:
    """An instant, held as a UT1 Julian Day; its Delta T is computed when first asked for.

    Build it with :meth:`from_jd_ut1`, :meth:`from_iso` or :meth:`from_utc_datetime`; the
    plain constructor is refused. Supported span: JD (UT1) 625000.5 to 2816787.5
    (:data:`SUPPORTED_SPAN_TEXT`, where Swiss Ephemeris has either its files or the Moshier
    fallback); outside it the constructors raise UnreadableValue, which the reader that passed
    the value names (``shared/runtime/kernel_errors.py``): a moment knows no request parameter.
    Building one needs no ephemeris files (the gateway validates moments without them);
    :attr:`delta_t_s` and what uses it (:attr:`jd_tt`) compute from them.
    ``clock_jd`` is the Julian Day of the reading on the clock it was written in (the UTC
    date and time of a datetime, leap seconds not counted; the UT1 Julian Day of a jd), on
    which the lengths of ranges and their calendar caps are measured.
    """

    jd_ut1: float
    clock_jd: float = field(compare=False)  # the same instant, however it was written
    #: The UTC date and time a datetime was written as (aware, to the microsecond), exactly as
    #: sent; None for a jd, a leap second and years outside 1 to 9999.
    utc_written: datetime | None = field(compare=False)

    def __init__(self, *args, **kwargs):  # refused on purpose: use the named constructors
        raise TypeError("build a Moment with Moment.from_jd_ut1, Moment.from_iso or Moment.from_utc_datetime")

    @classmethod
    def _build(cls, jd_ut1: float, clock_jd: float | None = None, utc_written: datetime | None = None) -> Moment:
        obj = object.__new__(cls)
        object.__setattr__(obj, "jd_ut1", float(jd_ut1))
        object.__setattr__(obj, "clock_jd", float(jd_ut1) if clock_jd is None else clock_jd)
        object.__setattr__(obj, "utc_written", utc_written)
        return obj

    @classmethod
    def from_jd_ut1(cls, jd: float) -> Moment:
        """Return the moment at Julian Day ``jd`` (UT1).

        Non-numbers, non-finite numbers and days outside the supported span raise
        UnreadableValue about ``jd``, worded with the parameter's name.
        """
        if isinstance(jd, bool) or not isinstance(jd, (int, float)):
            raise UnreadableValue(
                wording=lambda param: f"{param} must be a number (a Julian Day in UT1), not {jd!r}.",
                suggestion="Send a Julian Day such as 2451545.0.",
                about="jd",
            )
        if not math.isfinite(jd):
            raise UnreadableValue(
                wording=lambda param: f"{param} must be a finite number, not {jd!r}.",
                suggestion="Send a Julian Day such as 2451545.0.",
                about="jd",
            )
        _check_range(float(jd), repr(jd), "jd")
        return cls._build(float(jd))

    @classmethod
    def from_iso(cls, text: str) -> Moment:
        """Return the moment an ISO 8601 date-time names.

        Extended format ``YYYY-MM-DD[THH[:MM[:SS[.fff]]]][Z|±HH[:MM]]``: no offset is UTC, an
        offset is converted to UTC, ``Z`` is UTC, a date alone is midnight UTC; years may be
        signed/expanded (``-000500``), read as proleptic Gregorian. Second 60 is accepted only
        in a real leap second. Anything else raises UnreadableMoment; a readable date outside
        the supported span raises UnreadableValue (both worded with the parameter's name).
        """
        if not isinstance(text, str):
            raise UnreadableMoment(wording=lambda param: f"{param} must be an ISO 8601 string, not {text!r}.")
        return cls._parse_iso(text)

    @classmethod
    def _parse_iso(cls, text: str) -> Moment:
        match = _ISO.fullmatch(text)
        if match is None:
            raise UnreadableMoment(wording=lambda param: f"{param}={text!r} is not an ISO 8601 date-time.")
        year, month, day = int(match["year"]), int(match["month"]), int(match["day"])
        hour = int(match["hour"] or 0)
        minute = int(match["minute"] or 0)
        whole_second = int(match["second"] or 0)
        fraction = float("0." + match["fraction"]) if match["fraction"] else 0.0
        if not (1 <= month <= 12) or not (1 <= day <= _days_in_month(year, month)):
            raise UnreadableMoment(wording=lambda param: f"{param}={text!r} names a day that does not exist.")
        if hour > 23 or minute > 59 or whole_second > 60:
            raise UnreadableMoment(wording=lambda param: f"{param}={text!r} has a time of day out of range.")
        offset_min = 0
        offset = match["offset"]
        if offset and offset not in ("Z", "z"):
            sign = -1 if offset[0] == "-" else 1
            digits = offset[1:].replace(":", "")
            off_h, off_m = int(digits[:2]), int(digits[2:] or 0)
            if off_h > 23 or off_m > 59:
                raise UnreadableMoment(wording=lambda param: f"{param}={text!r} has an offset out of range.")
            offset_min = sign * (off_h * 60 + off_m)
        if offset_min:
            # Shift whole minutes only, so a leap second (:60) stays a leap second in UTC.
            day_number = _days_from_civil(year, month, day)
            minute_of_day = hour * 60 + minute - offset_min
            day_number += minute_of_day // 1440
            minute_of_day %= 1440
            year, month, day = _civil_from_days(day_number)
            hour, minute = divmod(minute_of_day, 60)
        if not (-3001 <= year <= 3000):
            _check_range(math.inf, repr(text))
        try:
            jd_ut1 = engine.utc_to_jd_ut1(year, month, day, hour, minute, whole_second + fraction)
        except ValueError:  # second 60 outside a leap second
            raise UnreadableMoment(
                wording=lambda param: (
                    f"{param}={text!r} is not a valid UTC time (second 60 exists only in a leap second)."
                ),
            ) from None
        _check_range(jd_ut1, repr(text))
        clock = (
            _days_from_civil(year, month, day)
            + _JD_OF_CIVIL_DAY_ZERO
            + (hour * 3600 + minute * 60 + whole_second + fraction) / SECONDS_PER_DAY
        )
        written = None
        if 1 <= year <= 9999 and whole_second < 60:
            micro = round(fraction * 1e6)
            written = datetime(year, month, day, hour, minute, whole_second, tzinfo=UTC) + timedelta(microseconds=micro)
        return cls._build(jd_ut1, clock, written)

    @classmethod
    def from_civil_iso(
        cls, text: str, zone: ZoneInfo, *, fold: int | None = None
    ) -> tuple[Moment, LocalReading | None]:
        """Return the moment an ISO 8601 date-time names as the civil time of ``zone``, and how
        it was read (None when the text carries its own offset, which it keeps).

        Without an offset the text is the wall-clock time in ``zone`` on that date (years 1 to
        9999; :func:`kernel.civil_time.read_local`: a skipped time raises
        NonexistentLocalTime, one shown twice AmbiguousLocalTime unless ``fold`` chooses).
        Errors are worded with the parameter's name, which the reader supplies.
        """
        if not isinstance(text, str):
            raise UnreadableMoment(wording=lambda param: f"{param} must be an ISO 8601 string, not {text!r}.")
        match = _ISO.fullmatch(text)
        if match is None or match["offset"]:
            return cls._parse_iso(text), None
        year = int(match["year"])
        if not 1 <= year <= 9999:
            raise UnreadableMoment(
                wording=lambda param: f"{param}={text!r}: a local time is read for years 1 to 9999 only.",
                suggestion="Send an earlier or later date as UTC (with Z), or as jd.",
            )
        if int(match["second"] or 0) == 60:
            raise UnreadableMoment(
                wording=lambda param: f"{param}={text!r}: second 60 exists only in UTC (a leap second).",
                suggestion="Send the leap second as UTC, with Z.",
            )
        try:
            local = datetime(
                year,
                int(match["month"]),
                int(match["day"]),
                int(match["hour"] or 0),
                int(match["minute"] or 0),
                int(match["second"] or 0),
                round(float("0." + match["fraction"]) * 1e6) if match["fraction"] else 0,
            )
        except ValueError:
            raise UnreadableMoment(
                wording=lambda param: f"{param}={text!r} names a day or time that does not exist."
            ) from None
        reading = read_local(local, zone, fold=fold)
        # isoformat, not strftime: glibc's %Y does not pad years before 1000 to four digits.
        return cls._parse_iso(reading.utc.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"), reading

    @classmethod
    def from_utc_datetime(cls, dt: datetime) -> Moment:
        """Return the moment of an aware ``datetime`` (converted to UTC); naive ones raise UnreadableMoment."""
        if not isinstance(dt, datetime) or dt.tzinfo is None or dt.utcoffset() is None:
            raise UnreadableMoment(
                wording=lambda param: f"{param} must be a timezone-aware datetime; a naive one is ambiguous."
            )
        utc = dt.astimezone(UTC)
        seconds = utc.second + utc.microsecond / 1e6
        jd_ut1 = engine.utc_to_jd_ut1(utc.year, utc.month, utc.day, utc.hour, utc.minute, seconds)
        _check_range(jd_ut1, utc.isoformat())
        return cls._build(jd_ut1)

    @cached_property
    def delta_t_s(self) -> float:
        """Return Delta T = TT - UT1 in seconds (:func:`engine.delta_t_days`, from the ephemeris
        files), computed on first use and kept."""
        return engine.delta_t_days(self.jd_ut1) * SECONDS_PER_DAY

    @property
    def jd_tt(self) -> float:
        """Return the Julian Day in Terrestrial Time: ``jd_ut1 + delta_t_s / 86400``."""
        return self.jd_ut1 + self.delta_t_s / SECONDS_PER_DAY

    @property
    def delta_t_days(self) -> float:
        """Return Delta T = TT - UT1 in days."""
        return self.delta_t_s / SECONDS_PER_DAY

    def plus_days(self, days: float) -> Moment:
        """Return the moment ``days`` (UT1 days) later; outside the supported span,
        UnreadableValue about the moment."""
        jd = self.jd_ut1 + days
        _check_range(jd, repr(jd), "moment")
        return Moment._build(jd)

    def clock_datetime(self) -> datetime:
        """Return the aware UTC datetime of the clock reading the moment was written in: a
        datetime's UTC date and time exactly as sent (``utc_written``), else ``clock_jd`` (a
        jd's UT1) to the nearest microsecond. Raises OutOfRange about the moment (worded with
        its parameter's name, which the caller supplies) outside the years 1 to 9999 (no time
        zone's history, and no Python datetime, reaches further)."""
        if self.utc_written is not None:
            return self.utc_written
        try:
            return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(
                microseconds=round((self.clock_jd - _JD_OF_CIVIL_DAY_ZERO) * SECONDS_PER_DAY * 1e6)
            )
        except OverflowError:
            raise beyond_zone_history() from None

    def iso_utc(self, to: str = "millisecond") -> str:
        """Return the instant as ISO 8601 UTC rounded to the nearest ``to`` (see :func:`iso_utc`)."""
        return iso_utc(self.jd_ut1, to)

    def instant(self) -> dict:
        """Return the spec's Instant: ``{"jd": UT1 Julian Day, "datetime": ISO 8601 UTC with ms}``."""
        return {"jd": self.jd_ut1, "datetime": self.iso_utc()}


#: The units :func:`iso_utc` rounds to, in units per second; its text shows that many digits.
_UNITS_PER_SECOND = {"millisecond": 1000, "second": 1, "minute": 1}


def iso_utc(jd_ut1: float, to: str = "millisecond") -> str:
    """Return a UT1 Julian Day as ISO 8601 UTC rounded to the nearest ``to``: a millisecond
    (``YYYY-MM-DDTHH:MM:SS.mmmZ``, every Instant of an answer), a second
    (``YYYY-MM-DDTHH:MM:SSZ``, iCalendar's DATE-TIME) or a minute (``YYYY-MM-DDTHH:MMZ``, the
    spans an error message names).

    UT1 goes to UTC through the leap-second table; every unit rounds one way, half up, with
    the carry into minutes, hours and days (59.9996 s -> the next minute, except in a
    leap-second minute, where it becomes :60.000). Every instant an answer renders from a
    Julian Day is rendered here.
    """
    year, month, day, hour, minute, second = engine.jd_ut1_to_utc(jd_ut1)
    per_second = _UNITS_PER_SECOND[to]
    if to == "minute":
        leap = second >= 59.0 and engine.is_leap_second_minute(year, month, day, hour, minute)
        units, minute_units = (1 if second >= (30.5 if leap else 30.0) else 0), 1
    else:
        units = math.floor(second * per_second + 0.5)
        minute_units = 60 * per_second
        if units >= minute_units and engine.is_leap_second_minute(year, month, day, hour, minute):
            minute_units += per_second  # the minute of a leap second has 61 seconds
    if units >= minute_units:
        units -= minute_units
        minute += 1
        if minute == 60:
            minute, hour = 0, hour + 1
        if hour == 24:
            hour = 0
            year, month, day = _civil_from_days(_days_from_civil(year, month, day) + 1)
    # %-formatting inline, not f-strings (UP031): a scan writes tens of thousands, and the
    # millisecond form takes 1.8 us this way against 2.5 us as an f-string (timeit, CPython 3.11).
    year_text = "%04d" % year if 1 <= year <= 9999 else format_year(year)  # noqa: UP031
    if to == "minute":
        return "%s-%02d-%02dT%02d:%02dZ" % (year_text, month, day, hour, minute)  # noqa: UP031
    if to == "second":
        return "%s-%02d-%02dT%02d:%02d:%02dZ" % (year_text, month, day, hour, minute, units)  # noqa: UP031
    whole, frac = divmod(units, 1000)
    return "%s-%02d-%02dT%02d:%02d:%02d.%03dZ" % (year_text, month, day, hour, minute, whole, frac)  # noqa: UP031


def plus_calendar_years(jd: float, years: int) -> float:
    """Return the Julian Day of the same calendar date and time of day ``years`` later
    (proleptic Gregorian, on the time line ``jd`` is on); 29 February becomes 28 February in
    a common year, as the calendar libraries do."""
    days = math.floor(jd - _JD_OF_CIVIL_DAY_ZERO)
    time_of_day = jd - _JD_OF_CIVIL_DAY_ZERO - days
    year, month, day = _civil_from_days(days)
    year += years
    day = min(day, _days_in_month(year, month))
    return _days_from_civil(year, month, day) + _JD_OF_CIVIL_DAY_ZERO + time_of_day


def calendar_span_text(start_jd: float, end_jd: float) -> str:
    """Return how long ``start_jd`` to ``end_jd`` lasts in whole calendar years and the rest
    (to the millisecond), written so that a span longer than N years never reads as N years:
    "1 year and 2 days", "120 years, 3 hours and 0.5 seconds", "4 days"."""
    years = 0
    while plus_calendar_years(start_jd, years + 1) <= end_jd:
        years += 1
    rest_s = (end_jd - plus_calendar_years(start_jd, years)) * SECONDS_PER_DAY
    return _join([_count(years, "year")] if years else [], rest_s)


def duration_text(days: float) -> str:
    """Return a duration given in days as whole days, hours, minutes and seconds (to the
    millisecond): "366 days and 2 hours", "183 days, 4 minutes and 1.5 seconds"."""
    return _join([], days * SECONDS_PER_DAY)


_UNITS = (("day", 86400000), ("hour", 3600000), ("minute", 60000))


def _join(parts: list[str], seconds: float) -> str:
    millis = round(seconds * 1000.0)
    for unit, size in _UNITS:
        whole, millis = divmod(millis, size)
        if whole:
            parts.append(_count(whole, unit))
    if millis or not parts:
        parts.append(_count(millis / 1000.0, "second"))
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _count(n: float, unit: str) -> str:
    return f"{n:g} {unit}" + ("" if n == 1 else "s")


def require_day_within_span(jd_ut1: float, day: str = "day") -> None:
    """Raise OutOfRange about the moment unless the ``day`` around ``jd_ut1`` (UT1 Julian Day),
    sunrise to sunrise, can be searched within the supported dates: the moment must lie
    DAY_SEARCH_DAYS after their start."""
    if jd_ut1 < JD_UT1_MIN + DAY_SEARCH_DAYS:
        raise OutOfRange(
            f"The {day} around this moment begins before the supported dates ({SUPPORTED_SPAN_TEXT}).",
            suggestion="Choose a moment at least two days after the start of the supported dates.",
            about="moment",
        )
