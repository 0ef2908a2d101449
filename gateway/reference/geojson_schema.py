"""The JSON Schemas of the GeoJSON geometries /v1/astrocartography answers (RFC 7946), which
the proto cannot state: a geometry's ``coordinates`` is a ``google.protobuf.ListValue``, any
JSON array to protobuf, but a position or a list of positions to every GeoJSON reader.

The OpenAPI document uses them in place of the message's own schema, so a typed client gets
a LineString's coordinates as lists of ``[longitude, latitude]`` number pairs and a Point's
as one pair; the JSON on the wire is the same.
"""

from __future__ import annotations

from typing import Any

#: RFC 7946, 3.1.1: a position, longitude first (the answers carry no altitude).
POSITION: dict[str, Any] = {
    "type": "array",
    "items": {"type": "number"},
    "minItems": 2,
    "maxItems": 2,
    "description": "[longitude, latitude], degrees east and north.",
}


def _geometry(kind: str, coordinates: dict[str, Any]) -> dict[str, Any]:
    """Return the schema of a GeoJSON geometry of type ``kind`` (its title, for a typed
    client's class name, is ``GeoJson<kind>``)."""
    return {
        "title": f"GeoJson{kind}",
        "type": "object",
        "required": ["type", "coordinates"],
        "properties": {"type": {"type": "string", "const": kind}, "coordinates": coordinates},
    }


#: RFC 7946, 3.1.4: a LineString has two or more positions.
LINE_STRING = _geometry(
    "LineString",
    {"type": "array", "items": POSITION, "minItems": 2, "description": "The segment's positions, south to north."},
)

#: RFC 7946, 3.1.2: a Point has one position (a segment of a single row).
POINT = _geometry("Point", POSITION)

#: The exact schema of each message whose JSON the protos cannot describe, by full name.
GEOJSON_SCHEMAS: dict[str, dict[str, Any]] = {
    "celestial.v1.GeoJsonGeometry": {
        "oneOf": [LINE_STRING, POINT],
        "description": "The segment as a GeoJSON LineString, or a Point for a segment of a single row.",
    },
}
