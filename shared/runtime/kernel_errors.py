"""The one table from the kernel's domain errors to the catalogue's errors naming a parameter.

The kernel reads values and checks facts without knowing which request parameter carried them
(DESIGN.md, "Services"): its errors name no parameter. The reader that passed the value names
it here, as httpx maps transport errors in one table. ``naming("tz")`` around a kernel call
turns an :class:`~kernel.errors.UnreadableValue` into the catalogue's error of the
same code, worded with the parameter's name; the domain errors it is told of get the parameter.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager

from kernel.errors import (
    AmbiguousLocalTime,
    BodyNotEligible,
    BodyNotFound,
    DomainError,
    MissingValue,
    NonexistentLocalTime,
    OutOfRange,
    UnreadableMoment,
    UnreadableValue,
)
from shared.errors import CelestialError, InvalidDatetime, InvalidParameter, MissingParameter

#: The kernel's reading errors and the catalogue's error each becomes once a parameter is named.
CATALOGUE: dict[type[UnreadableValue], type[CelestialError]] = {
    UnreadableValue: InvalidParameter,
    MissingValue: MissingParameter,
    UnreadableMoment: InvalidDatetime,
}

#: The errors of reading bodies (kernel/bodies.py): they keep their codes when named.
BODY_ERRORS = (BodyNotFound, BodyNotEligible)

#: The errors of reading a local time (kernel/civil_time.py): they keep their codes when named.
#: OutOfRange is a wall-clock time whose UTC instant falls outside the years 1 to 9999.
LOCAL_TIME_ERRORS = (NonexistentLocalTime, AmbiguousLocalTime, OutOfRange)


def named(error: DomainError, param: str, words: str | None = None) -> CelestialError:
    """Return ``error`` naming ``param``: a reading error as the catalogue's error of its code,
    any other domain error as itself; its texts say ``words`` where they name the value
    (``param`` itself unless given, e.g. ``lat and lon``)."""
    said = param if words is None else words
    found = CATALOGUE.get(type(error), type(error))(error.worded(said), suggestion=error.suggested(said))
    found.param = param
    return found


@contextmanager
def naming(
    param: str, *, words: str | None = None, also: tuple[type[CelestialError], ...] = (), reading: bool = True
) -> Iterator[None]:
    """Name ``param`` in the kernel's reading errors raised inside the block (their texts
    say ``words``, ``param`` unless given).

    The domain errors of the types in ``also`` (a moment before birth, a date out of range)
    keep their type, worded the same way, and are given ``param`` too; with ``reading=False``
    only they are (an outer block names the reading errors).
    """
    try:
        yield
    except UnreadableValue as error:
        if not reading:
            raise
        raise named(error, param, words) from None
    except also as error:
        if not isinstance(error, DomainError) or error.param is not None:
            raise
        raise named(error, param, words) from None


@contextmanager
def naming_each(params: Mapping[str, str], *, also: tuple[type[CelestialError], ...] = ()) -> Iterator[None]:
    """Name, in the kernel's errors raised inside the block, the parameter ``params`` gives
    for the argument each is ``about`` (the reading errors, and the domain errors of ``also``)."""
    try:
        yield
    except (UnreadableValue, *also) as error:
        if not isinstance(error, DomainError) or error.param is not None or error.about not in params:
            raise
        raise named(error, params[error.about]) from None


def naming_moment(param: str | None) -> AbstractContextManager[None]:
    """Return a block that names ``param`` in the kernel's errors about the moment a computation
    was given (an asteroid outside its ephemeris, the engine refusing the date: ``about``
    "moment"); with ``param`` None it names nothing."""
    return naming_each({"moment": param} if param else {}, also=(OutOfRange,))
