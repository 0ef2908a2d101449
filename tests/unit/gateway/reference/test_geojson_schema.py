"""gateway/reference/geojson_schema.py: the schemas of the astrocartography geometries follow
RFC 7946: a position is [longitude, latitude] (§3.1.1, no altitude here), a LineString has two
or more positions (§3.1.4), a Point one (§3.1.2); checked by validating RFC-shaped geometries
and malformed ones with a JSON Schema validator."""

from __future__ import annotations

import jsonschema
import pytest

from gateway.endpoints import discover_endpoints
from gateway.reference.geojson_schema import GEOJSON_SCHEMAS, LINE_STRING, POINT
from gateway.reference.openapi import build_openapi

GEOMETRY = GEOJSON_SCHEMAS["celestial.v1.GeoJsonGeometry"]


def _valid(schema: dict, value: object) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(value)


def test_rfc_7946_examples_of_a_line_string_and_a_point_are_geometries():
    # RFC 7946 Appendix A.2 and A.1, without altitude.
    assert _valid(GEOMETRY, {"type": "LineString", "coordinates": [[100.0, 0.0], [101.0, 1.0]]})
    assert _valid(GEOMETRY, {"type": "Point", "coordinates": [100.0, 0.0]})


@pytest.mark.parametrize(
    "geometry",
    [
        {"type": "LineString", "coordinates": [[100.0, 0.0]]},  # one position is no line
        {"type": "LineString", "coordinates": [[100.0, 0.0, 5.0], [101.0, 1.0, 5.0]]},  # no altitude
        {"type": "Point", "coordinates": [[100.0, 0.0]]},
        {"type": "Point", "coordinates": ["100", "0"]},
        {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [0, 1], [0, 0]]]},
        {"type": "Point"},
    ],
)
def test_malformed_or_other_geometries_are_not(geometry):
    assert not _valid(GEOMETRY, geometry)


def test_the_titles_name_the_geometry_for_typed_clients():
    assert (LINE_STRING["title"], POINT["title"]) == ("GeoJsonLineString", "GeoJsonPoint")


def test_the_astrocartography_answer_in_the_openapi_document_uses_the_geometry_schema():
    document = build_openapi(discover_endpoints(), version="test")
    operation = document["paths"]["/v1/astrocartography"]["get"]
    # The answer's schema and the components it refers to.
    pending, found = [operation["responses"]["200"], document["components"]["schemas"]], []
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            if item.get("oneOf") == GEOMETRY["oneOf"]:
                found.append(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    assert found, "the answer's geometry is not the GeoJSON geometry schema"
