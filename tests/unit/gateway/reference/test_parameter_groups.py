"""gateway/reference/parameter_groups.py: a chart option links the guide that describes the
group once (and that guide names every chart option), a wire-only group says nothing, and
any other group gives its own comment."""

from __future__ import annotations

from celestial.v1 import common_pb2, ephemeris_service_pb2
from gateway.reference.parameter_groups import CHART_OPTION_LEAD, CHART_OPTIONS_GUIDE, group_lead
from shared.runtime.config import REPO_ROOT
from shared.runtime.request_model import message_spec

GUIDE = (REPO_ROOT / "docs" / f"{CHART_OPTIONS_GUIDE.rsplit('/', 1)[1]}.md").read_text()
NATAL = message_spec(ephemeris_service_pb2.ComputeNatalChartRequest.DESCRIPTOR).fields


def test_a_chart_option_leads_with_a_link_to_the_chart_options_guide():
    assert group_lead(NATAL["system"].holders, {}) == CHART_OPTION_LEAD
    assert group_lead(NATAL["orb"].holders, {}) == CHART_OPTION_LEAD  # through the aspect selection
    assert f"]({CHART_OPTIONS_GUIDE})" in CHART_OPTION_LEAD


def test_the_guide_names_every_chart_option():
    options = message_spec(common_pb2.ChartRequestOptions.DESCRIPTOR).fields
    assert len(options) > 20
    missing = [name for name in options if f"`{name}`" not in GUIDE]
    assert missing == []


def test_a_wire_only_group_says_nothing_and_another_group_its_own_comment():
    aspects = message_spec(ephemeris_service_pb2.ComputeAspectsRequest.DESCRIPTOR).fields
    assert (
        group_lead(aspects["orb"].holders, {"celestial.v1.ComputeAspectsRequest.aspect_selection": "Gathered."}) == ""
    )
    holder = NATAL["lat"].holders[-1]
    assert group_lead(NATAL["lat"].holders, {holder.full_name: "The place of birth."}) == "The place of birth."
    assert group_lead((), {}) == ""
