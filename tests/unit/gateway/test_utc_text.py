"""gateway/utc_text.py: moments of the account wing as ISO 8601 UTC ``Z`` text to the second
(RFC 3339 §5.6), that text as a page shows it, and an operator's moment read back in UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from gateway.utc_text import iso, readable_moment, utc_moment


def test_a_moment_is_shown_in_utc_to_the_millisecond_with_z_as_every_time_stamp_of_an_answer():
    paris = timezone(timedelta(hours=1))
    assert iso(datetime(2026, 3, 1, 13, 30, 15, 999999, tzinfo=paris)) == "2026-03-01T12:30:15.999Z"
    assert iso(datetime(2026, 3, 1, 12, 30, 15, tzinfo=UTC)) == "2026-03-01T12:30:15.000Z"
    assert iso(None) is None


def test_a_moment_reads_as_date_hours_minutes_utc():
    assert readable_moment("2026-11-25T14:33:44.120Z") == "2026-11-25 14:33 UTC"
    assert readable_moment(None) == "" and readable_moment("") == ""


def test_a_moment_read_without_an_offset_is_utc_and_with_one_is_converted():
    assert utc_moment("2026-03-01T12:00:00") == datetime(2026, 3, 1, 12, tzinfo=UTC)
    assert utc_moment(" 2026-03-01T12:00:00-02:00 ") == datetime(2026, 3, 1, 14, tzinfo=UTC)


@pytest.mark.parametrize("text", ["yesterday", "2026-13-01", "9999-12-31T23:59:59-01:00"])
def test_text_that_is_no_moment_in_the_calendar_is_refused(text):
    with pytest.raises(ValueError):
        utc_moment(text)
