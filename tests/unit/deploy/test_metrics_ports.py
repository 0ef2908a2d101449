"""deploy/metrics_ports.py: `make run` gives each process its own ``/metrics`` port from
CELESTIAL_METRICS_BASE_PORT, in the supervisor's order, and none when that is 0."""

from __future__ import annotations

from deploy.metrics_ports import metrics_ports, with_metrics_ports
from deploy.supervisor import plan
from shared.runtime.config import load_settings


def test_each_process_gets_its_own_port_from_the_base_upward():
    children = plan(load_settings({"CELESTIAL_EPHEMERIS_PROCESSES": "2"}))
    with_metrics_ports(children, 19000)
    ports = [int(child.env["CELESTIAL_METRICS_PORT"]) for child in children]
    assert ports == list(range(19000, 19000 + len(children)))
    assert children[-1].name == "gateway" and any(c.name.startswith("webhook-worker") for c in children)


def test_no_base_port_serves_no_metrics():
    children = with_metrics_ports(plan(load_settings({})), 0)
    assert not [child for child in children if "CELESTIAL_METRICS_PORT" in child.env]
    assert metrics_ports(["gateway"], 0) == {}
