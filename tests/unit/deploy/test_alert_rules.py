"""The alerts (deploy/k8s/base/alerts.yaml, issue 50), as both overlays render them: Prometheus'
own promtool checks the rules and runs their unit tests (alert_rules_tests.yaml beside this
file), every alert has a test that makes it fire, and the operation classes the latency
objectives group by are the status page's operation classes."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import yaml

from gateway.operation_classes import CLASS_OF_PATH, OPERATION_CLASSES
from gateway.operation_names import operation_name
from tests.unit.deploy.test_k8s_manifests import OVERLAYS, objects

pytestmark = pytest.mark.usefixtures("processes")

TESTS = Path(__file__).with_name("alert_rules_tests.yaml")


def rule_groups(overlay: str = "prod") -> dict:
    """Return the rendered PrometheusRule's spec: a Prometheus rule file's content."""
    return objects(overlay, "PrometheusRule")["celestial"]["spec"]


def rules(overlay: str = "prod") -> list[dict]:
    return [rule for group in rule_groups(overlay)["groups"] for rule in group["rules"]]


def promtool(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump(rule_groups()))
    return subprocess.run(["promtool", *args], cwd=tmp_path, capture_output=True, text=True)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_promtool_finds_the_rules_well_formed(overlay, tmp_path):
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump(rule_groups(overlay)))
    checked = subprocess.run(["promtool", "check", "rules", "rules.yaml"], cwd=tmp_path, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_every_alert_fires_as_its_promtool_test_expects(tmp_path):
    tests = yaml.safe_load(TESTS.read_text())
    (tmp_path / "tests.yaml").write_text(yaml.safe_dump({**tests, "rule_files": ["rules.yaml"]}))
    result = promtool(tmp_path, "test", "rules", "tests.yaml")
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_alert_has_a_test_that_makes_it_fire():
    alerts = {rule["alert"] for rule in rules() if "alert" in rule}
    firing = {
        case["alertname"]
        for group in yaml.safe_load(TESTS.read_text())["tests"]
        for case in group.get("alert_rule_test", ())
        if case["exp_alerts"]
    }
    assert firing == alerts


def test_every_alert_says_how_severe_it_is_and_what_to_look_at():
    for rule in rules():
        if "alert" in rule:
            assert rule["labels"]["severity"] in ("page", "ticket"), rule["alert"]
            assert rule["annotations"]["summary"] and rule["annotations"]["description"], rule["alert"]


def classes_of_operations() -> dict[str, set[str]]:
    """Return the operations of each class of the status page (gateway/operation_classes.py)."""
    classes: dict[str, set[str]] = {name: set() for name in OPERATION_CLASSES}
    for path, op_class in CLASS_OF_PATH.items():
        classes[op_class].add(operation_name(path))
    return classes


def test_each_latency_class_holds_exactly_the_operations_of_its_status_page_class():
    recorded = {}
    for rule in rules():
        if rule.get("record") == "celestial:http_request_duration_seconds_bucket:rate5m":
            (operations,) = re.findall(r'operation=~"([^"]+)"', rule["expr"])
            recorded[rule["labels"]["class"]] = set(operations.split("|"))
    assert recorded == classes_of_operations()


def test_every_operation_class_has_a_latency_alert():
    alerted = set()
    for rule in rules():
        if "alert" in rule:
            alerted.update(re.findall(r'p99_rate5m\{class="(\w+)"\}', rule["expr"]))
    assert alerted == set(OPERATION_CLASSES)
