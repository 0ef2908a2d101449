"""/v1/vedic/dasha: the Vimshottari periods at an instant or over a range, with the balance at birth."""

from __future__ import annotations

from collections.abc import Iterable

from celestial.v1 import vedic_pb2 as pb
from kernel.deadline import Deadline
from kernel.nakshatras import nakshatra_of
from kernel.positions import CalcFlags, ayanamsha_value, compute_positions
from kernel.time_lord_periods import Period, flatten
from kernel.timescale import iso_utc
from kernel.vimshottari import balance_at_birth, first_mahadasha, vimshottari
from services.timelords.natal_points import fill_query
from services.timelords.vedic_chart import POSITIONS, nakshatra_record
from shared.runtime.kernel_errors import naming_moment
from shared.runtime.wire import fill_instant, moment_from, sent_moment_name


def compute(request: pb.ComputeVimshottariDashaRequest, deadline: Deadline) -> pb.ComputeVimshottariDashaResponse:
    """Return the Vimshottari container: conventions, the Moon at birth, the balance and the periods selected."""
    query = request.query
    birth = moment_from(request, "timeline.moment")
    with naming_moment(sent_moment_name(request, "timeline.moment")):
        moon = compute_positions(birth, ["moon"], CalcFlags(sidereal=query.ayanamsha, speed=False))
    longitude = moon.records[0].longitude
    balance = balance_at_birth(longitude)
    periods = flatten(
        vimshottari(birth.jd_ut1, longitude, query.year_days, request.levels, query.time_query, deadline),
        query.time_query,
    )
    conventions = pb.VedicConventions(
        ayanamsha=query.ayanamsha.name,
        ayanamsha_id=query.ayanamsha.id,
        ayanamsha_deg=ayanamsha_value(birth, query.ayanamsha),
        year_length=request.year_length,
        year_days=query.year_days,
        positions=POSITIONS,
    )
    data = pb.VimshottariDashaData(
        moon_longitude=longitude,
        moon_nakshatra=nakshatra_record(nakshatra_of(longitude)),
        balance=pb.DashaBalance(lord=balance.lord, years=balance.years),
        levels=request.levels,
    )
    fill_instant(data.balance.end, first_mahadasha(birth.jd_ut1, longitude, query.year_days)[1])
    fill_query(data, query.time_query)
    _fill_periods(data.periods, periods)
    return pb.ComputeVimshottariDashaResponse(
        data=data, conventions=conventions, warnings=[c.message for c in moon.conditions]
    )


def _fill_periods(records, periods: Iterable[Period]) -> None:
    """Append a record to ``records`` for each period, filled in place; an instant shared by
    several (a boundary ends one period and starts the next, at every level) has its text
    made once: a 120-year, three-level dasha holds some 820 periods on 730 instants."""
    texts: dict[float, str] = {}
    add = records.add
    for period in periods:
        record = add()
        record.level = period.level
        record.lord = period.members["lord"]
        for instant, jd in ((record.start, period.start_jd), (record.end, period.end_jd)):
            text = texts.get(jd)
            if text is None:
                text = texts[jd] = iso_utc(jd)
            instant.jd = jd
            instant.datetime = text
        record.clamped_start = period.clamped_start
        record.clamped_end = period.clamped_end
        record.parents.extend(period.members["parents"])
