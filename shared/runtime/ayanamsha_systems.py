"""Reader of the ayanamshas an ayanamsha request asks for: ``all``, a name, or an id 0-46.
Validation runs it in the gateway before any charge (the reader of ComputeAyanamshaRequest,
``shared/runtime/request_readers.py``); the ephemeris service calls it to read the request."""

from __future__ import annotations

from google.protobuf.message import Message

from shared.errors import InvalidParameter
from shared.kernel.ayanamshas import AYANAMSHA_NAMES, AYANAMSHAS, Ayanamsha, ayanamsha_by_id, parse_ayanamsha
from shared.runtime.kernel_errors import naming

ALL = "all"


def ayanamsha_systems(request: Message) -> tuple[Ayanamsha, ...]:
    """Return the ayanamshas the request's ``system`` names: every one in id order for
    ``all``, else the one named or numbered (here no flag, so 0 and 1 are the ids of
    fagan_bradley and lahiri, not booleans). An unknown name or id is InvalidParameter naming
    system."""
    text = request.system
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
    with naming("system"):
        return (parse_ayanamsha(text),)
