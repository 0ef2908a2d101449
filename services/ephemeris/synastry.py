"""/v1/synastry: two natal charts with the same options, and what links A's bodies to B's."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.compatibility_score import CompatibilityScore, chart_points, compatibility_score
from kernel.deadline import Deadline
from kernel.synastry import Overlay, inter_chart
from shared.runtime.chart_record import aspect_record, parallel_record
from shared.runtime.chart_reply import chart_reply
from shared.runtime.kernel_errors import naming_moment
from shared.runtime.wire import birth_from, sent_moment_name


def compute(request: pb.ComputeSynastryRequest, deadline: Deadline) -> pb.ComputeSynastryResponse:
    """Return the synastry reply: ``chart_a`` and ``chart_b`` exactly as /v1/natal-chart gives
    them, ``inter_aspects`` and ``inter_parallels`` with ``body_a`` from chart A, ``overlays``
    (each chart's bodies in the other's houses) and, with ``score``, ``compatibility``."""
    moment_a, place_a = birth_from(request, "births.birth_a")
    moment_b, place_b = birth_from(request, "births.birth_b")
    with naming_moment(sent_moment_name(request, "births.birth_a.moment")):
        chart_a, warnings_a, cast_a = chart_reply(request.query, moment_a, place_a)
    with naming_moment(sent_moment_name(request, "births.birth_b.moment")):
        chart_b, warnings_b, cast_b = chart_reply(request.query, moment_b, place_b)
    links = inter_chart(cast_a, cast_b, cast_a.settings)
    data = pb.SynastryData(
        chart_a=chart_a,
        chart_b=chart_b,
        inter_aspects=[aspect_record(a) for a in links.aspects],
        inter_parallels=[parallel_record(p) for p in links.parallels],
        overlays=pb.HouseOverlays(a_in_b=_overlay_records(links.a_in_b), b_in_a=_overlay_records(links.b_in_a)),
    )
    if request.score:
        data.compatibility.CopyFrom(_score_record(compatibility_score(chart_points(cast_a), chart_points(cast_b))))
    return pb.ComputeSynastryResponse(data=data, warnings=list(dict.fromkeys([*warnings_a, *warnings_b])))


def _overlay_records(overlays: list[Overlay]) -> list[pb.BodyInHouse]:
    return [pb.BodyInHouse(body=o.body, house=o.house) for o in overlays]


def _score_record(score: CompatibilityScore) -> pb.CompatibilityScore:
    return pb.CompatibilityScore(
        method=score.method,
        score=score.score,
        category=score.category,
        parts=[
            pb.ScorePart(rule=p.rule, points=p.points, body_a=p.body_a, body_b=p.body_b, aspect=p.aspect, orb=p.orb)
            for p in score.parts
        ],
    )
