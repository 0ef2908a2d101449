"""The dev overlay of deploy/k8s, its Deployments run by `podman kube play` on one podman network.

Podman 4.3 differs from a cluster in two ways the test's own kustomize patch (written into
build/kube-play, beside the overlay it patches, as kustomize wants) makes up for: pods reach
each other by pod name (``<deployment>-pod-0``), not by Service name, so the pools' addresses
name the pods; and it publishes every containerPort on the host, so the pools' ports are
removed (four pods cannot all take 50051, nor their /metrics 9102) and the gateway's is
published on a free port of 127.0.0.1 (its /metrics ports, and its worker's, unpublished).
Everything else (commands, environment, probes, security contexts, volumes) is what the
overlay renders.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field

import yaml

from deploy.local_stack import free_port_block
from shared.runtime.config import REPO_ROOT, SERVICE_NAMES
from tests.image.container_stack import podman, wait_ready

WORK = REPO_ROOT / "build" / "kube-play"
#: What podman plays: the workloads and the ConfigMaps they read.
PLAYED_KINDS = ("Deployment", "ConfigMap")
#: The kinds only a cluster runs, skipped here (tests/unit/deploy checks them: the Kubernetes
#: API's schemas, the vendored ones of KEDA and prometheus-operator, and their rules).
CLUSTER_KINDS = {
    "Namespace": "podman has none; the pods run on the test's own network",
    "Service": "pods reach each other by pod name under podman (see the module's docstring)",
    "Ingress": "the gateway's port is published on 127.0.0.1 instead",
    "NetworkPolicy": "podman does not enforce them",
    "PodDisruptionBudget": "nothing drains a node here",
    "ScaledObject": "KEDA's: it scales a cluster's Deployments on Prometheus' answers",
    "PodMonitor": "prometheus-operator's: it tells a cluster's Prometheus what to scrape",
    "PrometheusRule": "prometheus-operator's: a cluster's Prometheus evaluates the alerts",
}


def playable(docs: list[dict]) -> list[dict]:
    """Return the objects of ``docs`` podman plays; a kind neither played nor listed in
    :data:`CLUSTER_KINDS` is an error, so no new kind is skipped unseen."""
    unknown = {doc["kind"] for doc in docs} - set(PLAYED_KINDS) - set(CLUSTER_KINDS)
    if unknown:
        raise ValueError(f"kinds neither played nor listed in CLUSTER_KINDS: {sorted(unknown)}")
    return [doc for doc in docs if doc["kind"] in PLAYED_KINDS]


def kustomization(image: str, gateway_port: int) -> str:
    """Return the test's kustomization of the dev overlay (see the module's docstring)."""
    name, tag = image.rsplit(":", 1)
    addresses = "".join(
        f"      - op: replace\n        path: /data/CELESTIAL_{pool.upper()}_ADDRESSES\n        value: "
        f"{pool}-pod-0:50051\n"
        for pool in SERVICE_NAMES
    )
    unpublished = "".join(
        f"  - target: {{kind: Deployment, name: {pool}}}\n    patch: |-\n      - op: remove\n        path: "
        "/spec/template/spec/containers/0/ports\n"
        for pool in SERVICE_NAMES
    )
    return (
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - "
        f"../../deploy/k8s/overlays/dev\nimages:\n  - name: localhost/celestial\n    newName: {name}\n    newTag: "
        f"{tag}\npatches:\n  - target: {{kind: ConfigMap, name: celestial-config}}\n    patch: "
        f"|-\n{addresses}{unpublished}  - target: {{kind: Deployment, name: gateway}}\n    patch: |-\n      - op: "
        f"add\n        path: /spec/template/spec/containers/0/ports/0/hostPort\n        value: {gateway_port}\n      "
        "- op: add\n        path: /spec/template/spec/containers/0/ports/0/hostIP\n        value: 127.0.0.1\n"
        # Its /metrics ports (the gateway's and the worker's beside it) are not published either.
        "      - op: remove\n        path: /spec/template/spec/containers/0/ports/1\n"
        "      - op: remove\n        path: /spec/template/spec/containers/1/ports\n"
    )


def env_over_config_maps(docs: list[dict]) -> list[dict]:
    """Return ``docs`` with each container's ``env`` values that a ConfigMap of its ``envFrom``
    also sets moved into a ConfigMap of the container's own, listed last in its ``envFrom``.

    Podman 4.3 lets ``envFrom`` win over ``env`` (podman issue 27287, fixed in 5.x); Kubernetes
    lets ``env`` win, and the dev overlay relies on it (the webhook worker's CELESTIAL_METRICS_PORT
    beside the gateway's, in one pod). Later ``envFrom`` sources win in both."""
    maps = {doc["metadata"]["name"]: doc.get("data", {}) for doc in docs if doc["kind"] == "ConfigMap"}
    added = []
    for doc in docs:
        if doc["kind"] != "Deployment":
            continue
        for container in doc["spec"]["template"]["spec"]["containers"]:
            shared = {
                key
                for source in container.get("envFrom", ())
                for key in maps.get(source.get("configMapRef", {}).get("name"), {})
            }
            own = {e["name"]: e["value"] for e in container.get("env", ()) if "value" in e and e["name"] in shared}
            if own:
                name = f"{doc['metadata']['name']}-{container['name']}-env"
                added.append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": own})
                container["envFrom"] = [*container["envFrom"], {"configMapRef": {"name": name}}]
    return docs + added


@dataclass
class KubePlayStack:
    """The dev overlay's Deployments played by podman, and the gateway's published URL."""

    image: str
    network: str = field(default_factory=lambda: f"kube-{os.urandom(3).hex()}")
    base_url: str = ""

    @property
    def played(self):
        return WORK / "play.yaml"

    def start(self) -> None:
        WORK.mkdir(parents=True, exist_ok=True)
        port = free_port_block(1)
        (WORK / "kustomization.yaml").write_text(kustomization(self.image, port))
        rendered = subprocess.run(
            ["kubectl", "kustomize", str(WORK)], capture_output=True, text=True, check=True
        ).stdout
        docs = playable([doc for doc in yaml.safe_load_all(rendered) if doc])
        self.played.write_text(yaml.safe_dump_all(env_over_config_maps(docs)))
        podman("network", "create", self.network)
        podman("kube", "play", "--network", self.network, str(self.played))
        self.base_url = f"http://127.0.0.1:{port}"
        wait_ready(self.base_url, lambda: podman("logs", "gateway-pod-0-gateway", check=False).stdout[-4000:])

    def admin(self, *args: str) -> str:
        """Return what ``celestial-admin ARGS`` prints, run in the gateway's container (the
        dev overlay keeps the store in that pod's SQLite file)."""
        return podman("exec", "gateway-pod-0-gateway", "celestial-admin", *args).stdout

    def stop(self) -> None:
        podman("kube", "down", str(self.played), check=False)
        podman("network", "rm", "--force", self.network, check=False)
