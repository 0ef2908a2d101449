"""One row per vocabulary (shared/runtime/vocabularies.py), read by validation, the OpenAPI
document and the readers."""

from __future__ import annotations

from celestial.v1 import options_pb2
from shared.runtime.vocabularies import VOCABULARIES


def test_every_vocabulary_of_the_contract_has_its_one_row():
    declared = {value.number for value in options_pb2.Vocabulary.DESCRIPTOR.values if value.number}
    assert set(VOCABULARIES) == declared
    assert all(row.enum == enum for enum, row in VOCABULARIES.items())


def test_the_reference_notes_are_the_rows_notes():
    from gateway.openapi import build_openapi
    from gateway.endpoints import discover_endpoints

    document = str(build_openapi(discover_endpoints(), version="test"))
    for row in VOCABULARIES.values():
        if row.note:
            assert row.note in document
