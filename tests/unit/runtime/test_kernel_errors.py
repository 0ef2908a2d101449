"""The one table from the kernel's domain errors to the catalogue's (shared/runtime/kernel_errors.py).

Some assertions moved here from the kernel's tests (issue 35, part 3): the kernel names no
parameter, the reader that calls it does, with ``naming``.
"""

from __future__ import annotations

import pytest

from kernel.aspects import Point, find_aspects, find_parallels
from kernel.errors import BeforeBirth, MissingValue, UnreadableMoment, UnreadableValue
from shared.errors import CelestialError, InvalidDatetime, InvalidParameter, MissingParameter
from shared.runtime.kernel_errors import CATALOGUE, naming


def test_each_reading_error_becomes_the_catalogue_error_of_its_code():
    for kernel, catalogue in CATALOGUE.items():
        assert kernel.code == catalogue.code and kernel.http_status == catalogue.http_status
    assert CATALOGUE[MissingValue] is MissingParameter and CATALOGUE[UnreadableMoment] is InvalidDatetime


def test_naming_words_the_message_and_the_suggestion_with_the_parameter():
    with pytest.raises(InvalidParameter) as caught, naming("tz"):
        raise UnreadableValue(wording=lambda p: f"{p}='Mars' is no zone.", suggesting=lambda p: f"Send {p}=UTC.")
    assert caught.value.as_dict() == {
        "code": "invalid_parameter",
        "message": "tz='Mars' is no zone.",
        "suggestion": "Send tz=UTC.",
        "param": "tz",
    }


def test_naming_keeps_the_catalogue_default_suggestion_when_the_kernel_gives_none():
    with pytest.raises(MissingParameter) as caught, naming("at"):
        raise MissingValue("Send at.")
    assert caught.value.suggestion == MissingParameter.default_suggestion and caught.value.param == "at"


def test_naming_gives_the_domain_errors_it_is_told_of_the_parameter():
    with pytest.raises(BeforeBirth) as caught, naming("at", also=(BeforeBirth,)):
        raise BeforeBirth("before the birth")
    assert caught.value.param == "at"
    with pytest.raises(BeforeBirth) as caught, naming("at"):
        raise BeforeBirth("before the birth")
    assert caught.value.param is None


def _pair() -> list[Point]:
    return [Point("a", 0.0, 1.0, 0.0), Point("b", 1.0, 1.0, 1.0)]


# From tests/unit/kernel/test_aspects.py::test_negative_or_non_finite_orb_is_refused_on_orb.
def test_a_bad_orb_is_refused_on_the_parameter_named():
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(InvalidParameter) as err, naming("orb"):
            find_aspects(_pair(), ["conjunction"], orb_deg=bad)
        assert err.value.param == "orb"


# From tests/unit/kernel/test_aspects.py::test_find_aspects_refuses_an_unknown_type.
def test_an_unknown_type_in_find_aspects_is_refused_on_the_parameter_named():
    with pytest.raises(InvalidParameter) as err, naming("aspects"):
        find_aspects(_pair(), ["conjunction", "novile"])
    assert err.value.param == "aspects"


# From tests/unit/kernel/test_aspects.py::test_bad_parallel_orb_is_refused_on_parallel_orb.
def test_a_bad_parallel_orb_is_refused_on_the_parameter_named():
    with pytest.raises(InvalidParameter) as err, naming("parallel_orb"):
        find_parallels(_pair(), orb_deg=-0.5)
    assert err.value.param == "parallel_orb"


# Moved from the kernel's tests: the readers that call the kernel's parsers name the parameter.


def _refused(read, request, error=InvalidParameter) -> CelestialError:
    with pytest.raises(error) as caught:
        read(request)
    return caught.value


# From tests/unit/kernel/test_lots.py::test_an_unknown_lot_is_invalid_parameter_naming_lots.
def test_an_unknown_lot_is_refused_on_lots():
    from celestial.v1 import ephemeris_service_pb2 as pb
    from shared.runtime.midpoint_lots import midpoint_lots

    refused = _refused(midpoint_lots, pb.ComputeMidpointsRequest(lots=["fortune", "basis"]))
    assert refused.param == "lots" and "fortune" in refused.suggestion


# From tests/unit/kernel/test_patterns.py::test_unknown_pattern_type_is_invalid_parameter (the chart
# options name it pattern_types, a patterns request patterns).
def test_an_unknown_pattern_type_is_refused_on_the_parameter_read():
    from celestial.v1 import ephemeris_service_pb2 as pb
    from kernel.patterns import parse_pattern_types
    from shared.runtime.pattern_place import pattern_place

    assert _refused(pattern_place, pb.FindPatternsRequest(patterns=["boomerang"])).param == "patterns"
    with pytest.raises(InvalidParameter) as caught, naming("pattern_types"):
        parse_pattern_types(["boomerang"])
    assert caught.value.param == "pattern_types"


