"""/v1/vedic/match: the Ashtakoota of two births, and the manglik status of each."""

from __future__ import annotations

from celestial.v1 import vedic_pb2 as pb
from kernel.ashtakoota import BRIDE, GROOM, TOTAL, ashtakoota, manglik
from kernel.deadline import Deadline
from kernel.vedic_chart import VedicChart, cast_vedic_chart
from services.timelords.vedic_chart import POSITIONS, nakshatra_record
from shared.runtime.kernel_errors import naming_moment
from shared.runtime.wire import birth_from, fill_instant, sent_moment_name


def compute(request: pb.ComputeKundaliMatchRequest, deadline: Deadline) -> pb.ComputeKundaliMatchResponse:
    """Return the match container: the conventions, each birth's Moon and manglik status, the
    eight kootas and their total out of 36."""
    ayanamsha = request.query
    charts = {}
    for side in ("a", "b"):
        moment, place = birth_from(request, f"births.birth_{side}")
        with naming_moment(sent_moment_name(request, f"births.birth_{side}.moment")):
            charts[side] = (moment, cast_vedic_chart(moment, place, ayanamsha))
    groom_side = request.groom
    bride_side = "b" if groom_side == "a" else "a"
    kootas = ashtakoota(_moon(charts[groom_side][1]).longitude, _moon(charts[bride_side][1]).longitude)
    roles = {groom_side: GROOM, bride_side: BRIDE}
    conventions = pb.VedicConventions(
        ayanamsha=ayanamsha.name,
        ayanamsha_id=ayanamsha.id,
        ayanamsha_deg=charts["a"][1].ayanamsha_deg,
        groom=groom_side,
        positions=POSITIONS,
    )
    data = pb.KundaliMatchData(
        kootas=[
            pb.KootaRecord(name=k.name, score=k.score, max=k.maximum, groom=k.groom, bride=k.bride, reason=k.reason)
            for k in kootas
        ],
        total=sum(k.score for k in kootas),
        max=TOTAL,
    )
    for side, (moment, chart) in charts.items():
        _fill_birth(getattr(data, side), roles[side], moment.jd_ut1, chart)
    warnings = [c.message for _, chart in charts.values() for c in chart.warnings]
    return pb.ComputeKundaliMatchResponse(data=data, conventions=conventions, warnings=list(dict.fromkeys(warnings)))


def _moon(chart: VedicChart):
    return next(p for p in chart.points if p.name == "moon")


def _fill_birth(record: pb.MatchBirth, role: str, jd_ut1: float, chart: VedicChart) -> None:
    """Fill one birth's record: its role, moment, Moon and manglik status."""
    points = {p.name: p for p in chart.points}
    moon = points["moon"]
    status = manglik(points["lagna"].longitude, moon.longitude, points["venus"].longitude, points["mars"].longitude)
    record.role = role
    fill_instant(record.moment, jd_ut1)
    record.moon_longitude = moon.longitude
    record.moon_sign = moon.sign
    record.moon_nakshatra.CopyFrom(nakshatra_record(moon.nakshatra))
    record.manglik.CopyFrom(
        pb.ManglikRecord(
            manglik=status.manglik,
            house_from_lagna=status.house_from_lagna,
            house_from_moon=status.house_from_moon,
            from_moon=status.from_moon,
            house_from_venus=status.house_from_venus,
            from_venus=status.from_venus,
        )
    )
