"""/v1/ayanamsha: the value of one ayanamsha, or of every one, at a moment."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from shared.errors import InvalidParameter
from shared.kernel.ayanamshas import AYANAMSHA_NAMES, AYANAMSHAS, Ayanamsha, ayanamsha_by_id, parse_ayanamsha
from shared.kernel.deadline import Deadline
from shared.kernel.positions import ayanamsha_value
from shared.runtime.wire import moment_from

ALL = "all"


def _systems(text: str) -> tuple[Ayanamsha, ...]:
    """Return the ayanamshas ``text`` names: ``all``, a name, or an id 0-46 (here no flag, so
    0 and 1 are the ids of fagan_bradley and lahiri, not booleans)."""
    key = text.strip().lower()
    if key == ALL:
        return AYANAMSHAS
    if key.isdigit() and str(int(key)) == key:
        try:
            return (ayanamsha_by_id(int(key)),)
        except KeyError:
            raise InvalidParameter(
                f"No ayanamsha has id {key}.",
                suggestion=f"Send an id 0-{len(AYANAMSHAS) - 1}, a name ({', '.join(AYANAMSHA_NAMES)}) or all.",
                param="system",
            ) from None
    return (parse_ayanamsha(text, param="system"),)


def compute(request: pb.ComputeAyanamshaRequest, deadline: Deadline) -> pb.ComputeAyanamshaResponse:
    """Return {system, id, value} (true ayanamsha, degrees) for the system asked for, or for
    every system in id order with ``system=all``."""
    moment = moment_from(request)
    records = [pb.AyanamshaRecord(system=a.name, id=a.id, value=ayanamsha_value(moment, a)) for a in _systems(request.system)]
    return pb.ComputeAyanamshaResponse(data=records)
