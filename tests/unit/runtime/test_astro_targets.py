"""What an astrocartography request draws (shared/runtime/astro_targets.py).

References: ComputeAstrocartographyRequest and AstroTarget (astrocartography_service.proto:
the flat form's bodies x angles, default the planets x the four angles; the full form's
targets in their place, not combined (conflicting_parameters); a target names one body and at
least one line; at most 80 lines; cusp lines not drawn in a system without them);
interface.md, Limits; decisions.md, the groups (planets: the Sun through Pluto and mean_node;
all: 20 bodies).
"""

from __future__ import annotations

import pytest

from celestial.v1 import astrocartography_service_pb2 as pb
from kernel.errors import BodyNotFound
from shared.errors import ConflictingParameters, InvalidParameter
from shared.runtime.astro_targets import Target, targets_from

FOUR = ("ascendant", "descendant", "midheaven", "imum_coeli")
PLANETS = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto", "mean_node")


def test_the_flat_form_defaults_to_the_planets_by_the_four_angles():
    assert targets_from(pb.ComputeAstrocartographyRequest()) == [Target(body, FOUR, ()) for body in PLANETS]


def test_the_flat_forms_angles_are_read_by_alias_each_once():
    request = pb.ComputeAstrocartographyRequest(bodies=["Venus"], angles=["MC", "midheaven", "asc"])
    assert targets_from(request) == [Target("venus", ("midheaven", "ascendant"), ())]


def test_every_body_by_four_angles_is_80_lines_and_accepted():
    assert sum(len(t.angles) for t in targets_from(pb.ComputeAstrocartographyRequest(bodies=["all"]))) == 80


def test_the_full_form_keeps_each_targets_angles_and_cusps_in_order():
    request = pb.ComputeAstrocartographyRequest(
        targets=[
            pb.AstroTarget(body="Mars", angles=["ic"], cusps=[5.5, 2.0]),
            pb.AstroTarget(body="moon", cusps=[10.0]),
        ],
        system="koch",
    )
    assert targets_from(request) == [Target("mars", ("imum_coeli",), (5.5, 2.0)), Target("moon", (), (10.0,))]


@pytest.mark.parametrize("flat", [{"bodies": ["sun"]}, {"angles": ["mc"]}])
def test_targets_with_the_flat_form_are_conflicting_naming_targets(flat):
    request = pb.ComputeAstrocartographyRequest(targets=[pb.AstroTarget(body="sun", angles=["mc"])], **flat)
    with pytest.raises(ConflictingParameters) as caught:
        targets_from(request)
    assert caught.value.param == "targets"


def test_a_target_without_a_line_is_invalid_naming_that_target():
    request = pb.ComputeAstrocartographyRequest(
        targets=[pb.AstroTarget(body="sun", angles=["mc"]), pb.AstroTarget(body="moon")]
    )
    with pytest.raises(InvalidParameter) as caught:
        targets_from(request)
    assert caught.value.param == "targets[1]"


def test_a_target_naming_a_group_is_invalid_naming_targets():
    with pytest.raises(InvalidParameter) as caught:
        targets_from(pb.ComputeAstrocartographyRequest(targets=[pb.AstroTarget(body="planets", angles=["mc"])]))
    assert caught.value.param == "targets"


def test_an_unknown_body_is_body_not_found_naming_the_form_it_came_in():
    with pytest.raises(BodyNotFound) as caught:
        targets_from(pb.ComputeAstrocartographyRequest(bodies=["vulcan"]))
    assert caught.value.param == "bodies"
    with pytest.raises(BodyNotFound) as caught:
        targets_from(pb.ComputeAstrocartographyRequest(targets=[pb.AstroTarget(body="vulcan", angles=["mc"])]))
    assert caught.value.param == "targets"


def test_an_unknown_angle_is_invalid_naming_angles():
    with pytest.raises(InvalidParameter) as caught:
        targets_from(pb.ComputeAstrocartographyRequest(angles=["vertex"]))
    assert caught.value.param == "angles"


def test_more_than_80_lines_are_invalid_naming_the_form():
    # 17 targets of 4 angles and 1 cusp: 85 lines.
    targets = [
        pb.AstroTarget(body=body, angles=list(FOUR), cusps=[2.0])
        for body in (*PLANETS, "true_node", "chiron", "ceres", "pallas", "juno", "vesta")
    ]
    with pytest.raises(InvalidParameter) as caught:
        targets_from(pb.ComputeAstrocartographyRequest(targets=targets, system="placidus"))
    assert caught.value.param == "targets"


@pytest.mark.parametrize("system", ["whole_sign", "equal_aries"])
def test_cusps_in_a_system_without_cusp_lines_are_invalid_naming_system(system):
    request = pb.ComputeAstrocartographyRequest(targets=[pb.AstroTarget(body="sun", cusps=[2.0])], system=system)
    with pytest.raises(InvalidParameter) as caught:
        targets_from(request)
    assert caught.value.param == "system"


def test_angle_lines_are_drawn_in_any_system():
    request = pb.ComputeAstrocartographyRequest(
        targets=[pb.AstroTarget(body="sun", angles=["asc"])], system="whole_sign"
    )
    assert targets_from(request) == [Target("sun", ("ascendant",), ())]
