"""The return search /v1/returns and a chart wheel of kind return share
(shared/runtime/return_search.py). References: the definition of a return (the body back at
its natal longitude, in the chart's own frame: the kernel's positions at the found instants),
the tropical year's 365.2422 days and the tropical month's 27.32."""

from __future__ import annotations

import pytest

from kernel.ayanamshas import parse_ayanamsha
from kernel.deadline import Deadline
from kernel.positions import CalcFlags, Observer, compute_positions
from kernel.timescale import Moment
from shared.runtime.return_search import find_returns

NATAL = Moment.from_iso("1990-06-15T14:30:00Z")
LONDON = Observer(51.5074, -0.1278, 0.0)
#: The crossing is refined to 1 ms; the Sun moves 0.04"/s, so its longitude then is within 1e-6°.
AT_THE_CROSSING_DEG = 1e-6


def _longitude(body: str, moment: Moment, flags: CalcFlags) -> float:
    (record,) = compute_positions(moment, [body], flags).records
    return record.longitude


@pytest.mark.parametrize(
    "flags", [CalcFlags(), CalcFlags(sidereal=parse_ayanamsha("lahiri"))], ids=["tropical", "lahiri"]
)
def test_each_solar_return_puts_the_sun_back_on_its_natal_longitude(flags):
    natal_longitude, returns = find_returns(
        "sun",
        NATAL,
        Moment.from_iso("2020-01-01T00:00:00Z"),
        3,
        Deadline.never(),
        flags=flags,
        place=LONDON,
        from_param=None,
    )
    assert natal_longitude == pytest.approx(_longitude("sun", NATAL, flags), abs=1e-9)
    for moment in returns:
        gap = (_longitude("sun", moment, flags) - natal_longitude + 180.0) % 360.0 - 180.0
        assert abs(gap) < AT_THE_CROSSING_DEG


def test_solar_returns_come_once_a_year_in_order():
    _, returns = find_returns(
        "sun",
        NATAL,
        Moment.from_iso("2020-01-01T00:00:00Z"),
        3,
        Deadline.never(),
        flags=CalcFlags(),
        place=LONDON,
        from_param=None,
    )
    days = [b.jd_ut1 - a.jd_ut1 for a, b in zip(returns, returns[1:])]
    # A tropical year is 365.2422 days; the Sun's varying speed and nutation move one return by minutes.
    assert all(365.2 < gap < 365.3 for gap in days)
    assert 2020.4 < 2000 + (returns[0].jd_ut1 - 2451545.0) / 365.25 < 2020.5


def test_lunar_returns_come_every_sidereal_month_or_so():
    _, returns = find_returns(
        "moon",
        NATAL,
        Moment.from_iso("2024-01-01T00:00:00Z"),
        4,
        Deadline.never(),
        flags=CalcFlags(),
        place=LONDON,
        from_param=None,
    )
    # The tropical month is 27.32 days on average; the Moon's anomaly moves a return by up to about half a day.
    assert all(26.8 < b.jd_ut1 - a.jd_ut1 < 27.9 for a, b in zip(returns, returns[1:]))
