"""Engine conditions that degrade a result: a kind from the spec's list and a prose message."""

from __future__ import annotations

from dataclasses import dataclass

# The spec's warning kinds (interface.md, Chart object `warnings`).
HIGH_LATITUDE = "high_latitude"
EPHEMERIS_FALLBACK = "ephemeris_fallback"
LOW_PRECISION = "low_precision"
SIDEREAL_NOT_CONFIGURED = "sidereal_not_configured"

CONDITION_KINDS = (HIGH_LATITUDE, EPHEMERIS_FALLBACK, LOW_PRECISION, SIDEREAL_NOT_CONFIGURED)


@dataclass(frozen=True)
class Condition:
    """One engine condition: ``kind`` (one of :data:`CONDITION_KINDS`) and a prose ``message``.

    The chart's ``warnings[]`` carries it as ``{kind, message}``; the top-level ``warnings``
    carries just the message.
    """

    kind: str
    message: str

    def __post_init__(self) -> None:
        if self.kind not in CONDITION_KINDS:
            raise ValueError(f"unknown condition kind {self.kind!r}; expected one of {CONDITION_KINDS}")

    def as_dict(self) -> dict:
        """Return ``{"kind": ..., "message": ...}``."""
        return {"kind": self.kind, "message": self.message}
