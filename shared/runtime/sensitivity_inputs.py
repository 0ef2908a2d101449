"""Reader of a birth-time sensitivity request (/v1/natal-chart/sensitivity): its bodies, house
system, aspects, zodiac, window and the instant of its profection, read once. Validation runs
it in the gateway before any charge (the reader of FindBirthTimeSensitivityRequest,
``shared/runtime/request_readers.py``); the search service reads the request through it.
"""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from kernel.ayanamshas import Ayanamsha, parse_ayanamsha
from kernel.birth_time_sensitivity import VEDIC_DEFAULT_AYANAMSHA
from kernel.chart import GAUQUELIN_LETTER
from kernel.errors import BeforeBirth
from kernel.houses import HouseSystem
from kernel.positions import CalcFlags
from shared.errors import InvalidParameter
from shared.runtime.kernel_errors import naming
from shared.runtime.wire import (
    aspect_types_from,
    bodies_from,
    flags_from,
    house_system_from,
    moment_from,
    optional_moment,
)

HOURS_PER_DAY = 24.0


@dataclass(frozen=True)
class SensitivityInput:
    """A sensitivity request read once: its ``bodies``, house ``system``, ``flags`` (the
    zodiac), ``aspect_types`` and one ``orb_deg`` (None: each type's own), ``window_days``
    either side of the birth, the ``vedic_ayanamsha`` of the nakshatras and the UT1 JD of
    ``at`` (None when not sent)."""

    bodies: tuple[str, ...]
    system: HouseSystem
    flags: CalcFlags
    aspect_types: tuple[str, ...]
    orb_deg: float | None
    window_days: float
    vedic_ayanamsha: Ayanamsha
    at_jd: float | None


def birth_time_sensitivity_input(request: Message) -> SensitivityInput:
    """Return what a sensitivity request asks. Refuses Gauquelin sectors (InvalidParameter
    naming system), whose 36 sectors are no houses, and an ``at`` before the window's last
    birth time (before_birth naming at), for which some births have no profection year yet."""
    system = house_system_from(request)
    if system.letter == GAUQUELIN_LETTER:
        raise InvalidParameter(
            "Gauquelin sectors are 36 mundane sectors, not the twelve houses whose changes this reports.",
            suggestion="Choose another house system, e.g. system=placidus.",
            param="system",
        )
    flags = flags_from(request)
    selection = request.aspect_selection
    window_days = request.window_hours / HOURS_PER_DAY
    at = optional_moment(request, "at")
    if at is not None and at.jd_ut1 < moment_from(request, "birth.moment").jd_ut1 + window_days:
        with naming("at", also=(BeforeBirth,)):
            raise BeforeBirth(
                "at falls before the last birth time of the window: its profection year has not begun for every birth.",
                suggestion="Send an instant after the birth plus window_hours.",
                about="at",
            )
    return SensitivityInput(
        bodies=bodies_from(request, flags),
        system=system,
        flags=flags,
        aspect_types=tuple(aspect_types_from(request)),
        orb_deg=selection.orb if selection.HasField("orb") else None,
        window_days=window_days,
        vedic_ayanamsha=flags.sidereal or parse_ayanamsha(VEDIC_DEFAULT_AYANAMSHA),
        at_jd=at.jd_ut1 if at is not None else None,
    )
