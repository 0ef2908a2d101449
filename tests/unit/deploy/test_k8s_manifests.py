"""The Kubernetes manifests (deploy/k8s, issue 26): both overlays render with kustomize, every
object validates against the Kubernetes API's schemas (the cluster-only kinds against their
projects' schemas, deploy/manifest_schemas.py), and the operational rules the manifests promise
hold in what they render (each test is named after its rule)."""

from __future__ import annotations

import json
import subprocess
from functools import cache

import pytest
import yaml

from deploy.manifest_schemas import problems
from shared.runtime.config import REPO_ROOT
from tests.image.kube_play_stack import CLUSTER_KINDS, PLAYED_KINDS, env_over_config_maps, playable

OVERLAYS = ("dev", "prod")
POOLS = ("ephemeris", "timelords", "search", "astrocartography")
SCAN_POOLS = ("search", "astrocartography")

#: Every test here reads manifests rendered by kubectl, a process of its own.
pytestmark = pytest.mark.usefixtures("processes")


@cache
def rendered(overlay: str) -> tuple[dict, ...]:
    """Return the objects `kubectl kustomize` renders for ``overlay``."""
    output = subprocess.run(
        ["kubectl", "kustomize", str(REPO_ROOT / "deploy" / "k8s" / "overlays" / overlay)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return tuple(doc for doc in yaml.safe_load_all(output) if doc)


def objects(overlay: str, kind: str) -> dict[str, dict]:
    return {doc["metadata"]["name"]: doc for doc in rendered(overlay) if doc["kind"] == kind}


def containers(overlay: str) -> list[tuple[str, dict, dict]]:
    """Return (workload name, pod spec, container) of every Deployment and StatefulSet."""
    found = []
    for kind in ("Deployment", "StatefulSet"):
        for name, workload in objects(overlay, kind).items():
            pod = workload["spec"]["template"]["spec"]
            found += [(name, pod, container) for container in pod["containers"]]
    return found


def env_of(container: dict) -> dict[str, str]:
    return {item["name"]: item.get("value") for item in container.get("env", [])}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_rendered_object_validates_against_the_kubernetes_schemas(overlay):
    found = {f"{doc['kind']}/{doc['metadata']['name']}": problems(doc) for doc in rendered(overlay)}
    assert {name: wrong for name, wrong in found.items() if wrong} == {}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_process_runs_as_a_non_root_user_on_a_read_only_root_with_no_privilege_to_gain(overlay):
    for name, pod, container in containers(overlay):
        assert pod["securityContext"]["runAsNonRoot"] is True, name
        security = container["securityContext"]
        assert security["allowPrivilegeEscalation"] is False and security["readOnlyRootFilesystem"] is True, name
        assert security["capabilities"]["drop"] == ["ALL"], name
        assert pod["automountServiceAccountToken"] is False, name


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_container_has_resource_requests_and_limits_and_probes(overlay):
    for name, _pod, container in containers(overlay):
        resources = container["resources"]
        assert set(resources["requests"]) == set(resources["limits"]) == {"cpu", "memory"}, name
        assert "readinessProbe" in container and "livenessProbe" in container, name


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_each_pool_is_a_headless_service_probed_by_the_standard_grpc_health_check(overlay):
    services, deployments = objects(overlay, "Service"), objects(overlay, "Deployment")
    for pool in POOLS:
        assert services[pool]["spec"]["clusterIP"] == "None"
        container = deployments[pool]["spec"]["template"]["spec"]["containers"][0]
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            assert container[probe]["grpc"] == {"port": 50051}, (pool, probe)
        assert container["command"][-4:] == ["--host", "0.0.0.0", "--port", "50051"]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_a_pod_stopped_gets_longer_than_its_process_gives_the_calls_it_holds(overlay):
    for pool, deployment in objects(overlay, "Deployment").items():
        pod = deployment["spec"]["template"]["spec"]
        grace_s = float(env_of(pod["containers"][0])["CELESTIAL_SHUTDOWN_GRACE_S"])
        assert pod["terminationGracePeriodSeconds"] > grace_s
        if pool in (*SCAN_POOLS, "gateway"):
            assert grace_s > 60, "a scan's deadline is 60 s"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_pool_autoscales_through_keda_and_has_a_disruption_budget(overlay):
    scaled = {so["spec"]["scaleTargetRef"]["name"] for so in objects(overlay, "ScaledObject").values()}
    assert scaled == set(POOLS)
    assert not objects(overlay, "HorizontalPodAutoscaler"), "KEDA makes each pool's HPA"
    budgets = {
        pdb["spec"]["selector"]["matchLabels"]["app.kubernetes.io/component"]
        for pdb in objects(overlay, "PodDisruptionBudget").values()
    }
    assert set(POOLS) | {"gateway"} <= budgets


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_only_the_gateway_reaches_the_pools(overlay):
    policy = objects(overlay, "NetworkPolicy")["pools-from-gateway"]["spec"]
    assert policy["podSelector"]["matchLabels"] == {"celestial.example/role": "pool"}
    assert [source["podSelector"]["matchLabels"] for rule in policy["ingress"] for source in rule["from"]] == [
        {"app.kubernetes.io/component": "gateway"}
    ]
    for pool in POOLS:
        labels = objects(overlay, "Deployment")[pool]["spec"]["template"]["metadata"]["labels"]
        assert labels["celestial.example/role"] == "pool"


def test_dev_runs_one_of_each_with_sqlite_on_an_empty_dir():
    deployments = objects("dev", "Deployment")
    assert {name: d["spec"]["replicas"] for name, d in deployments.items()} == dict.fromkeys(("gateway", *POOLS), 1)
    gateway = deployments["gateway"]["spec"]["template"]["spec"]
    assert {"name": "data", "mountPath": "/var/lib/celestial"} in gateway["containers"][0]["volumeMounts"]
    assert "CELESTIAL_NATS_URL" not in env_of(gateway["containers"][0])
    assert not objects("dev", "StatefulSet")


def test_prod_keeps_the_ledger_in_three_nats_nodes_with_three_replicas_behind_three_gateways():
    nats = objects("prod", "StatefulSet")["nats"]
    assert nats["spec"]["replicas"] == 3 and nats["spec"]["volumeClaimTemplates"]
    gateway = objects("prod", "Deployment")["gateway"]
    assert gateway["spec"]["replicas"] == 3
    container = gateway["spec"]["template"]["spec"]["containers"][0]
    assert env_of(container)["CELESTIAL_NATS_REPLICAS"] == "3"
    secrets = {
        item["name"]: item["valueFrom"]["secretKeyRef"]["key"] for item in container["env"] if "valueFrom" in item
    }
    assert secrets == {"CELESTIAL_NATS_URL": "nats-url", "CELESTIAL_ADMIN_TOKEN": "admin-token"}
    policy = objects("prod", "NetworkPolicy")["nats"]["spec"]
    client_sources = [source["podSelector"]["matchLabels"] for source in policy["ingress"][0]["from"]]
    assert client_sources == [
        {"app.kubernetes.io/component": "gateway"},
        {"celestial.example/role": "admin"},
        {"app.kubernetes.io/component": "webhook-worker"},
    ]


def test_prod_runs_two_webhook_workers_on_the_nats_store():
    worker = objects("prod", "Deployment")["webhook-worker"]
    assert worker["spec"]["replicas"] == 2
    container = worker["spec"]["template"]["spec"]["containers"][0]
    assert container["command"] == ["python", "-m", "webhooks.worker"]
    secrets = {
        item["name"]: item["valueFrom"]["secretKeyRef"]["key"] for item in container["env"] if "valueFrom" in item
    }
    assert secrets == {"CELESTIAL_NATS_URL": "nats-url"}


def test_dev_runs_the_webhook_worker_beside_the_gateway_on_its_sqlite_file():
    assert "webhook-worker" not in objects("dev", "Deployment")
    pod = objects("dev", "Deployment")["gateway"]["spec"]["template"]["spec"]
    gateway, worker = pod["containers"]
    assert worker["command"] == ["python", "-m", "webhooks.worker"]
    assert {"name": "data", "mountPath": "/var/lib/celestial"} in worker["volumeMounts"]
    assert "CELESTIAL_NATS_URL" not in env_of(worker)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_a_webhook_workers_liveness_is_its_heartbeat(overlay):
    for name, _pod, container in containers(overlay):
        if container["name"] == "webhook-worker":
            heartbeat = env_of(container)["CELESTIAL_WEBHOOK_HEARTBEAT_PATH"]
            assert heartbeat in " ".join(container["livenessProbe"]["exec"]["command"]), name


def test_the_pools_addresses_are_their_service_names_and_connections_age():
    config = objects("prod", "ConfigMap")["celestial-config"]["data"]
    for pool in POOLS:
        assert config[f"CELESTIAL_{pool.upper()}_ADDRESSES"] == f"{pool}:50051"
    assert float(config["CELESTIAL_SERVICE_CONNECTION_AGE_S"]) <= 60


def test_the_manifests_name_the_release_tag_make_image_builds():
    version = next(
        line.split('"')[1]
        for line in (REPO_ROOT / "pyproject.toml").read_text().splitlines()
        if line.startswith("version = ")
    )
    for overlay in OVERLAYS:
        for name, _pod, container in containers(overlay):
            if name != "nats":
                assert container["image"] == f"localhost/celestial:{version}", name


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_each_gateway_plans_for_as_many_replicas_as_each_pool_may_run(overlay):
    config = objects(overlay, "ConfigMap")["celestial-config"]["data"]
    for pool in POOLS:
        scaled = objects(overlay, "ScaledObject")[pool]["spec"]
        assert int(config[f"CELESTIAL_{pool.upper()}_PROCESSES"]) == scaled["maxReplicaCount"], pool


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_a_pool_starts_with_the_replicas_its_autoscaler_keeps_at_least(overlay):
    deployments = objects(overlay, "Deployment")
    for pool, scaled in objects(overlay, "ScaledObject").items():
        assert scaled["spec"]["minReplicaCount"] == deployments[pool]["spec"]["replicas"], pool


def test_nothing_reaches_a_webhook_worker():
    policy = objects("prod", "NetworkPolicy")["webhook-worker-no-ingress"]["spec"]
    assert policy["podSelector"]["matchLabels"] == {"app.kubernetes.io/component": "webhook-worker"}
    assert policy["policyTypes"] == ["Ingress"] and not policy.get("ingress")


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_webhook_workers_are_given_the_search_pools_address(overlay):
    config = objects(overlay, "ConfigMap")["celestial-config"]["data"]
    assert config["CELESTIAL_SEARCH_ADDRESSES"] == "search:50051"
    workers = [container for _name, _pod, container in containers(overlay) if container["name"] == "webhook-worker"]
    assert workers
    for worker in workers:
        assert {"configMapRef": {"name": "celestial-config"}} in worker["envFrom"]
        assert "CELESTIAL_SEARCH_ADDRESSES" not in env_of(worker)  # nothing overrides the config's


def test_the_webhook_workers_reach_the_search_pool_and_no_other():
    policy = objects("prod", "NetworkPolicy")["search-from-webhook-workers"]["spec"]
    assert policy["podSelector"]["matchLabels"] == {"app.kubernetes.io/component": "search"}
    assert [source["podSelector"]["matchLabels"] for rule in policy["ingress"] for source in rule["from"]] == [
        {"app.kubernetes.io/component": "webhook-worker"}
    ]
    assert [port["port"] for rule in policy["ingress"] for port in rule["ports"]] == [50051]
    admitting = [
        name
        for name, p in objects("prod", "NetworkPolicy").items()
        if any(
            source.get("podSelector", {}).get("matchLabels") == {"app.kubernetes.io/component": "webhook-worker"}
            for rule in p["spec"].get("ingress", [])
            for source in rule.get("from", [])
        )
    ]
    assert sorted(admitting) == ["nats", "search-from-webhook-workers"]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_prometheus_scrapes_every_process_kind_on_its_metrics_port(overlay):
    monitor = objects(overlay, "PodMonitor")["celestial"]["spec"]
    (selected,) = monitor["selector"]["matchExpressions"]
    assert selected["key"] == "app.kubernetes.io/component" and selected["operator"] == "In"
    kinds = {
        workload["spec"]["selector"]["matchLabels"]["app.kubernetes.io/component"]
        for workload in objects(overlay, "Deployment").values()
    }
    assert kinds <= set(selected["values"])
    assert set(selected["values"]) == {"gateway", *POOLS, "webhook-worker"}
    declared = {
        port["name"]
        for _name, _pod, container in containers(overlay)
        for port in container.get("ports", [])
        if "metrics" in port["name"]
    }
    assert {endpoint["port"] for endpoint in monitor["podMetricsEndpoints"]} == declared


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_dashboard_is_rendered_for_grafanas_sidecar(overlay):
    (dashboards,) = [c for name, c in objects(overlay, "ConfigMap").items() if name.startswith("celestial-dashboards")]
    assert dashboards["metadata"]["labels"]["grafana_dashboard"] == "1"
    dashboard = json.loads(dashboards["data"]["celestial.json"])
    assert dashboard["uid"] == "celestial" and dashboard["panels"]


def test_kube_play_runs_or_names_as_cluster_only_every_kind_the_dev_overlay_renders():
    played = playable(list(rendered("dev")))
    assert {doc["kind"] for doc in played} == set(PLAYED_KINDS)
    assert {doc["kind"] for doc in rendered("dev")} - set(PLAYED_KINDS) <= set(CLUSTER_KINDS)
    with pytest.raises(ValueError, match="Widget"):
        playable([{"kind": "Widget"}])


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_process_serves_its_metrics_on_a_port_of_its_own_in_its_pod(overlay):
    config = objects(overlay, "ConfigMap")["celestial-config"]["data"]
    assert config["CELESTIAL_METRICS_HOST"] == "0.0.0.0" and "CELESTIAL_METRICS_PORT" not in config
    ports_by_pod: dict[str, list[int]] = {}
    for name, _pod, container in containers(overlay):
        if container["name"] == "nats":
            continue
        port = int(env_of(container)["CELESTIAL_METRICS_PORT"])  # its own: podman lets envFrom win over env
        declared = {p["containerPort"]: p["name"] for p in container.get("ports", [])}
        assert "metrics" in declared.get(port, ""), (name, container["name"])
        ports_by_pod.setdefault(name, []).append(port)
    for name, ports in ports_by_pod.items():
        assert len(ports) == len(set(ports)), name  # two binds of one port stop the pod


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_only_the_monitoring_namespace_reaches_the_metrics(overlay):
    policy = objects(overlay, "NetworkPolicy")["metrics-from-monitoring"]["spec"]
    assert policy["podSelector"] == {} and policy["policyTypes"] == ["Ingress"]
    (rule,) = policy["ingress"]
    assert rule["from"] == [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "monitoring"}}}]
    metrics_ports = {
        port["containerPort"]
        for _name, _pod, container in containers(overlay)
        for port in container.get("ports", [])
        if "metrics" in port["name"]
    }
    assert {port["port"] for port in rule["ports"]} == metrics_ports


def test_kube_play_keeps_the_env_a_container_sets_over_its_config_maps():
    # Podman 4.3 lets envFrom win over env: a value both set moves into the container's own
    # ConfigMap, listed last, so the container's own value wins there as on a cluster.
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "shared"}, "data": {"PORT": "9102"}}
    container = {
        "name": "worker",
        "envFrom": [{"configMapRef": {"name": "shared"}}],
        "env": [{"name": "PORT", "value": "9103"}, {"name": "ONLY_MINE", "value": "1"}],
    }
    deployment = {
        "kind": "Deployment",
        "metadata": {"name": "gateway"},
        "spec": {"template": {"spec": {"containers": [container]}}},
    }
    docs = env_over_config_maps([config, deployment])
    (own,) = [doc for doc in docs if doc["metadata"]["name"] == container["envFrom"][-1]["configMapRef"]["name"]]
    assert own["data"] == {"PORT": "9103"}
