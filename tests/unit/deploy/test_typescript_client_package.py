"""The TypeScript client package (deploy/typescript_client_package.py): the methods written
from the document are the ones /docs' samples call, and the error codes are the server's."""

from __future__ import annotations

import re

from deploy.client_contract import error_statuses
from deploy.typescript_client_package import typescript_error_codes, typescript_operations
from gateway.endpoints import discover_endpoints
from gateway.reference.code_samples import code_samples
from gateway.reference.openapi import build_openapi

#: The method an x-codeSamples TypeScript source calls (``api.natalChart(``).
SAMPLE_CALL = re.compile(r"await api\.(\w+)\(")


def test_every_method_a_typescript_sample_calls_is_one_the_client_has():
    document = build_openapi(discover_endpoints(), version="test")
    source = typescript_operations(document)
    defined = set(re.findall(r"^  (\w+)\(", source, re.MULTILINE))
    called = {
        SAMPLE_CALL.search(sample["source"]).group(1)  # type: ignore[union-attr]
        for path, operations in document["paths"].items()
        for method in operations
        for sample in code_samples(path, method, operations)
        if sample["lang"] == "TypeScript"
    }
    assert len(called) > 40 and called <= defined


def test_the_typescript_error_codes_are_the_servers_catalogue_with_its_statuses():
    statuses = error_statuses()
    rows = dict(re.findall(r"^  (\w+): (\d+),$", typescript_error_codes(statuses), re.MULTILINE))
    assert {code: int(status) for code, status in rows.items()} == statuses and "chart_not_found" in rows
