"""The birth the time-lord kernel tests share (1990-06-15 14:30 UT1), its year, the sign
indices by name, and the two kinds of query they make of it."""

from __future__ import annotations

from kernel.deadline import Deadline
from kernel.time_lord_periods import TimeQuery

BIRTH = 2448058.1041667  # 1990-06-15 14:30 UT1
YEAR = 365.2422
NEVER = Deadline.never()
ARIES, TAURUS, GEMINI, CANCER, LEO, VIRGO, LIBRA, SCORPIO, SAGITTARIUS, CAPRICORN, AQUARIUS, PISCES = range(12)


def everything(years: float) -> TimeQuery:
    """Return the query of every period from birth to ``years`` (of 365.2422 days) after it."""
    return TimeQuery(start_jd=BIRTH, end_jd=BIRTH + years * YEAR)


def at(days_after_birth: float) -> TimeQuery:
    """Return the query of the periods running ``days_after_birth`` days after birth."""
    return TimeQuery(at_jd=BIRTH + days_after_birth)
