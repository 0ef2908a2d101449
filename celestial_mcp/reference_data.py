"""The reference data an assistant needs to write a correct call, as MCP resources: the body
names and groups, the house systems, the ayanamshas and the aspect types, read from the
kernel's own tables (the ones the API validates against)."""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types

from kernel import aspects, ayanamshas, bodies, houses

URI_PREFIX = "celestial://reference/"


def reference_data() -> dict[str, tuple[str, Any]]:
    """Return each resource's (description, JSON value) by its name."""
    return {
        "bodies": (
            "Body names (lowercase), the groups planets/asteroids/all, aliases, and what each body may be used for.",
            {
                "bodies": [
                    {"name": b.name, "groups": list(b.groups), "uses": sorted(b.uses)} for b in bodies.BODY_TABLE
                ],
                "groups": {name: list(members) for name, members in bodies.GROUPS.items()},
                "aliases": dict(bodies.ALIASES),
            },
        ),
        "house_systems": (
            "House system names for the system parameter, with their aliases.",
            {"house_systems": list(houses.HOUSE_SYSTEM_NAMES), "aliases": dict(houses.HOUSE_SYSTEM_ALIASES)},
        ),
        "ayanamshas": (
            "Ayanamshas for the sidereal parameter: names, and Swiss Ephemeris ids (0 and 1 must be sent by name).",
            {"ayanamshas": [{"id": a.id, "name": a.name} for a in ayanamshas.AYANAMSHAS]},
        ),
        "aspect_types": (
            "Aspect types for the aspects parameter: name, angle in degrees, default orb in degrees.",
            {
                "aspect_types": [
                    {"name": t.name, "angle_deg": t.angle_deg, "default_orb_deg": t.default_orb_deg}
                    for t in aspects.ASPECT_TYPES.values()
                ]
            },
        ),
    }


def resources() -> list[types.Resource]:
    """Return the MCP resource list."""
    return [
        types.Resource(uri=URI_PREFIX + name, name=name, description=description, mime_type="application/json")
        for name, (description, _) in reference_data().items()
    ]


def read(uri: str) -> types.ReadResourceResult | None:
    """Return the contents of the resource at ``uri``, or None when there is none."""
    data = reference_data().get(uri.removeprefix(URI_PREFIX)) if uri.startswith(URI_PREFIX) else None
    if data is None:
        return None
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=uri, mime_type="application/json", text=json.dumps(data[1]))]
    )
