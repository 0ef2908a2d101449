"""What a returns search follows (shared/runtime/return_count.py).

References: FindReturnsRequest (search_service.proto: the body of a return, sun ... pluto,
the nodes, chiron, pholus, the four asteroids, any other body_not_eligible; count at most 13
for the Moon, 5 for other bodies); the asteroids' ephemeris files begin in 1200 CE
(data/ephe/SOURCE.md) and have no fallback.
"""

from __future__ import annotations

import pytest

from celestial.v1 import search_service_pb2 as pb
from celestial.v1.common_pb2 import ChartOptions, ChartRequestOptions, Moment, Place
from kernel.errors import BodyNotEligible, OutOfRange
from shared.errors import InvalidParameter
from shared.runtime.return_count import return_body, return_input
from shared.runtime.validation import validate

NATAL, START = Moment(jd=2451545.0), Moment(jd=2460000.5)
BEFORE_THE_ASTEROID_FILES = 2100000.0  # 1037 CE


def returns(
    body: str, count: int = 1, *, natal: Moment = NATAL, start: Moment = START, heliocentric: bool = False
) -> pb.FindReturnsRequest:
    chart = ChartRequestOptions(options=ChartOptions(heliocentric=heliocentric))
    return pb.FindReturnsRequest(
        moment=natal, search_start=start, body=body, count=count, place=Place(lat=0.0, lon=0.0), chart=chart
    )


def test_thirteen_lunar_returns_are_cast():
    assert return_body(returns("Moon", 13)) == "moon"


def test_five_returns_of_another_body_are_cast():
    assert return_body(returns("saturn", 5)) == "saturn"


def test_six_returns_of_a_body_other_than_the_moon_are_invalid_naming_count():
    with pytest.raises(InvalidParameter) as caught:
        return_body(returns("sun", 6))
    assert caught.value.param == "count"


@pytest.mark.parametrize("body", ["mean_apogee", "earth"])
def test_a_body_no_geocentric_return_follows_is_body_not_eligible_naming_body(body):
    with pytest.raises(BodyNotEligible) as caught:
        return_body(returns(body))
    assert caught.value.param == "body"


def test_heliocentric_returns_follow_the_earth_not_the_sun():
    assert return_body(returns("earth", heliocentric=True)) == "earth"
    with pytest.raises(BodyNotEligible):
        return_body(returns("sun", heliocentric=True))


@pytest.mark.parametrize(
    ("natal", "start", "param"),
    [
        (Moment(jd=BEFORE_THE_ASTEROID_FILES), START, "jd"),
        (NATAL, Moment(jd=BEFORE_THE_ASTEROID_FILES), "search_start_jd"),
    ],
)
def test_an_asteroid_without_an_ephemeris_at_a_moment_is_out_of_range_naming_that_moment(natal, start, param):
    with pytest.raises(OutOfRange) as caught:
        return_body(returns("chiron", natal=natal, start=start))
    assert caught.value.param == param


def test_a_planet_needs_no_file_at_either_moment():
    assert return_body(returns("mars", natal=Moment(jd=BEFORE_THE_ASTEROID_FILES))) == "mars"


def test_the_input_holds_the_body_and_its_charts_settings():
    request = validate(
        pb.FindReturnsRequest(
            moment=NATAL, search_start=START, body="sun", place=Place(lat=0.0, lon=0.0), bodies=["sun", "moon"]
        )
    ).message
    found = return_input(request)
    assert found.body == "sun"
    assert found.chart.settings.bodies == ("sun", "moon")
