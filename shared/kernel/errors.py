"""The kernel's domain errors: facts only the computation knows (STYLE.md, "Where validation lives").

An unknown or ineligible body, a date outside the ephemeris, a polar day, a moment before birth.
Each subclasses the catalogue's :class:`~shared.errors.CelestialError` (``shared/errors.py``),
which holds the errors every layer shares.
"""

from __future__ import annotations

from shared.errors import CelestialError


class BodyNotFound(CelestialError):
    code = "body_not_found"
    http_status = 400
    default_suggestion = "Use a body name such as sun, moon, mean_node, chiron, or a group: planets, asteroids, all."


class BodyNotEligible(CelestialError):
    code = "body_not_eligible"
    http_status = 400
    default_suggestion = "Choose one of the bodies this endpoint supports; /docs lists them."


class NoNorthNode(CelestialError):
    code = "no_north_node"
    http_status = 400
    default_suggestion = "Add mean_node or true_node to bodies."


class PolarDayOrNight(CelestialError):
    code = "polar_day_or_night"
    http_status = 400
    default_suggestion = "Ask for a place nearer the equator, or a date when the Sun rises and sets there."


class InvalidHeliacalEvent(CelestialError):
    code = "invalid_heliacal_event"
    http_status = 400
    default_suggestion = "Use morning_first, evening_last, evening_first or morning_last."


class RangeTooLong(CelestialError):
    code = "range_too_long"
    http_status = 400
    default_suggestion = "Split the range into several requests (a batch call can carry them)."


class BeforeBirth(CelestialError):
    code = "before_birth"
    http_status = 400
    default_suggestion = "Ask for a moment at or after the natal moment."


class InvalidProgression(CelestialError):
    code = "invalid_progression"
    http_status = 400
    default_suggestion = "Choose a progression target at or after the natal moment."


class OutOfRange(CelestialError):
    code = "out_of_range"
    http_status = 400
    default_suggestion = "Asteroids are available from 1200 to 2999 CE; choose a date in that span."


class NonexistentLocalTime(CelestialError):
    code = "nonexistent_local_time"
    http_status = 400
    default_suggestion = "The clocks skipped this time; send the time the certificate meant, or a datetime with its UTC offset."


class AmbiguousLocalTime(CelestialError):
    code = "ambiguous_local_time"
    http_status = 400
    default_suggestion = "The clocks showed this time twice; add fold=0 for the first or fold=1 for the second."
