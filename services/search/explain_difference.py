"""/v1/explain-difference: the causes that reproduce another program's numbers, ranked."""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.difference_causes import Reading
from kernel.explain_difference import TOLERANCE_ARCSEC, Explanation, explain_difference

_NODE_SWAP = {"mean_node": "true_node", "true_node": "mean_node"}


def compute(request: pb.ExplainDifferenceRequest, deadline: Deadline) -> pb.ExplainDifferenceResponse:
    """Return the ranked explanations (or the closest candidates) of the request's numbers."""
    query = request.query
    found = explain_difference(query.reading, query.local_hour, query.theirs)
    data = pb.ExplainDifferenceData(
        explained=found.explained, tolerance_arcsec=TOLERANCE_ARCSEC, candidates_tried=found.candidates_tried
    )
    bodies = list(query.theirs.positions)
    for explanation in found.explanations:
        _fill(data.explanations.add(), explanation, bodies)
    return pb.ExplainDifferenceResponse(data=data)


def _fill(record: pb.DifferenceExplanation, explanation: Explanation, bodies: list[str]) -> None:
    for cause in explanation.causes:
        value = cause.value
        record.causes.add(kind=cause.kind, value=str(value).lower() if isinstance(value, bool) else str(value))
    record.residual_arcsec = explanation.max_arcsec
    record.residual_rms_arcsec = explanation.rms_arcsec
    for point, arcsec in explanation.residuals_arcsec.items():
        record.residuals.add(point=point, arcsec=arcsec)
    _fill_request(record.request, explanation.reading, bodies)


def _fill_request(request: pb.CorrectedChartParameters, reading: Reading, bodies: list[str]) -> None:
    utc = reading.utc
    request.datetime = utc.replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"
    request.lat, request.lon = reading.lat, reading.lon
    request.system = reading.house_system
    if reading.ayanamsha is not None:
        request.sidereal = reading.ayanamsha
    request.topocentric = reading.topocentric
    swap = reading.node == "swapped"
    request.bodies.extend(_NODE_SWAP.get(b, b) if swap else b for b in bodies)
