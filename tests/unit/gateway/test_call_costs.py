"""gateway/call_costs.py: each RPC's expected compute time is an exponentially weighted mean
(weight 0.1 on the newest time) of the times the services report in the trailing metadata
``x-compute-ms`` (shared/runtime/server.py); the means below are derived by hand."""

from __future__ import annotations

import pytest

from gateway.call_costs import CallCosts

RPC = "/celestial.v1.EphemerisService/GetPositions"


def test_an_rpc_never_answered_is_expected_to_cost_nothing():
    assert CallCosts().expected_s(RPC) == 0.0


def test_the_first_time_is_the_mean_and_each_later_one_moves_it_a_tenth_of_the_way():
    costs = CallCosts()
    costs.record(RPC, 1.0)
    assert costs.expected_s(RPC) == 1.0
    costs.record(RPC, 2.0)  # 1.0 + 0.1 × (2.0 − 1.0)
    assert costs.expected_s(RPC) == pytest.approx(1.1)
    costs.record(RPC, 0.0)  # 1.1 + 0.1 × (0.0 − 1.1)
    assert costs.expected_s(RPC) == pytest.approx(0.99)


def test_each_rpc_has_its_own_mean():
    costs = CallCosts()
    costs.record(RPC, 1.0)
    costs.record("/celestial.v1.SearchService/FindTransits", 9.0)
    assert costs.expected_s(RPC) == 1.0


def test_the_trailing_metadata_reports_milliseconds():
    costs = CallCosts()
    costs.record_metadata(RPC, (("other", "5"), ("x-compute-ms", "250")))
    assert costs.expected_s(RPC) == pytest.approx(0.25)


@pytest.mark.parametrize("metadata", [None, (), (("x-compute-ms", "fast"),), (("x-other", "10"),)])
def test_metadata_without_a_readable_time_counts_nothing(metadata):
    costs = CallCosts()
    costs.record_metadata(RPC, metadata)
    assert costs.expected_s(RPC) == 0.0
