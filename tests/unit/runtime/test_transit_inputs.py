"""What a transit scan runs over (shared/runtime/transit_inputs.py).

References: FindTransitsRequest (search_service.proto: targets natal needs the natal moment,
targets mutual refuses it and the place; moving bodies the planets, the nodes, chiron, ceres,
pallas, juno, vesta, others body_not_eligible); the asteroids' ephemeris files begin in 1200 CE
(data/ephe/SOURCE.md).
"""

from __future__ import annotations

import pytest

from celestial.v1 import search_service_pb2 as pb
from celestial.v1.common_pb2 import Location, Moment
from kernel.errors import BodyNotEligible, OutOfRange
from kernel.positions import Observer
from shared.errors import InvalidParameter, MissingParameter
from shared.runtime.transit_inputs import moving_bodies, natal_input, scan_input

J2000 = 2451545.0
BEFORE_THE_ASTEROID_FILES = 2100000.0  # 1037 CE


def scan(**fields) -> pb.FindTransitsRequest:
    fields.setdefault("start", Moment(jd=J2000))
    fields.setdefault("end", Moment(jd=J2000 + 30))
    fields.setdefault("targets", "natal")
    fields.setdefault("moving", ["sun", "mars"])
    fields.setdefault("aspects", ["conjunction"])
    return pb.FindTransitsRequest(**fields)


def test_a_natal_scan_holds_its_range_moving_bodies_natal_input_and_aspects():
    found = scan_input(
        scan(moment=Moment(jd=J2000 - 9000), location=Location(lat=10.0, lon=20.0), bodies=["Venus"], aspects=["Trine"])
    )
    assert (found.start.jd_ut1, found.end.jd_ut1) == (J2000, J2000 + 30)
    assert (found.moving, found.natal.jd_ut1, found.location) == (
        ["sun", "mars"],
        J2000 - 9000,
        Observer(10.0, 20.0, 0.0),
    )
    assert (found.natal_bodies, found.aspects) == (["venus"], ["trine"])


def test_a_natal_scan_without_a_place_has_no_natal_angles():
    assert natal_input(scan(moment=Moment(jd=J2000)))[1] is None


def test_a_natal_scan_without_the_natal_moment_is_missing_datetime():
    with pytest.raises(MissingParameter) as caught:
        natal_input(scan())
    assert caught.value.param == "datetime"


def test_a_mutual_scan_has_no_natal_input():
    found = scan_input(scan(targets="mutual", bodies=["venus"]))
    assert (found.natal, found.location, found.natal_bodies) == (None, None, [])


@pytest.mark.parametrize(
    ("fields", "param"),
    [
        ({"moment": Moment(jd=J2000)}, "jd"),
        ({"moment": Moment(datetime="2000-01-01T00:00:00Z")}, "datetime"),
        ({"location": Location(lat=1.0, lon=2.0)}, "lat"),
    ],
)
def test_a_mutual_scan_refuses_the_natal_input_naming_what_was_sent(fields, param):
    with pytest.raises(InvalidParameter) as caught:
        natal_input(scan(targets="mutual", **fields))
    assert caught.value.param == param


@pytest.mark.parametrize("body", ["pholus", "mean_apogee"])
def test_a_body_no_scan_moves_is_body_not_eligible_naming_moving(body):
    with pytest.raises(BodyNotEligible) as caught:
        moving_bodies(scan(moving=["sun", body]))
    assert caught.value.param == "moving"


def test_moving_groups_are_expanded():
    assert moving_bodies(scan(moving=["planets"]))[:2] == ["sun", "moon"]


def test_a_moving_asteroid_without_an_ephemeris_over_the_range_is_out_of_range_naming_moving():
    request = scan(
        targets="mutual",
        start=Moment(jd=BEFORE_THE_ASTEROID_FILES),
        end=Moment(jd=BEFORE_THE_ASTEROID_FILES + 10),
        moving=["ceres"],
    )
    with pytest.raises(OutOfRange) as caught:
        scan_input(request)
    assert caught.value.param == "moving"


def test_a_natal_asteroid_without_an_ephemeris_at_birth_is_out_of_range_naming_the_natal_moment():
    with pytest.raises(OutOfRange) as caught:
        scan_input(scan(moment=Moment(jd=BEFORE_THE_ASTEROID_FILES), bodies=["vesta"]))
    assert caught.value.param == "jd"
