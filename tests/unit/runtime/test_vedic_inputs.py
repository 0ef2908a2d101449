"""The readers of the Jyotish requests (shared/runtime/vedic_inputs.py).

References: vedic.proto: ComputeVedicChartRequest (ayanamsha, houses and house_system,
vargas), ComputeVimshottariDashaRequest (ayanamsha, year_length, at or start/end),
ComputePanchangRequest, ComputeKundaliMatchRequest, ComputeAshtakavargaRequest and ComputeShadbalaRequest (ayanamsha);
the cap of kernel/vimshottari.py (120 years)."""

from __future__ import annotations

import pytest

from celestial.v1 import vedic_pb2 as pb
from celestial.v1.common_pb2 import Birth, Location, Moment, NatalTimeline, Place
from kernel.errors import OutOfRange, RangeTooLong
from kernel.timescale import JD_UT1_MIN
from shared.errors import InvalidParameter
from shared.runtime.vedic_inputs import (
    ashtakavarga_input,
    kundali_match_input,
    panchang_input,
    shadbala_input,
    vedic_chart_input,
    vimshottari_input,
)

J2000 = 2451545.0


def chart(**fields) -> pb.ComputeVedicChartRequest:
    fields.setdefault("ayanamsha", "lahiri")
    fields.setdefault("houses", "whole_sign")
    fields.setdefault("house_system", "sripati")
    return pb.ComputeVedicChartRequest(
        birth=Birth(moment=Moment(jd=J2000), location=Place(lat=45.0, lon=7.0)), **fields
    )


def dasha(**moments) -> pb.ComputeVimshottariDashaRequest:
    moments.setdefault("at", Moment(jd=J2000 + 1000))
    timeline = NatalTimeline(moment=Moment(jd=J2000), location=Location(lat=45.0, lon=7.0), **moments)
    return pb.ComputeVimshottariDashaRequest(timeline=timeline, ayanamsha="lahiri", year_length="savana", levels=2)


def test_a_chart_reads_its_ayanamsha_by_name_or_id():
    assert vedic_chart_input(chart()).ayanamsha.id == 1
    assert vedic_chart_input(chart(ayanamsha="27")).ayanamsha.name == "true_citra"


def test_an_ayanamsha_read_as_a_boolean_is_refused_naming_ayanamsha():
    with pytest.raises(InvalidParameter) as raised:
        vedic_chart_input(chart(ayanamsha="1"))
    assert raised.value.param == "ayanamsha"


def test_the_house_system_is_read_only_for_bhava_houses():
    assert vedic_chart_input(chart()).system is None
    assert vedic_chart_input(chart(houses="bhava", house_system="placidus")).system.name == "placidus"


def test_vargas_are_read_in_any_case_each_once_in_the_order_sent():
    assert [v.code for v in vedic_chart_input(chart(vargas=["d9", "D1", "D9"])).vargas] == ["D9", "D1"]


def test_a_dasha_reads_its_year_in_days_and_its_instant():
    found = vimshottari_input(dasha())
    assert found.year_days == 360.0 and found.time_query.at_jd == pytest.approx(J2000 + 1000)


def test_a_dasha_range_is_capped_at_120_years():
    vimshottari_input(dasha(at=None, start=Moment(jd=J2000), end=Moment(jd=J2000 + 120 * 365.25 - 1)))
    with pytest.raises(RangeTooLong):
        vimshottari_input(dasha(at=None, start=Moment(jd=J2000), end=Moment(jd=J2000 + 121 * 365.25)))


def test_a_panchang_reads_its_ayanamsha_naming_it_when_refused():
    request = pb.ComputePanchangRequest(
        moment=Moment(jd=J2000), location=Location(lat=13.0, lon=80.0), ayanamsha="raman"
    )
    assert panchang_input(request).name == "raman"
    request.ayanamsha = "sayana"
    with pytest.raises(InvalidParameter) as raised:
        panchang_input(request)
    assert raised.value.param == "ayanamsha"


def test_a_match_reads_its_ayanamsha_and_refuses_an_unknown_one_naming_it():
    assert kundali_match_input(pb.ComputeKundaliMatchRequest(ayanamsha="raman")).name == "raman"
    with pytest.raises(InvalidParameter) as raised:
        kundali_match_input(pb.ComputeKundaliMatchRequest(ayanamsha="sayana"))
    assert raised.value.param == "ayanamsha"


def test_an_ashtakavarga_reads_its_ayanamsha_and_refuses_one_read_as_a_boolean():
    assert ashtakavarga_input(pb.ComputeAshtakavargaRequest(ayanamsha="27")).name == "true_citra"
    with pytest.raises(InvalidParameter) as raised:
        ashtakavarga_input(pb.ComputeAshtakavargaRequest(ayanamsha="1"))
    assert raised.value.param == "ayanamsha"


def shadbala(**fields) -> pb.ComputeShadbalaRequest:
    fields.setdefault("ayanamsha", "lahiri")
    fields.setdefault("birth", Birth(moment=Moment(jd=J2000), location=Place(lat=45.0, lon=7.0)))
    return pb.ComputeShadbalaRequest(**fields)


def test_a_shadbala_reads_its_ayanamsha_and_refuses_one_read_as_a_boolean():
    assert shadbala_input(shadbala(ayanamsha="27")).name == "true_citra"
    with pytest.raises(InvalidParameter) as raised:
        shadbala_input(shadbala(ayanamsha="1"))
    assert raised.value.param == "ayanamsha"


def test_a_shadbala_whose_birth_day_begins_before_the_supported_dates_is_refused_naming_its_moment():
    with pytest.raises(OutOfRange) as raised:
        shadbala_input(shadbala(birth=Birth(moment=Moment(jd=JD_UT1_MIN + 1.0), location=Place(lat=45.0, lon=7.0))))
    assert raised.value.param == "jd"
    assert (
        shadbala_input(
            shadbala(birth=Birth(moment=Moment(jd=JD_UT1_MIN + 2.0), location=Place(lat=45.0, lon=7.0)))
        ).name
        == "lahiri"
    )
