"""The ranges of requests and their caps (shared/runtime/ranges.py).

References: FindLunationsRequest.end (search_service.proto: after the start, at most 10
calendar years later), FindTransitsRequest.end (at most 366 days, 183 with moon=include),
NatalTimeline (common.proto: at, or start and end; an at before birth is before_birth; a
start before birth is cut to birth), the profections cap of 120 years (kernel/profections.py);
kernel.timescale.Moment.clock_jd: a range is measured on the UTC clock its ends were written in, leap seconds not
counted.
"""

from __future__ import annotations

import pytest

from celestial.v1 import search_service_pb2 as search_pb
from celestial.v1 import timelords_service_pb2 as timelords_pb
from celestial.v1.common_pb2 import Location, Moment, NatalTimeline
from kernel.errors import BeforeBirth, RangeTooLong
from kernel.time_lord_periods import TimeQuery
from kernel.timescale import Moment as KernelMoment
from shared.errors import InvalidParameter, MissingParameter
from shared.runtime.ranges import event_range, life_range, scan_range

J2000 = 2451545.0


def birth_jd(text: str) -> float:
    return KernelMoment.from_iso(text).jd_ut1


def lunations(start: Moment, end: Moment) -> search_pb.FindLunationsRequest:
    return search_pb.FindLunationsRequest(start=start, end=end)


def test_an_event_range_up_to_the_same_date_cap_years_later_is_accepted():
    start, end = event_range(
        lunations(Moment(datetime="2000-02-29T12:00:00Z"), Moment(datetime="2010-02-28T12:00:00Z")), cap_years=10
    )
    assert (start.iso_utc(), end.iso_utc()) == ("2000-02-29T12:00:00.000Z", "2010-02-28T12:00:00.000Z")


def test_an_event_range_a_second_past_its_cap_in_years_is_range_too_long_naming_the_end_sent():
    with pytest.raises(RangeTooLong) as caught:
        event_range(
            lunations(Moment(datetime="2000-01-01T00:00:00Z"), Moment(datetime="2010-01-01T00:00:01Z")), cap_years=10
        )
    assert caught.value.param == "end"


def test_an_event_range_past_its_cap_in_days_names_end_jd_when_the_end_came_as_jd():
    request = lunations(Moment(jd=J2000), Moment(jd=J2000 + 366.01))
    with pytest.raises(RangeTooLong) as caught:
        event_range(request, cap_days=366)
    assert caught.value.param == "end_jd"
    assert event_range(lunations(Moment(jd=J2000), Moment(jd=J2000 + 366)), cap_days=366)[1].jd_ut1 == J2000 + 366


@pytest.mark.parametrize("days", [0.0, -1.0])
def test_an_end_not_after_the_start_is_invalid_naming_the_end(days):
    with pytest.raises(InvalidParameter) as caught:
        event_range(lunations(Moment(jd=J2000), Moment(jd=J2000 + days)), cap_years=10)
    assert caught.value.param == "end_jd"


def transits(start: Moment, end: Moment, moon: str = "returns_only") -> search_pb.FindTransitsRequest:
    return search_pb.FindTransitsRequest(start=start, end=end, moon=moon)


def test_a_scan_covers_at_most_366_days():
    assert scan_range(transits(Moment(jd=J2000), Moment(jd=J2000 + 366)))[1].jd_ut1 == J2000 + 366
    with pytest.raises(RangeTooLong) as caught:
        scan_range(transits(Moment(jd=J2000), Moment(jd=J2000 + 366.5)))
    assert caught.value.param == "end_jd"


def test_a_scan_with_the_moon_included_covers_at_most_183_days():
    with pytest.raises(RangeTooLong) as caught:
        scan_range(transits(Moment(jd=J2000), Moment(jd=J2000 + 184), moon="include"))
    assert caught.value.param == "end_jd"


def test_a_scans_cap_is_measured_on_the_utc_clock_its_ends_were_written_in():
    # 2 July 2016 to 1 January 2017 is 183 days of UTC; the leap second of 31 December 2016
    # makes it 183 days and some 0.76 s of UT1.
    start, end = scan_range(
        transits(Moment(datetime="2016-07-02T00:00:00Z"), Moment(datetime="2017-01-01T00:00:00Z"), moon="include")
    )
    assert end.jd_ut1 - start.jd_ut1 > 183


def timeline(**moments: Moment) -> timelords_pb.ComputeProfectionsRequest:
    birth = NatalTimeline(
        moment=Moment(datetime="2000-01-01T12:00:00Z"), location=Location(lat=0.0, lon=0.0), **moments
    )
    return timelords_pb.ComputeProfectionsRequest(timeline=birth)


def test_at_asks_for_the_periods_at_one_instant():
    assert life_range(timeline(at=Moment(jd=J2000 + 100)), 120) == TimeQuery(at_jd=J2000 + 100)


def test_at_before_birth_is_before_birth_naming_at_however_it_was_sent():
    with pytest.raises(BeforeBirth) as caught:
        life_range(timeline(at=Moment(jd=J2000 - 1)), 120)
    assert caught.value.param == "at"


def test_a_start_before_birth_is_cut_to_birth_and_the_cap_counts_from_birth():
    # 1900 to 2119 is 219 years, but from the birth (2000) it is under the 120-year cap.
    query = life_range(
        timeline(start=Moment(datetime="1900-01-01T00:00:00Z"), end=Moment(datetime="2119-12-31T00:00:00Z")), 120
    )
    assert query.start_jd == birth_jd("2000-01-01T12:00:00Z")


def test_a_range_past_the_cap_from_birth_is_range_too_long_naming_the_end():
    with pytest.raises(RangeTooLong) as caught:
        life_range(
            timeline(start=Moment(datetime="2000-01-01T12:00:00Z"), end=Moment(datetime="2120-01-01T12:00:01Z")), 120
        )
    assert caught.value.param == "end"


def test_neither_at_nor_a_range_is_missing_at():
    with pytest.raises(MissingParameter) as caught:
        life_range(timeline(), 120)
    assert caught.value.param == "at"


def test_a_range_without_its_end_is_missing_end():
    with pytest.raises(MissingParameter) as caught:
        life_range(timeline(start=Moment(jd=J2000 + 1)), 120)
    assert caught.value.param == "end"
