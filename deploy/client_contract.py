"""What the Python and the TypeScript clients share, read from the OpenAPI document: the
documents an operation's ``format`` may ask for, the boolean that chooses the shape of an
answer's ``data``, the server's error codes and the API's version the packages carry. The
operations' method names follow :mod:`gateway.reference.code_samples` (one rule for the clients
and /docs' samples), and both clients send only what the caller passed, in the caller's order
(the canonical query: see :func:`deploy.python_client_package.python_document`).
"""

from __future__ import annotations

import json
from pathlib import Path

from shared.runtime.config import REPO_ROOT

#: The clients' folder: their templates, generators, generated sources and packages.
SDK_DIR = REPO_ROOT / "sdk"
# The documents an operation's `format` may ask for instead of JSON, by the media type its
# answer has (issue 37: the generators parse every 200 as JSON, or as an untyped Blob).
DOCUMENT_FORMATS = {"svg": "image/svg+xml", "png": "image/png", "ics": "text/calendar"}


def error_statuses() -> dict[str, int]:
    """Return the server's error catalogue as code -> HTTP status (every layer's errors)."""
    import kernel.errors  # noqa: F401  (the domain errors join the catalogue once imported)
    from shared.errors import error_classes

    return {cls.code: cls.http_status for cls in sorted(error_classes(), key=lambda cls: cls.code)}


def api_version(document: Path) -> str:
    """Return the API's version, which the packages carry (pyproject.toml's, served as info.version)."""
    return json.loads(document.read_text())["info"]["version"]


def document_formats(operation: dict) -> dict[str, tuple[str, bool]]:
    """Return the documents ``operation``'s ``format`` parameter may ask for, each value with
    its answer's media type and whether the document is binary (a PNG) rather than text."""
    answers = operation["responses"]["200"]["content"]
    values = next(
        (
            parameter["schema"].get("enum", [])
            for parameter in operation.get("parameters", [])
            if parameter["name"] == "format"
        ),
        [],
    )
    return {
        value: (media_type, answers[media_type]["schema"].get("format") == "binary")
        for value, media_type in DOCUMENT_FORMATS.items()
        if value in values and media_type in answers
    }


def _component(reference: dict) -> str:
    """Return the name of the component ``reference`` ({"$ref": "#/components/schemas/X"}) names."""
    return reference["$ref"].rsplit("/", 1)[-1]


def _camel_case(name: str) -> str:
    """Return ``name`` (``equatorial``, ``no_nutation``) as a component name begins (``NoNutation``)."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def shape_switch(document: dict, operation: dict) -> tuple[str, dict[bool, str], bool] | None:
    """Return how ``operation``'s boolean parameter chooses the shape of its JSON answer's
    ``data``, or None when none does: (the parameter, the member's component when it is true
    and when it is not, whether ``data`` is a list of them).

    ``data`` (or each of its items) is a union of two components, one named after a boolean
    query parameter (``EquatorialPosition`` for ``equatorial=true``, the other,
    ``EclipticPosition``, without it): read from the document, so a client's overloads follow
    it (issue 49: ``data[0].sign`` on /v1/positions must type-check)."""
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    components = document["components"]["schemas"]
    data = components[_component(schema)].get("properties", {}).get("data", {}) if "$ref" in schema else {}
    is_list = data.get("type") == "array"
    shape = data.get("items", {}) if is_list else data
    if "$ref" not in shape:
        return None
    members = [_component(member) for member in components[_component(shape)].get("oneOf", []) if "$ref" in member]
    if len(members) != 2:
        return None
    for parameter in operation.get("parameters", []):
        if parameter["in"] != "query" or parameter["schema"].get("type") != "boolean":
            continue
        chosen = [member for member in members if member.startswith(_camel_case(parameter["name"]))]
        if len(chosen) == 1:
            other = next(member for member in members if member != chosen[0])
            return parameter["name"], {True: chosen[0], False: other}, is_list
    return None
