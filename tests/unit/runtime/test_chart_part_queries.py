"""The readers of the requests that ask a chart for one part (shared/runtime/chart_part_queries.py):
/v1/midpoints and /v1/patterns, run through validation as the gateway runs them.
References: the proto's defaults and comments (ephemeris_service.proto: ComputeMidpointsRequest,
FindPatternsRequest)."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Location, Moment
from kernel.positions import Observer
from shared.runtime.validation import validate

MOMENT = Moment(datetime="2024-03-20T12:00:00Z")


def test_a_midpoints_request_without_lat_and_lon_casts_a_chart_without_a_place():
    assert validate(pb.ComputeMidpointsRequest(moment=MOMENT)).query.place is None


def test_a_midpoints_request_defaults_to_midpoints_and_antiscia_without_trees_on_the_90_degree_dial():
    extras = validate(pb.ComputeMidpointsRequest(moment=MOMENT)).query.extras
    assert (extras.derived, extras.midpoints, extras.antiscia, extras.lots, extras.resolution) == (
        True,
        True,
        True,
        (),
        "lower",
    )
    assert (extras.trees, extras.tree_modulus_deg, extras.tree_orb_deg) == (False, 90.0, 1.5)


def test_the_dial_and_orb_of_the_trees_are_read_as_sent():
    query = validate(
        pb.ComputeMidpointsRequest(moment=MOMENT, trees=True, modulus=45.0, tree_orb=0.5, resolution="higher")
    ).query
    assert (query.extras.trees, query.extras.tree_modulus_deg, query.extras.tree_orb_deg, query.extras.resolution) == (
        True,
        45.0,
        0.5,
        "higher",
    )


def test_a_midpoints_chart_finds_no_aspects():
    settings = validate(pb.ComputeMidpointsRequest(moment=MOMENT)).query.settings
    assert (settings.aspect_types, settings.parallels) == ((), False)


def test_a_patterns_request_reads_its_place_types_and_stellium_rules():
    request = pb.FindPatternsRequest(
        moment=MOMENT,
        location=Location(lat=-33.9, lon=18.4),
        patterns=["stellium"],
        stellium_scope="house",
        stellium_min=2,
    )
    query = validate(request).query
    assert query.place == Observer(-33.9, 18.4, 0.0)
    assert (query.extras.patterns, query.extras.stellium_scope, query.extras.stellium_min) == (
        ("stellium",),
        "house",
        2,
    )


def test_a_patterns_orb_sent_holds_for_every_type_and_none_sent_leaves_each_its_own():
    assert validate(pb.FindPatternsRequest(moment=MOMENT, orb=4.0)).query.settings.orb_deg == 4.0
    assert validate(pb.FindPatternsRequest(moment=MOMENT)).query.settings.orb_deg is None
