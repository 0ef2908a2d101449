"""/v1/explain-difference: the causes that reproduce another program's numbers, ranked."""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.difference_causes import Reading
from kernel.explain_difference import TOLERANCE_ARCSEC, TOLERANCE_SECONDS, Explanation, Theirs, explain_difference

_NODE_SWAP = {"mean_node": "true_node", "true_node": "mean_node"}


def compute(request: pb.ExplainDifferenceRequest, deadline: Deadline) -> pb.ExplainDifferenceResponse:
    """Return the ranked explanations (or the closest candidates) of the request's numbers."""
    query = request.query
    found = explain_difference(query.reading, query.local_hour, query.theirs)
    data = pb.ExplainDifferenceData(
        explained=found.explained,
        tolerance_arcsec=TOLERANCE_ARCSEC,
        tolerance_seconds=TOLERANCE_SECONDS,
        candidates_tried=found.candidates_tried,
    )
    for explanation in found.explanations:
        _fill(data.explanations.add(), explanation, query.theirs)
    return pb.ExplainDifferenceResponse(data=data)


def _fill(record: pb.DifferenceExplanation, explanation: Explanation, theirs: Theirs) -> None:
    for cause in explanation.causes:
        value = cause.value
        record.causes.add(kind=cause.kind, value=str(value).lower() if isinstance(value, bool) else str(value))
    if explanation.max_arcsec is not None:
        record.residual_arcsec = explanation.max_arcsec
        record.residual_rms_arcsec = explanation.rms_arcsec
    if explanation.max_s is not None:
        record.residual_seconds = explanation.max_s
    if explanation.matched:
        record.points_matched = sum(explanation.matched.values())
    record.residual_score = explanation.score
    for point, arcsec in explanation.residuals_arcsec.items():
        record.residuals.add(point=point, arcsec=arcsec)
    for point, matched in explanation.matched.items():
        record.residuals.add(point=point, matched=matched)
    for point, seconds in explanation.residuals_s.items():
        record.residuals.add(point=point, seconds=seconds)
    _fill_request(record.request, explanation.reading, theirs)


def _fill_request(request: pb.CorrectedChartParameters, reading: Reading, theirs: Theirs) -> None:
    utc = reading.utc
    request.datetime = utc.replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"
    request.lat, request.lon = reading.lat, reading.lon
    request.system = reading.house_system
    if reading.ayanamsha is not None:
        request.sidereal = reading.ayanamsha
    request.topocentric = reading.topocentric
    swap = reading.node == "swapped"
    request.bodies.extend(_NODE_SWAP.get(b, b) if swap else b for b in theirs.positions)
    if theirs.dashas:
        request.year_length = reading.year_length
    if {"rahu", "ketu"} & set(theirs.nakshatras):
        request.node = "true" if swap else "mean"