def test_a_stellium_by_house_without_a_place_is_missing_lat():
    from celestial.v1 import ephemeris_service_pb2 as pb
    from shared.runtime.pattern_place import pattern_place

    refused = _refused(
        pattern_place, pb.FindPatternsRequest(patterns=["stellium"], stellium_scope="house"), MissingParameter
    )
    assert refused.as_dict() == {
        "code": "missing_parameter",
        "message": "stellium_scope=house needs the houses, so lat and lon.",
        "suggestion": "Add lat and lon, or use stellium_scope=sign or conjunction.",
        "param": "lat",
    }


# From test_every_house_system_draws_cusp_lines_but_the_two_fixed_on_the_zodiac
# (tests/unit/kernel/test_astrocartography.py).
@pytest.mark.parametrize(("system", "reason"), [("whole_sign", "sign boundaries"), ("equal_aries", "same everywhere")])
def test_cusp_lines_in_a_system_without_them_are_refused_on_system(system, reason):
    from celestial.v1 import astrocartography_service_pb2 as pb
    from shared.runtime.astro_targets import targets_from

    request = pb.ComputeAstrocartographyRequest(targets=[pb.AstroTarget(body="sun", cusps=[1.0])], system=system)
    refused = _refused(targets_from, request)
    assert reason in refused.message and refused.param == "system"


# From tests/unit/kernel/test_midpoints.py (the dial's modulus and the tree orb).
@pytest.mark.parametrize("modulus", [0.0, -5.0, 360.5, float("nan")])
def test_a_modulus_outside_0_to_360_is_refused_on_modulus(modulus):
    from kernel.midpoints import check_modulus

    with pytest.raises(InvalidParameter) as refused, naming("modulus"):
        check_modulus(modulus)
    assert refused.value.param == "modulus" and refused.value.message.startswith("modulus must lie in (0, 360]")


@pytest.mark.parametrize("orb", [-0.1, 15.01, float("inf")])
def test_a_tree_orb_outside_0_to_15_is_refused_on_tree_orb(orb):
    from kernel.midpoints import check_tree_orb

    with pytest.raises(InvalidParameter) as refused, naming("tree_orb"):
        check_tree_orb(orb)
    assert refused.value.param == "tree_orb" and refused.value.message.startswith("tree_orb must lie in [0, 15]")


# From tests/unit/kernel/test_bodies.py (the unknown body, the heliocentric sun, a body a use cannot
# take): the readers name bodies, or body, in the errors of reading bodies.
def test_an_unknown_body_is_refused_on_the_parameter_named():
    from kernel.bodies import resolve_bodies
    from kernel.errors import BodyNotFound
    from shared.runtime.kernel_errors import BODY_ERRORS

    with pytest.raises(BodyNotFound) as caught, naming("bodies", also=BODY_ERRORS):
        resolve_bodies(["sun", "vulcan"])
    assert caught.value.param == "bodies" and caught.value.message.startswith(
        "Unknown body 'vulcan' in bodies. Valid names: sun, moon"
    )


def test_the_heliocentric_sun_is_refused_on_the_parameter_named():
    from kernel.bodies import resolve_bodies
    from kernel.errors import BodyNotEligible
    from shared.runtime.kernel_errors import BODY_ERRORS

    with pytest.raises(BodyNotEligible) as caught, naming("bodies", also=BODY_ERRORS):
        resolve_bodies(["sun"], heliocentric=True)
    assert caught.value.param == "bodies" and "earth" in caught.value.suggestion
    assert (
        caught.value.message
        == "The body 'sun' in bodies is the centre of a heliocentric view and has no position in it."
    )


@pytest.mark.parametrize(
    ("name", "use", "heliocentric"),
    [
        ("lilith", "returns", False),
        ("pholus", "moving", False),
        ("chiron", "ingresses", False),
        ("sun", "heliacal", False),
        ("sun", "returns", True),
        ("mean_node", "returns", True),
        ("earth", "returns", False),
    ],
)
def test_a_body_a_use_cannot_take_is_refused_on_body(name, use, heliocentric):
    from kernel.bodies import resolve_body
    from kernel.errors import BodyNotEligible
    from shared.runtime.kernel_errors import BODY_ERRORS

    with pytest.raises(BodyNotEligible) as caught, naming("body", also=BODY_ERRORS):
        resolve_body(name, use, heliocentric=heliocentric)
    assert caught.value.param == "body"


# From tests/unit/kernel/test_draconic.py::test_a_chart_without_a_node_is_no_north_node.
def test_a_draconic_chart_without_a_node_is_refused_on_bodies():
    from kernel.draconic import require_node
    from kernel.errors import NoNorthNode

    with pytest.raises(NoNorthNode) as refused, naming("bodies", also=(NoNorthNode,)):
        require_node(("sun", "moon"))
    assert refused.value.as_dict() == {
        "code": "no_north_node",
        "message": "A draconic chart turns by the North Node, and bodies holds neither mean_node nor true_node.",
        "suggestion": "Add mean_node or true_node to bodies.",
        "param": "bodies",
    }


