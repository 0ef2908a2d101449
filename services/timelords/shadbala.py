"""/v1/vedic/shadbala: the six strengths of the seven grahas of a birth, each with its parts,
their sum in virupas and rupas, the least each needs and the ratio."""

from __future__ import annotations

from celestial.v1 import vedic_pb2 as pb
from kernel import engine
from kernel.deadline import Deadline
from kernel.errors import PolarDayOrNight
from kernel.houses import compute_houses
from kernel.natal_points import ANGLES_ONLY_SYSTEM
from kernel.shadbala import GRAHAS, birth_day, kranti, mean_longitudes, shadbala
from kernel.vedic_chart import LAGNA, cast_vedic_chart
from services.timelords.vedic_chart import POSITIONS
from shared.runtime.kernel_errors import naming, naming_moment
from shared.runtime.wire import birth_from, fill_instant, sent_moment_name


def compute(request: pb.ComputeShadbalaRequest, deadline: Deadline) -> pb.ComputeShadbalaResponse:
    """Return the shadbala container: the conventions and the seven grahas' strengths."""
    ayanamsha = request.query
    moment, place = birth_from(request)
    with naming_moment(sent_moment_name(request, "birth.moment")):
        chart = cast_vedic_chart(moment, place, ayanamsha, node=request.node)
        midheaven = compute_houses(
            moment, place.latitude_deg, place.longitude_deg, ANGLES_ONLY_SYSTEM, sidereal=ayanamsha
        ).midheaven_deg
    with naming("lat", also=(PolarDayOrNight,)), naming_moment(sent_moment_name(request, "birth.moment")):
        day = birth_day(moment.jd_ut1, place.latitude_deg, place.longitude_deg)
    longitudes = {p.name: p.longitude for p in chart.points}
    obliquity = engine.obliquity_deg(moment.jd_ut1)[0]
    declinations = {g: kranti(longitudes[g] + chart.ayanamsha_deg, obliquity) for g in GRAHAS}
    mean = mean_longitudes(moment.jd_tt, chart.ayanamsha_deg)
    strengths = shadbala(longitudes, longitudes[LAGNA], midheaven, declinations, moment.jd_ut1, day, mean)
    wars = sorted({w for s in strengths for w in s.wars}, key=lambda w: (GRAHAS.index(w.winner), GRAHAS.index(w.loser)))
    data = pb.ShadbalaData(
        grahas=[
            pb.GrahaShadbala(
                body=s.graha,
                sthana=pb.ShadbalaSthana(**s.sthana, total=s.sthana_total),
                dig=s.dig,
                kala=pb.ShadbalaKala(**s.kala, total=s.kala_total),
                chesta=s.chesta,
                naisargika=s.naisargika,
                drik=s.drik,
                total_virupas=s.total,
                total_rupas=s.rupas,
                required_rupas=s.required_rupas,
                ratio=s.ratio,
            )
            for s in strengths
        ],
        wars=[pb.ShadbalaWar(**vars(w)) for w in wars],
    )
    fill_instant(data.moment, moment.jd_ut1)
    conventions = pb.VedicConventions(
        ayanamsha=chart.ayanamsha.name,
        ayanamsha_id=chart.ayanamsha.id,
        ayanamsha_deg=chart.ayanamsha_deg,
        node=chart.node,
        positions=POSITIONS,
    )
    return pb.ComputeShadbalaResponse(data=data, conventions=conventions, warnings=[c.message for c in chart.warnings])
