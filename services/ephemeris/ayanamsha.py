"""/v1/ayanamsha: the value of one ayanamsha, or of every one, at a moment."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.positions import ayanamsha_value
from shared.runtime.wire import moment_from


def compute(request: pb.ComputeAyanamshaRequest, deadline: Deadline) -> pb.ComputeAyanamshaResponse:
    """Return {system, id, value} (true ayanamsha, degrees) for the system asked for, or for
    every system in id order with ``system=all``."""
    moment = moment_from(request)
    records = [pb.AyanamshaRecord(system=a.name, id=a.id, value=ayanamsha_value(moment, a)) for a in request.query]
    return pb.ComputeAyanamshaResponse(data=records)
