"""The kernel's domain errors: facts only the computation knows (STYLE.md, "Where validation lives").

An unknown or ineligible body, a date outside the ephemeris, a polar day, a moment before birth.
Each subclasses the catalogue's :class:`~shared.errors.CelestialError` (``shared/errors.py``),
which holds the errors every layer shares. None names a request parameter: the reader that
called the kernel attaches it (``shared/runtime/kernel_errors.py``), and no kernel module but
this one imports the catalogue (the import contract ``kernel-names-no-parameter``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from shared.errors import CelestialError


class DomainError(CelestialError):
    """A fact of the computation: an error that names no request parameter.

    The reader that called the kernel names the parameter (``shared/runtime/kernel_errors.py``).
    ``wording`` and ``suggesting``, when given, word the message and the suggestion with the
    parameter's name, for the texts that quote it (``tz='Mars/Base' is not a time zone ...``);
    until then the texts say ``value``. ``about`` names the argument of the kernel function the
    error concerns, when the function reads several (``at``, ``start``, ``end`` of a time
    query), for the reader to name the parameter that carried it.
    """

    def __init__(
        self,
        message: str | None = None,
        *,
        suggestion: str | None = None,
        wording: Callable[[str], str] | None = None,
        suggesting: Callable[[str], str] | None = None,
        about: str | None = None,
        param: str | None = None,
    ):
        if suggestion is None and suggesting is not None:
            suggestion = suggesting("value")
        super().__init__(message if message is not None else wording("value"), suggestion=suggestion, param=param)
        self.given_suggestion = None if suggesting is not None else suggestion
        self.wording = wording
        self.suggesting = suggesting
        self.about = about

    def worded(self, name: str) -> str:
        """Return the message naming the parameter ``name``."""
        return self.wording(name) if self.wording is not None else self.message

    def suggested(self, name: str) -> str | None:
        """Return the suggestion naming the parameter ``name`` (None: the default suggestion)."""
        return self.suggesting(name) if self.suggesting is not None else self.given_suggestion


@contextmanager
def concerning(about: str, inner: str = "moment") -> Iterator[None]:
    """Make the domain errors about ``inner`` raised inside the block (by a function the block
    calls) about ``about``, the caller's argument that gave it: the first birth's moment of a
    composite, say, for the reader to name its parameter apart from the second's."""
    try:
        yield
    except DomainError as error:
        if error.about == inner and error.param is None:
            error.about = about
        raise


class BodyNotFound(DomainError):
    code = "body_not_found"
    http_status = 400
    default_suggestion = "Use a body name such as sun, moon, mean_node, chiron, or a group: planets, asteroids, all."


class BodyNotEligible(DomainError):
    code = "body_not_eligible"
    http_status = 400
    default_suggestion = "Choose one of the bodies this endpoint supports; /docs lists them."


class NoNorthNode(DomainError):
    code = "no_north_node"
    http_status = 400
    default_suggestion = "Add mean_node or true_node to bodies."


class PolarDayOrNight(DomainError):
    code = "polar_day_or_night"
    http_status = 400
    default_suggestion = "Ask for a place nearer the equator, or a date when the Sun rises and sets there."


class InvalidHeliacalEvent(DomainError):
    code = "invalid_heliacal_event"
    http_status = 400
    default_suggestion = "Use morning_first, evening_last, evening_first or morning_last."


class RangeTooLong(DomainError):
    code = "range_too_long"
    http_status = 400
    default_suggestion = "Split the range into several requests (a batch call can carry them)."


class BeforeBirth(DomainError):
    code = "before_birth"
    http_status = 400
    default_suggestion = "Ask for a moment at or after the natal moment."


class InvalidProgression(DomainError):
    code = "invalid_progression"
    http_status = 400
    default_suggestion = "Choose a progression target at or after the natal moment."


class OutOfRange(DomainError):
    code = "out_of_range"
    http_status = 400
    default_suggestion = "Asteroids are available from 1200 to 2999 CE; choose a date in that span."


class NonexistentLocalTime(DomainError):
    code = "nonexistent_local_time"
    http_status = 400
    default_suggestion = (
        "The clocks skipped this time; send the time the certificate meant, or a datetime with its UTC offset."
    )


class AmbiguousLocalTime(DomainError):
    code = "ambiguous_local_time"
    http_status = 400
    default_suggestion = "The clocks showed this time twice; add fold=0 for the first or fold=1 for the second."


class UnreadableValue(DomainError):
    """A value the kernel cannot read (an unknown name, a number out of its span): the reader
    that passed it names the parameter, and it becomes the catalogue's ``invalid_parameter``
    (``shared/runtime/kernel_errors.py``)."""

    code = "invalid_parameter"
    http_status = 400
    default_suggestion = "Check the parameter against the endpoint's documentation at /docs."


class MissingValue(UnreadableValue):
    """A value the computation needs and was not given (the catalogue's ``missing_parameter``)."""

    code = "missing_parameter"
    default_suggestion = "Add the missing parameter; /docs lists what the endpoint requires."


class UnreadableMoment(UnreadableValue):
    """A date-time the kernel cannot read (the catalogue's ``invalid_datetime``)."""

    code = "invalid_datetime"
    default_suggestion = "Send an ISO 8601 UTC time such as 2024-03-20T12:00:00Z, or a Julian Day as jd."
