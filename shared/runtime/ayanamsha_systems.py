"""Reader of the ayanamshas an ayanamsha request asks for: ``all``, a name, or an id 2-46.
Validation runs it in the gateway before any charge (the reader of ComputeAyanamshaRequest,
``shared/runtime/request_readers.py``); the ephemeris service calls it to read the request."""

from __future__ import annotations

from google.protobuf.message import Message

from kernel.ayanamshas import AYANAMSHAS, Ayanamsha, parse_ayanamsha
from shared.runtime.kernel_errors import naming

ALL = "all"


def ayanamsha_systems(request: Message) -> tuple[Ayanamsha, ...]:
    """Return the ayanamshas the request's ``system`` names: every one in id order for
    ``all``, else the one named or numbered, read as ``sidereal`` is (decisions.md,
    Ayanamshas): the ids 0 and 1 (and true/false) read as booleans and are refused, suggesting
    the names fagan_bradley and lahiri. A refused or unknown value is InvalidParameter naming
    system."""
    text = request.system
    if text.strip().lower() == ALL:
        return AYANAMSHAS
    with naming("system"):
        return (parse_ayanamsha(text),)
