"""Reader of the star a stars request asks for: one star of the Swiss Ephemeris star file by
name or nomenclature, or every named one. Validation runs it in the gateway before any charge
(the reader of ComputeStarsRequest, ``shared/runtime/request_readers.py``), reading the names
without the file; the ephemeris service calls it to read the request."""

from __future__ import annotations

from google.protobuf.message import Message

from kernel.errors import BodyNotFound
from kernel.stars import ALL, star_key
from shared.runtime.kernel_errors import naming


def star_selection(request: Message) -> str | None:
    """Return the star the request's ``star`` names, as sent, or None for ``all`` (every
    named star); an unknown star is BodyNotFound naming star."""
    if request.star.strip().lower() == ALL:
        return None
    with naming("star", also=(BodyNotFound,)):
        star_key(request.star)
    return request.star
