"""The one line of English an event carries (its ``summary``, the iCalendar SUMMARY), for the
kinds /v1/calendar and /v1/forecast share: a station, an ingress, a lunation, an eclipse and a
void-of-course period are written the same in both answers, so the two events of one sky event
read alike. A forecast adds what concerns its birth (``in natal house 7``) after this text.
"""

from __future__ import annotations

from kernel.zodiac import sign_of

_PHASE_TEXT = {
    "new_moon": "New Moon",
    "crescent": "Crescent Moon",
    "first_quarter": "First quarter Moon",
    "gibbous": "Gibbous Moon",
    "full_moon": "Full Moon",
    "disseminating": "Disseminating Moon",
    "last_quarter": "Last quarter Moon",
    "balsamic": "Balsamic Moon",
}
# The eclipse types whose word in a sentence is not the type capitalised.
_ECLIPSE_TYPE_TEXT = {"annular_total": "Hybrid"}


def body_name(body: str) -> str:
    """Return a body's name as a sentence writes it (``Mean node``, ``Sun``)."""
    return body.replace("_", " ").capitalize()


def degree_text(longitude: float) -> str:
    """Return an ecliptic longitude (degrees) as its degree and minute in its sign (``27°13′ Aries``)."""
    sign, degree = sign_of(longitude)
    whole, minutes = divmod(round(degree * 60.0), 60)
    return f"{whole}°{minutes:02d}′ {sign}"


def station(body: str, phase: str, longitude: float) -> str:
    """Return the summary of ``body``'s station (``station_retrograde`` or ``station_direct``) at ``longitude``."""
    direction = "retrograde" if phase == "station_retrograde" else "direct"
    return f"{body_name(body)} stations {direction} at {degree_text(longitude)}"


def ingress(body: str, sign: str, direct: bool) -> str:
    """Return the summary of ``body`` entering ``sign`` (a sign name), moving direct or retrograde."""
    return f"{body_name(body)} enters {sign}" if direct else f"{body_name(body)} re-enters {sign} (retrograde)"


def lunation(phase: str, moon_longitude: float, eclipse: tuple[str, str] | None) -> str:
    """Return the summary of the lunation of ``phase`` at the Moon's ``moon_longitude``, naming
    the eclipse (kind, type) it holds, if any."""
    text = f"{_PHASE_TEXT[phase]} at {degree_text(moon_longitude)}"
    return text + (f" ({eclipse_name(*eclipse).lower()})" if eclipse is not None else "")


def eclipse_name(kind: str, eclipse_type: str) -> str:
    """Return an eclipse's name (``Total solar eclipse``, ``Hybrid solar eclipse``)."""
    return f"{_ECLIPSE_TYPE_TEXT.get(eclipse_type, eclipse_type.capitalize())} {kind} eclipse"


def eclipse(kind: str, eclipse_type: str, longitude: float) -> str:
    """Return the summary of a global eclipse falling at ``longitude``."""
    return f"{eclipse_name(kind, eclipse_type)} at {degree_text(longitude)}"


def void_of_course(sign: str, next_sign: str) -> str:
    """Return the summary of the Moon's void-of-course period in ``sign`` (sign names)."""
    return f"Moon void of course in {sign} until it enters {next_sign}"
