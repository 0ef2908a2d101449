"""Rendered manifests are validated (deploy/manifest_schemas.py): Kubernetes' kinds against the
API's schemas, the cluster-only kinds against the vendored schemas of their projects, and a kind
with neither is a problem, not a pass."""

from __future__ import annotations

import pytest
import yaml

from deploy.manifest_schemas import CLUSTER_SCHEMAS, SCHEMAS, main, problems

SCALED = {
    "apiVersion": "keda.sh/v1alpha1",
    "kind": "ScaledObject",
    "metadata": {"name": "search"},
    "spec": {"scaleTargetRef": {"name": "search"}, "triggers": [{"type": "cpu", "metadata": {"value": "70"}}]},
}


def test_a_cluster_only_kind_validates_against_its_projects_schema():
    assert problems(SCALED) == []


def test_a_misspelt_field_of_a_cluster_only_kind_is_a_problem():
    misspelt = {**SCALED, "spec": {**SCALED["spec"], "minReplicas": 1}}
    assert problems(misspelt) == ["spec: Additional properties are not allowed ('minReplicas' was unexpected)"]


def test_a_wrong_type_in_a_cluster_only_kind_is_a_problem():
    wrong = {**SCALED, "spec": {**SCALED["spec"], "maxReplicaCount": "eight"}}
    assert problems(wrong) and "maxReplicaCount" in problems(wrong)[0]


def test_a_kubernetes_kind_validates_against_the_apis_schema_strictly():
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"A": "1"}}
    assert problems(config) == []
    assert problems({**config, "datum": {}})


def test_a_kind_with_no_schema_is_a_problem():
    assert problems({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}) == [
        "no schema for example.com/v1 Widget (a cluster-only kind needs one in CLUSTER_SCHEMAS)"
    ]


def test_every_vendored_schema_is_named_and_every_named_one_is_vendored():
    assert {path.name for path in SCHEMAS.glob("*.json")} == set(CLUSTER_SCHEMAS.values())


@pytest.mark.parametrize("broken", [False, True])
def test_the_command_fails_when_any_object_has_a_problem(broken, tmp_path, capsys):
    doc = {**SCALED, "spec": {**SCALED["spec"], "minReplicas": 1}} if broken else SCALED
    (tmp_path / "r.yaml").write_text(yaml.safe_dump_all([doc, None]))
    assert main([str(tmp_path / "r.yaml")]) == int(broken)
    assert f"1 objects checked, {int(broken)} problems" in capsys.readouterr().out
