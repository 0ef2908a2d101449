"""The answers' schemas in the OpenAPI document are exact enough for a typed client: each
union's members are told apart by what they require, GeoJSON geometries are RFC 7946's, and
a repeated field the renderer always writes is required (so an SDK parses each answer into
the model it is, not the first one that happens to fit)."""

from __future__ import annotations

from itertools import permutations

from jsonschema import Draft202012Validator

from gateway.endpoints import discover_endpoints
from gateway.reference.openapi import build_openapi

DOCUMENT = build_openapi(discover_endpoints(), version="test")
PATH = "/v1/astrocartography"


COMPONENTS = DOCUMENT["components"]["schemas"]


def resolved(node, seen: tuple[str, ...] = ()):
    """Return ``node`` with every reference replaced by its component, titled with its name."""
    if isinstance(node, dict):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            assert name not in seen, f"{name} refers back to itself"
            return {"title": name, **resolved(COMPONENTS[name], seen + (name,))}
        return {key: resolved(value, seen) for key, value in node.items()}
    if isinstance(node, list):
        return [resolved(value, seen) for value in node]
    return node


def answer_schema(path: str) -> dict:
    operation = DOCUMENT["paths"][path].get("get") or DOCUMENT["paths"][path]["post"]
    return resolved(operation["responses"]["200"]["content"]["application/json"]["schema"])


def unions(node, where: str = ""):
    """Yield (where, members) of every oneOf whose members are objects, anywhere in ``node``."""
    if isinstance(node, dict):
        members = node.get("oneOf", ())
        if members and all(member.get("type") == "object" for member in members):
            yield where, members
        for key, value in node.items():
            yield from unions(value, f"{where}/{key}")
    elif isinstance(node, list):
        for value in node:
            yield from unions(value, where)


def tells_apart(a: dict, b: dict) -> bool:
    """Return whether a value of ``a`` can never be read as ``b``: ``a`` requires a member
    that ``b`` does not have, or one whose constant ``b`` contradicts."""
    for name in a.get("required", ()):
        if name not in b["properties"]:
            return True
        mine, theirs = a["properties"][name], b["properties"][name]
        if "const" in mine and mine["const"] not in (
            [theirs["const"]] if "const" in theirs else theirs.get("enum", [mine["const"]])
        ):
            return True
    return False


def test_every_unions_members_are_told_apart_by_what_they_require():
    checked = 0
    for path in DOCUMENT["paths"]:
        for where, members in unions(answer_schema(path)):
            for a, b in permutations(members, 2):
                assert tells_apart(a, b), f"{path}{where}: {a.get('title')} could be read as {b.get('title')}"
                checked += 1
    assert checked >= 8  # positions' two, astrocartography's data, line references and geometries


def test_each_union_member_is_the_component_of_its_message():
    assert COMPONENTS["AstrocartographyData"]["oneOf"] == [
        {"$ref": "#/components/schemas/AstroMap"},
        {"$ref": "#/components/schemas/GeoJsonFeatureCollection"},
    ]


def test_geojson_geometries_are_linestrings_of_longitude_latitude_pairs_or_points():
    collection = answer_schema(PATH)["properties"]["data"]["oneOf"][1]
    geometry = collection["properties"]["features"]["items"]["properties"]["geometry"]
    validate = Draft202012Validator(geometry).is_valid
    assert validate({"type": "LineString", "coordinates": [[-81.5, -59.0], [-81.4, -58.0]]})
    assert validate({"type": "Point", "coordinates": [-81.5, -59.0]})
    assert not validate({"type": "LineString", "coordinates": [[-81.5, -59.0]]})  # RFC 7946: two or more
    assert not validate({"type": "Point", "coordinates": [[-81.5, -59.0]]})
    assert not validate({"type": "LineString", "coordinates": [[-81.5, -59.0, 10.0], [-81.4, -58.0, 10.0]]})


def test_a_repeated_field_the_renderer_always_writes_is_required():
    astro_map = answer_schema(PATH)["properties"]["data"]["oneOf"][0]
    assert "lines" in astro_map["required"]
    line = astro_map["properties"]["lines"]["items"]
    assert "segments" in line["required"] and "points" in line["properties"]["segments"]["items"]["required"]
