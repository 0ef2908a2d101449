"""Validate rendered Kubernetes manifests: Kubernetes' own kinds against the API's schemas
(``kubernetes-validate``, strict), the cluster-only kinds (KEDA, prometheus-operator) against
the JSON schemas vendored in deploy/k8s/schemas/ (README.md there names their releases).

Run: ``python -m deploy.manifest_schemas RENDERED.yaml...`` (``make policy`` runs it over both
overlays and the admin Job); it prints each object that fails and exits 1 if any did.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

import jsonschema
import kubernetes_validate
import yaml

SCHEMAS = Path(__file__).resolve().parent / "k8s" / "schemas"
#: The Kubernetes release whose API schemas the manifests are held to.
KUBERNETES_VERSION = "1.32.0"
#: The cluster-only kinds: (apiVersion, kind) → their vendored schema's file.
CLUSTER_SCHEMAS = {
    ("keda.sh/v1alpha1", "ScaledObject"): "keda.sh_scaledobject_v1alpha1.json",
    ("monitoring.coreos.com/v1", "PodMonitor"): "monitoring.coreos.com_podmonitor_v1.json",
    ("monitoring.coreos.com/v1", "PrometheusRule"): "monitoring.coreos.com_prometheusrule_v1.json",
}


@cache
def _validator(file: str) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(json.loads((SCHEMAS / file).read_text()))


def problems(doc: dict) -> list[str]:
    """Return what is wrong with one manifest object (empty when it validates)."""
    file = CLUSTER_SCHEMAS.get((doc.get("apiVersion"), doc.get("kind")))
    if file is not None:
        return [
            f"{'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}"
            for error in _validator(file).iter_errors(doc)
        ]
    try:
        kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)
    except kubernetes_validate.SchemaNotFoundError:
        kind = f"{doc.get('apiVersion')} {doc.get('kind')}"
        return [f"no schema for {kind} (a cluster-only kind needs one in CLUSTER_SCHEMAS)"]
    except kubernetes_validate.ValidationError as error:
        return [str(error).splitlines()[0]]
    return []


def main(paths: list[str]) -> int:
    failed = checked = 0
    for path in paths:
        for doc in yaml.safe_load_all(Path(path).read_text()):
            if not doc:
                continue
            checked += 1
            for problem in problems(doc):
                failed += 1
                print(f"{path}: {doc['kind']}/{doc['metadata']['name']}: {problem}")
    print(f"{checked} objects checked, {failed} problems")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
