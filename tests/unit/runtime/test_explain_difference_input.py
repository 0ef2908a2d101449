"""The reader of /v1/explain-difference: the birth as entered, with the UTC offset its clock
time was read with and that offset's daylight-saving part."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from celestial.v1 import search_service_pb2 as pb
from celestial.v1.common_pb2 import Birth, Moment, Place
from shared.errors import InvalidParameter
from shared.runtime.validation import validate


def _read(datetime_text: str, tz: str | None = None, **theirs):
    moment = Moment(datetime=datetime_text, tz=tz) if tz else Moment(datetime=datetime_text)
    request = pb.ExplainDifferenceRequest(
        birth=Birth(moment=moment, location=Place(lat=48.8566, lon=2.3522)),
        theirs=pb.TheirNumbers(**(theirs or {"asc": 200.0})),
    )
    return validate(request).query


def test_a_local_time_in_summer_keeps_its_offset_and_the_hour_of_daylight_saving():
    query = _read("1985-07-14T15:30:00", "Europe/Paris")
    assert query.reading.utc == datetime(1985, 7, 14, 13, 30, tzinfo=UTC)
    assert (query.reading.offset_s, query.reading.dst_s, query.local_hour) == (7200, 3600, 15)


def test_a_time_written_with_its_offset_keeps_that_offset_and_no_daylight_saving():
    query = _read("1985-07-14T15:30:00+02:00")
    assert (query.reading.offset_s, query.reading.dst_s, query.local_hour) == (7200, 0, 15)
    assert query.reading.house_system == "placidus" and query.reading.ayanamsha is None


def test_cusps_other_than_twelve_are_refused_naming_theirs_cusps():
    with pytest.raises(InvalidParameter) as refused:
        _read("1985-07-14T15:30:00Z", cusps=[1.0, 2.0])
    assert refused.value.param == "theirs.cusps"
