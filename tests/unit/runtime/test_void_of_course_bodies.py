"""The bodies a void-of-course Moon is measured against (shared/runtime/void_of_course_bodies.py).

References: ComputeVoidOfCourseRequest.bodies (ephemeris_service.proto: the Moon must be among
them, invalid_parameter otherwise); the groups of decisions.md (planets: the Sun through Pluto and mean_node).
"""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from shared.errors import InvalidParameter
from shared.runtime.void_of_course_bodies import void_of_course_bodies

PLANETS = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto", "mean_node")


def test_the_planets_group_is_expanded_the_moon_among_them():
    assert void_of_course_bodies(pb.ComputeVoidOfCourseRequest(bodies=["planets"])) == PLANETS


def test_bodies_naming_the_moon_are_kept_in_order():
    assert void_of_course_bodies(pb.ComputeVoidOfCourseRequest(bodies=["Saturn", "moon"])) == ("saturn", "moon")


def test_bodies_without_the_moon_are_invalid_naming_bodies():
    with pytest.raises(InvalidParameter) as caught:
        void_of_course_bodies(pb.ComputeVoidOfCourseRequest(bodies=["sun", "mars"]))
    assert caught.value.param == "bodies"
    assert "moon" in caught.value.suggestion
