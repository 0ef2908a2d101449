"""A CRD becomes the JSON schema of its storage version (deploy/crd_json_schemas.py), closed to
unknown fields as kubeconform's strict mode is, with its apiVersion and kind pinned."""

from __future__ import annotations

import json

import jsonschema

from deploy.crd_json_schemas import json_schema, main

CRD = {
    "spec": {
        "group": "example.com",
        "names": {"kind": "Widget"},
        "versions": [
            {"name": "v1beta1", "storage": False, "schema": {"openAPIV3Schema": {"type": "object"}}},
            {
                "name": "v1",
                "storage": True,
                "schema": {
                    "openAPIV3Schema": {
                        "type": "object",
                        "properties": {
                            "apiVersion": {"type": "string"},
                            "kind": {"type": "string"},
                            "metadata": {"type": "object"},
                            "spec": {
                                "type": "object",
                                "properties": {
                                    "size": {"type": "integer"},
                                    "extra": {
                                        "type": "object",
                                        "x-kubernetes-preserve-unknown-fields": True,
                                        "properties": {},
                                    },
                                },
                            },
                        },
                    }
                },
            },
        ],
    }
}
WIDGET = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": {"size": 3}}


def valid(doc: dict) -> bool:
    return jsonschema.Draft7Validator(json_schema(CRD)[1]).is_valid(doc)


def test_the_schema_is_the_storage_versions_named_by_group_kind_and_version():
    assert json_schema(CRD)[0] == "example.com_widget_v1.json"
    assert valid(WIDGET)


def test_an_object_that_lists_its_properties_takes_no_others():
    assert not valid({**WIDGET, "spec": {"size": 3, "colour": "red"}})


def test_an_object_that_keeps_unknown_fields_still_takes_them():
    assert valid({**WIDGET, "spec": {"extra": {"anything": 1}}})


def test_the_api_version_and_kind_are_pinned():
    assert not valid({**WIDGET, "apiVersion": "example.com/v2"})
    assert not valid({**WIDGET, "kind": "Gadget"})


def test_the_command_writes_one_file_per_crd(tmp_path):
    (tmp_path / "crd.yaml").write_text(json.dumps(CRD))
    assert main([str(tmp_path), str(tmp_path / "crd.yaml")]) == 0
    assert json.loads((tmp_path / "example.com_widget_v1.json").read_text()) == json_schema(CRD)[1]