# From tests/unit/kernel/test_progressions.py::test_a_target_before_birth_is_invalid_progression.
def test_a_target_before_birth_is_refused_on_the_target_parameter():
    from kernel.errors import InvalidProgression
    from kernel.progressions import progressed_moment
    from kernel.timescale import Moment

    natal = Moment.from_iso("1990-06-15T14:30:00Z")
    with pytest.raises(InvalidProgression) as refused, naming("target_datetime", also=(InvalidProgression,)):
        progressed_moment(natal, natal.plus_days(-1))
    assert refused.value.param == "target_datetime"


# From tests/unit/kernel/test_planetary_hours.py::test_where_the_sun_does_not_rise_or_set_there_are_no_planetary_hours.
@pytest.mark.parametrize("when", ["2024-06-21T12:00:00Z", "2024-12-21T12:00:00Z"], ids=["polar-day", "polar-night"])
def test_no_planetary_hours_at_a_polar_place_is_refused_on_lat(when):
    from kernel.errors import PolarDayOrNight
    from kernel.planetary_hours import planetary_day
    from kernel.timescale import Moment

    with pytest.raises(PolarDayOrNight) as raised, naming("lat", also=(PolarDayOrNight,)):
        planetary_day(Moment.from_iso(when), 78.2, 15.6)  # Longyearbyen
    assert raised.value.param == "lat" and raised.value.http_status == 400


# From tests/unit/kernel/test_timescale.py::test_unreadable_text_is_invalid_datetime_naming_the_parameter.
def test_an_unreadable_datetime_is_invalid_datetime_on_the_parameter_named():
    from kernel.timescale import Moment

    with pytest.raises(InvalidDatetime) as refused, naming("start"):
        Moment.from_iso("yesterday")
    assert refused.value.as_dict() == {
        "code": "invalid_datetime",
        "message": "start='yesterday' is not an ISO 8601 date-time.",
        "suggestion": InvalidDatetime.default_suggestion,
        "param": "start",
    }


# From tests/unit/kernel/test_timescale.py::test_non_finite_or_non_numeric_jd_is_invalid_parameter.
def test_a_julian_day_outside_the_span_is_invalid_parameter_on_the_parameter_named():
    from kernel.timescale import SUPPORTED_SPAN_TEXT, Moment

    with pytest.raises(InvalidParameter) as refused, naming("at_jd"):
        Moment.from_jd_ut1(1e9)
    assert refused.value.param == "at_jd" and refused.value.message.startswith(
        "at_jd=1000000000.0 is outside the supported span"
    )
    assert refused.value.suggestion == f"Choose a moment from {SUPPORTED_SPAN_TEXT}."


# From tests/unit/kernel/test_civil_time.py::test_a_day_skipped_by_a_date_line_move_names_both_dates_and_offsets.
def test_a_local_time_the_clocks_skipped_is_refused_on_the_parameter_named():
    from datetime import datetime

    from kernel.civil_time import read_local, zone_named
    from kernel.errors import NonexistentLocalTime
    from shared.runtime.kernel_errors import LOCAL_TIME_ERRORS

    with pytest.raises(NonexistentLocalTime) as refused, naming("datetime_b", also=LOCAL_TIME_ERRORS):
        read_local(datetime(2011, 12, 30, 9), zone_named("Pacific/Apia"))
    assert refused.value.param == "datetime_b" and refused.value.message.startswith(
        "datetime_b=2011-12-30T09:00:00 did not happen"
    )
    assert "datetime_b=2011-12-30T09:00:00-10:00" in refused.value.suggestion


# From tests/unit/kernel/test_positions.py::test_asteroid_before_the_files_is_out_of_range_naming_the_time_parameter.
def test_an_asteroid_outside_its_files_is_refused_on_the_moment_parameter_named():
    from kernel.errors import OutOfRange
    from kernel.positions import CalcFlags, compute_positions
    from kernel.timescale import Moment
    from shared.runtime.kernel_errors import naming_moment

    with pytest.raises(OutOfRange) as refused, naming_moment("jd"):
        compute_positions(Moment.from_jd_ut1(2100000.5), ["ceres"], CalcFlags())
    assert refused.value.param == "jd" and "ceres" in refused.value.message


def test_naming_the_moment_leaves_the_errors_about_other_arguments_alone():
    from kernel.errors import OutOfRange
    from shared.runtime.kernel_errors import naming_moment

    with pytest.raises(OutOfRange) as refused, naming_moment("datetime"):
        raise OutOfRange("Only 2 of the 3 crossings", about="count")
    assert refused.value.param is None


# From tests/unit/kernel/test_crossings.py::test_an_asteroid_search_stops_at_the_end_of_its_files_with_out_of_range.
def test_a_search_from_outside_the_ephemeris_is_refused_on_the_parameter_of_its_start():
    from kernel.crossings import crossings
    from kernel.deadline import Deadline
    from kernel.errors import OutOfRange
    from kernel.timescale import Moment
    from shared.runtime.kernel_errors import naming_each

    with pytest.raises(OutOfRange) as refused, naming_each({"from_jd": "search_start"}, also=(OutOfRange,)):
        crossings("ceres", 0.0, Moment.from_iso("1100-01-01T00:00:00Z").jd_ut1, 1, Deadline.never())
    assert refused.value.param == "search_start"
