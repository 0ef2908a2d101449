"""The queries of deploy/k8s (the ScaledObjects', the alerts' and the dashboard's) read only the
metrics of the catalogue (tests/metric_catalogue.py), with the labels those metrics have."""

from __future__ import annotations

import importlib
import json
import re

import pytest
import yaml

from shared.metrics_recording import catalogue
from shared.runtime.config import REPO_ROOT
from tests.metric_catalogue import CATALOGUE, TARGET_LABELS, series_names

BASE = REPO_ROOT / "deploy" / "k8s" / "base"
DASHBOARD = REPO_ROOT / "deploy" / "k8s" / "dashboards" / "celestial.json"
#: A series named in PromQL, and its selector's braces if it has one.
SERIES = re.compile(r"\b(celestial_[a-z0-9_]+)(\{[^}]*\})?")
#: A label matcher inside a selector: its label's name.
MATCHER = re.compile(r"([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)")


def scaler_queries() -> list[str]:
    docs = yaml.safe_load_all((BASE / "autoscaling.yaml").read_text())
    return [t["metadata"]["query"] for doc in docs for t in doc["spec"]["triggers"] if t["type"] == "prometheus"]


def alert_queries() -> list[str]:
    rule = yaml.safe_load((BASE / "alerts.yaml").read_text())
    return [r["expr"] for group in rule["spec"]["groups"] for r in group["rules"]]


def dashboard_queries() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    panels = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", ())]
    variables = [v["query"]["query"] for v in dashboard["templating"]["list"] if isinstance(v.get("query"), dict)]
    return panels + variables


QUERIES = {"scalers": scaler_queries, "alerts": alert_queries, "dashboard": dashboard_queries}


@pytest.mark.parametrize("source", QUERIES)
def test_every_metric_a_query_names_is_in_the_catalogue(source):
    queries = QUERIES[source]()
    named = {name for query in queries for name, _ in SERIES.findall(query)}
    assert named, source
    assert named - set(series_names()) == set()


@pytest.mark.parametrize("source", QUERIES)
def test_every_label_a_selector_matches_is_one_its_metric_has(source):
    known = series_names()
    for query in QUERIES[source]():
        for name, selector in SERIES.findall(query):
            labels = set(known[name].labels) | set(TARGET_LABELS) | ({"le"} if name.endswith("_bucket") else set())
            assert set(MATCHER.findall(selector)) <= labels, (name, selector)


def test_the_dashboard_shows_every_metric_of_the_catalogue():
    named = {series_names()[name].name for query in dashboard_queries() for name, _ in SERIES.findall(query)}
    assert named == {metric.name for metric in CATALOGUE}


def test_each_pool_scales_on_its_own_expected_wait():
    for query in scaler_queries():
        ((name, selector),) = SERIES.findall(query)
        assert name == "celestial_pool_expected_wait_seconds"
        assert re.search(r'pool="\w+"', selector)


def test_the_catalogue_is_what_the_processes_register():
    for module in (
        "gateway.request_metrics",
        "gateway.pool_metrics",
        "gateway.credit_metrics",
        "store.transaction_metrics",
        "shared.runtime.rpc_metrics",
        "webhooks.delivery_metrics",
    ):
        importlib.import_module(module)
    assert catalogue() == {metric.name: (metric.type, metric.labels) for metric in CATALOGUE}
