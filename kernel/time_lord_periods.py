"""What the three time-lord techniques share: a period on the UT1 time line, the query that
selects periods (one instant, or a range cut to birth), and the flat ordering of the result
(interface.md, Time-lord period records)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from kernel.errors import BeforeBirth, MissingValue, RangeTooLong, UnreadableValue
from kernel.timescale import calendar_span_text, plus_calendar_years


@dataclass(frozen=True)
class Period:
    """One period of a technique: its ``level`` (1 the outermost), its own ``start_jd`` and
    ``end_jd`` (UT1 Julian Days; the range's when clamped) and the technique's members."""

    level: int
    start_jd: float
    end_jd: float
    members: dict[str, Any] = field(default_factory=dict)
    clamped_start: bool = False
    clamped_end: bool = False


@dataclass(frozen=True)
class TimeQuery:
    """Which periods to return: those in force at ``at_jd``, or those overlapping
    [``start_jd``, ``end_jd``) (the start already cut to birth)."""

    at_jd: float | None = None
    start_jd: float | None = None
    end_jd: float | None = None

    @property
    def window(self) -> tuple[float, float]:
        """Return the span periods must overlap: the instant itself, or the range."""
        if self.at_jd is not None:
            return self.at_jd, self.at_jd
        return self.start_jd, self.end_jd


def time_query(birth_jd: float, at_jd: float | None, start_jd: float | None, end_jd: float | None) -> TimeQuery:
    """Return the query of a request's ``at`` or ``start``/``end`` (UT1 Julian Days): an ``at``
    before birth is BeforeBirth; a range needs both ends, ends after it starts and has its
    start cut to birth (unflagged). Each error is ``about`` the argument at fault (``at``,
    ``start`` or ``end``), which the reader names. Its cap is :func:`check_range_cap`'s."""
    if at_jd is not None:
        if start_jd is not None or end_jd is not None:
            raise UnreadableValue(
                "at asks for one instant and start/end for a range; the request sent both.",
                suggestion="Send either at (or at_jd), or start and end.",
                about="at",
            )
        if at_jd < birth_jd:
            raise BeforeBirth(
                "at falls before the birth: no period is in force yet.",
                suggestion="Send an instant at or after the birth.",
                about="at",
            )
        return TimeQuery(at_jd=at_jd)
    if start_jd is None and end_jd is None:
        raise MissingValue(
            "Say when: at for the periods in force at one instant, or start and end for a range.",
            suggestion="Send at (or at_jd), or both start and end (or start_jd and end_jd).",
            about="at",
        )
    if start_jd is None or end_jd is None:
        missing = "start" if start_jd is None else "end"
        raise MissingValue(
            f"A range needs both start and end; {missing} is missing.",
            suggestion="Send both start and end (or start_jd and end_jd), or at for one instant.",
            about=missing,
        )
    if end_jd <= start_jd:
        raise UnreadableValue("end must come after start.", suggestion="Send an end later than the start.", about="end")
    if end_jd <= birth_jd:
        raise BeforeBirth(
            "The range ends before the birth: no period is in force in it.",
            suggestion="Send a range that ends after the birth.",
            about="end",
        )
    return TimeQuery(start_jd=max(start_jd, birth_jd), end_jd=end_jd)


def check_range_cap(start_clock_jd: float, end_clock_jd: float, cap_years: int) -> None:
    """Refuse a range (its ends as read on the clock the client wrote them in, Julian Days)
    that ends later than the same calendar date and time ``cap_years`` years after its start:
    RangeTooLong saying exactly how long it lasts, so one calendar year, leap or not, always
    fits a one-year cap."""
    if end_clock_jd > plus_calendar_years(start_clock_jd, cap_years):
        cap = f"{cap_years} year" + ("" if cap_years == 1 else "s")
        raise RangeTooLong(
            f"The range lasts {calendar_span_text(start_clock_jd, end_clock_jd)} from its start (cut to birth); at "
            f"most {cap}.",
            suggestion=f"Ask for {cap} or less (an end no later than the same date {cap} after the start), in several "
            "requests if needed.",
        )


def overlaps(start_jd: float, end_jd: float, query: TimeQuery) -> bool:
    """Return whether a period [start, end) is selected by ``query``: it holds the instant, or overlaps the range."""
    low, high = query.window
    if query.at_jd is not None:
        return start_jd <= low < end_jd
    return start_jd < high and low < end_jd


def flatten(periods: Iterable[Period], query: TimeQuery) -> list[Period]:
    """Return the selected periods clamped to a range (never on an at query), ordered by start then level."""
    out = []
    for period in periods:
        if query.at_jd is None:
            clamp_start, clamp_end = period.start_jd < query.start_jd, period.end_jd > query.end_jd
            if clamp_start or clamp_end:
                period = replace(
                    period,
                    start_jd=query.start_jd if clamp_start else period.start_jd,
                    end_jd=query.end_jd if clamp_end else period.end_jd,
                    clamped_start=clamp_start,
                    clamped_end=clamp_end,
                )
        out.append(period)
    return sorted(out, key=lambda p: (p.start_jd, p.level))
