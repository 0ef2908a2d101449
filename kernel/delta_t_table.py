"""Where a clock time (UTC, UT1) rests on tabulated Delta T, and the condition of one that does not.

Every computation runs in Terrestrial Time; a clock time becomes TT through Delta T = TT - UT1
(``kernel/timescale.py``, Swiss Ephemeris ``swe_deltat_ex``). Source: Swiss Ephemeris 2.10
``swephlib.c``, ``calc_deltat`` and ``deltat_aa``: its table ``dt[]`` runs from TABSTART 1620
to TABEND 2028, indexed by the year ``Y = 2000 + (jd - 2451544.5) / 365.25``, observed values
to 2023 and its authors' predictions for 2024-2028. Before it, Delta T comes from a model
fitted to ancient and medieval eclipses and occultations (Stephenson, Morrison and Hohenkerk
2016, the engine's default; Morrison and Stephenson 2004 estimate its standard error at 20 s
at 1600 and 640 s at -1000); after it, from a long-term parabola joined to the table's end.
The start of the table is the start of the telescopic record: from there the observations fix
Delta T within about a second, the precision of the clock times our answers give; outside it
Delta T, and so the clock time of a position or an event, is uncertain by more than a second,
growing with the distance from the table (docs/conventions.md, "Delta T").
"""

from __future__ import annotations

from collections.abc import Iterable

from kernel.conditions import LOW_PRECISION, Condition

#: The Julian Day (UT1) of Swiss Ephemeris's year origin: Y = 2000.0 (2000-01-01T00:00).
_Y2000_JD = 2451544.5
_DAYS_PER_YEAR = 365.25
#: swephlib.c TABSTART and TABEND: the first and last years of the table dt[].
TABLE_FIRST_YEAR = 1620
TABLE_LAST_YEAR = 2028
#: The Julian Days (UT1) where the table begins and ends: JD 2312749.5 (Y = 1620.0,
#: 1619-12-29 proleptic Gregorian) and JD 2461771.5 (Y = 2028.0, 2028-01-01T00:00Z).
TABLE_START_JD = _Y2000_JD + (TABLE_FIRST_YEAR - 2000) * _DAYS_PER_YEAR
TABLE_END_JD = _Y2000_JD + (TABLE_LAST_YEAR - 2000) * _DAYS_PER_YEAR

PREDICTED_TEXT = (
    f"Delta T (TT - UT1) after {TABLE_LAST_YEAR}-01-01 is a prediction: the Swiss Ephemeris table of "
    f"observed and predicted values ends there and a long-term formula extrapolates it, so a clock time "
    f"(UTC) of this answer after {TABLE_LAST_YEAR}-01-01, the moment asked for or an instant found, may "
    "be off by more than a second, the more the further it lies."
)
MODELLED_TEXT = (
    f"Delta T (TT - UT1) before {TABLE_FIRST_YEAR} (the start of the telescopic record) comes from a model "
    "fitted to historical eclipses and occultations, uncertain by more than a second (about 20 s at 1600, "
    "minutes in antiquity): a clock time (UTC) of this answer before it, the moment asked for or an "
    "instant found, is an estimate to that precision."
)


def beyond_table(jd_ut1: float) -> bool:
    """Return True when ``jd_ut1`` lies outside the Delta T table (before its start or after its end)."""
    return jd_ut1 < TABLE_START_JD or jd_ut1 > TABLE_END_JD


def clock_time_conditions(jds_ut1: Iterable[float]) -> list[Condition]:
    """Return the ``low_precision`` conditions of clock times at ``jds_ut1`` (UT1 Julian Days):
    one saying Delta T is modelled when one lies before the table, one saying it is predicted
    when one lies after it, none when all lie within it. Stops looking once both are found."""
    before = after = False
    for jd in jds_ut1:
        before = before or jd < TABLE_START_JD
        after = after or jd > TABLE_END_JD
        if before and after:
            break
    conditions = []
    if before:
        conditions.append(Condition(LOW_PRECISION, MODELLED_TEXT))
    if after:
        conditions.append(Condition(LOW_PRECISION, PREDICTED_TEXT))
    return conditions
