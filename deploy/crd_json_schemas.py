"""Turn CustomResourceDefinitions into the JSON schemas deploy/k8s/schemas/ vendors, one per kind.

The cluster-only kinds the manifests use (KEDA's ScaledObject, prometheus-operator's PodMonitor
and PrometheusRule) are not Kubernetes' own, so ``kubernetes-validate`` has no schema for them;
their projects publish CRDs whose ``openAPIV3Schema`` is one. As kubeconform's
``openapi2jsonschema`` does in its strict mode, an object that lists its properties takes no
others (unless the CRD keeps unknown fields), so a misspelt field (``minReplicas`` for
``minReplicaCount``) fails, and ``apiVersion`` and ``kind`` are pinned. deploy/k8s/schemas/README.md
names the release each file came from.

Run: ``python -m deploy.crd_json_schemas OUTPUT_DIR CRD.yaml...``.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import yaml

#: The JSON Schema dialect of the files written (the one kubeconform's schemas use).
DIALECT = "http://json-schema.org/draft-07/schema#"


def closed(schema: object) -> object:
    """Return ``schema`` with every object that lists properties closed to others (a copy)."""
    if isinstance(schema, list):
        return [closed(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    found = {key: closed(value) for key, value in schema.items()}
    if (
        found.get("type") == "object"
        and "properties" in found
        and "additionalProperties" not in found
        and not found.get("x-kubernetes-preserve-unknown-fields")
    ):
        found["additionalProperties"] = False
    return found


def json_schema(crd: dict) -> tuple[str, dict]:
    """Return the file name (``<group>_<kind>_<version>.json``, lower case) and the JSON schema
    of the storage version of ``crd``."""
    spec = crd["spec"]
    (version,) = [v for v in spec["versions"] if v.get("storage")]
    kind = spec["names"]["kind"]
    schema = closed(copy.deepcopy(version["schema"]["openAPIV3Schema"]))
    schema["properties"]["apiVersion"] = {"enum": [f"{spec['group']}/{version['name']}"]}
    schema["properties"]["kind"] = {"enum": [kind]}
    schema["required"] = sorted({*schema.get("required", ()), "apiVersion", "kind", "metadata", "spec"})
    return f"{spec['group']}_{kind.lower()}_{version['name']}.json", {"$schema": DIALECT, **schema}


def main(argv: list[str]) -> int:
    output, *crds = argv
    for path in crds:
        name, schema = json_schema(yaml.safe_load(Path(path).read_text()))
        (Path(output) / name).write_text(json.dumps(schema, indent=1, sort_keys=True) + "\n")
        print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
