"""kernel/errors.py: the kernel's domain errors: each code and status is one docs/errors.md lists
(read from that table here), the three that become catalogue errors carry the catalogue's own
code and suggestion (shared/errors.py), and a message worded for a parameter names it only once
the reader that called the kernel says which."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kernel import errors
from kernel.errors import DomainError, MissingValue, UnreadableMoment, UnreadableValue
from shared.errors import CelestialError, InvalidDatetime, InvalidParameter, MissingParameter

ERRORS_DOC = Path(__file__).resolve().parents[3] / "docs" / "errors.md"
DOMAIN_ERRORS = [
    value
    for value in vars(errors).values()
    if isinstance(value, type) and issubclass(value, DomainError) and value is not DomainError
]


def documented_codes() -> dict[str, int]:
    """Return each code of docs/errors.md's table ("| status | `code`, `code` | ...") with its status."""
    codes = {}
    for line in ERRORS_DOC.read_text().splitlines():
        row = re.match(r"\|\s*(\d{3})\s*\|([^|]*)\|", line)
        if row:
            for code in re.findall(r"`([a-z_]+)`", row.group(2)):
                codes[code] = int(row.group(1))
    return codes


def test_the_table_of_docs_errors_md_is_read():
    assert documented_codes().get("not_found") == 404, "the parser reads the table it checks against"


@pytest.mark.parametrize("error", DOMAIN_ERRORS, ids=lambda e: e.__name__)
def test_every_domain_error_has_a_documented_code_and_its_status(error):
    documented = documented_codes()
    assert error.code in documented, f"{error.__name__}.code {error.code!r} is not in docs/errors.md"
    assert error.http_status == documented[error.code]
    assert issubclass(error, CelestialError) and error.default_suggestion != CelestialError.default_suggestion


@pytest.mark.parametrize(
    ("kernel_error", "catalogue_error"),
    [
        (UnreadableValue, InvalidParameter),
        (MissingValue, MissingParameter),
        (UnreadableMoment, InvalidDatetime),
    ],
)
def test_a_kernel_error_standing_for_a_catalogue_error_carries_its_code_status_and_suggestion(
    kernel_error, catalogue_error
):
    assert kernel_error.code == catalogue_error.code
    assert kernel_error.http_status == catalogue_error.http_status
    assert kernel_error.default_suggestion == catalogue_error.default_suggestion


def test_a_worded_error_says_value_until_the_reader_names_the_parameter():
    error = errors.BodyNotFound(
        wording=lambda name: f"{name}='plutoo' is not a body.", suggesting=lambda name: f"Check {name}."
    )
    assert error.message == "value='plutoo' is not a body." and error.suggestion == "Check value."
    assert error.worded("bodies") == "bodies='plutoo' is not a body."
    assert error.suggested("bodies") == "Check bodies."


def test_a_plain_error_keeps_its_message_and_suggestion_whatever_the_parameter():
    error = errors.OutOfRange("Past 2999.", suggestion="Choose an earlier date.", about="end")
    assert error.worded("end") == "Past 2999." and error.suggested("end") == "Choose an earlier date."
    assert error.about == "end" and error.param is None


def test_without_a_suggestion_the_errors_default_is_given_and_the_reader_may_replace_it():
    error = errors.PolarDayOrNight("No sunrise at 78 N.")
    assert error.suggestion == errors.PolarDayOrNight.default_suggestion
    assert error.suggested("latitude") is None
    assert error.as_dict() == {
        "code": "polar_day_or_night",
        "message": "No sunrise at 78 N.",
        "suggestion": errors.PolarDayOrNight.default_suggestion,
    }


def test_concerning_makes_the_errors_about_an_inner_argument_about_the_callers():
    with pytest.raises(errors.OutOfRange) as raised, errors.concerning("moment_b"):
        raise errors.OutOfRange("no ephemeris", about="moment")
    assert raised.value.about == "moment_b"


def test_concerning_leaves_the_errors_about_other_arguments_alone():
    with pytest.raises(errors.OutOfRange) as raised, errors.concerning("moment_b"):
        raise errors.OutOfRange("Only 2 of the 3", about="count")
    assert raised.value.about == "count"
