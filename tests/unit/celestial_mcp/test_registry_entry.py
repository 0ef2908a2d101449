"""The MCP registry's entry for the server (server.json at the repository's root): valid under
the registry's schema vendored in data/mcp_registry (its source named in SOURCE.md), its version
the package's, its remote the path celestial-mcp --http serves, and a package listed exactly for
each client that ships an MCP entry point."""

from __future__ import annotations

import copy
import hashlib
import json
import re
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import jsonschema
import pytest
from mcp.server import Server

ROOT = Path(__file__).resolve().parents[3]
ENTRY = json.loads((ROOT / "server.json").read_text())
SCHEMA_FILE = ROOT / "data" / "mcp_registry" / "server.schema.json"
SCHEMA = json.loads(SCHEMA_FILE.read_text())
SOURCE = (ROOT / "data" / "mcp_registry" / "SOURCE.md").read_text()
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
PYTHON_CLIENT = tomllib.loads((ROOT / "sdk" / "python-template" / "pyproject.toml").read_text())["project"]
TYPESCRIPT_CLIENT = json.loads((ROOT / "sdk" / "typescript-template" / "package.json").read_text())


def problems(entry: dict) -> list[str]:
    """Return what the registry's schema finds wrong with ``entry`` (formats checked too)."""
    validator = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    return [error.message for error in validator.iter_errors(entry)]


def test_the_entry_is_valid_under_the_registrys_schema():
    jsonschema.Draft7Validator.check_schema(SCHEMA)
    assert problems(ENTRY) == []


def test_the_schema_checks_what_the_registry_refuses():
    # The vendored schema is the real one: it refuses what the registry refuses.
    too_long = {**ENTRY, "description": "x" * 101}
    no_url = copy.deepcopy(ENTRY)
    del no_url["remotes"][0]["url"]
    latest = {
        **ENTRY,
        "packages": [{"registryType": "pypi", "identifier": "x", "version": "latest", "transport": {"type": "stdio"}}],
    }
    assert all(problems(entry) for entry in (too_long, no_url, latest, {**ENTRY, "name": "no-namespace"}))


def test_the_vendored_schema_is_the_one_its_source_names_and_the_entry_cites():
    assert hashlib.sha256(SCHEMA_FILE.read_bytes()).hexdigest() in SOURCE
    assert SCHEMA["$id"] in SOURCE and ENTRY["$schema"] == SCHEMA["$id"]


def test_the_entry_carries_the_version_of_the_package_that_ships_the_server():
    assert ENTRY["version"] == PROJECT["version"]
    assert PROJECT["scripts"]["celestial-mcp"] == "celestial_mcp.server:main"


def test_the_remote_is_the_path_celestial_mcp_serves_over_streamable_http():
    (remote,) = ENTRY["remotes"]
    served = {route.path for route in Server("celestial").streamable_http_app().routes}
    assert remote["type"] == "streamable-http" and urlsplit(remote["url"]).path in served
    # Every {variable} of the URL and the headers is declared, and the key is a secret.
    for holder in [remote, *remote["headers"]]:
        text = holder.get("url") or holder.get("value")
        assert set(re.findall(r"\{(\w+)\}", text)) == set(holder["variables"])
    (authorization,) = remote["headers"]
    assert authorization["name"] == "Authorization" and authorization["variables"]["api_key"]["isSecret"]


@pytest.mark.parametrize(
    ("registry", "name", "entry_points"),
    [
        ("pypi", PYTHON_CLIENT["name"], [s for s in PYTHON_CLIENT.get("scripts", {}) if "mcp" in s]),
        ("npm", TYPESCRIPT_CLIENT["name"], [b for b in TYPESCRIPT_CLIENT.get("bin", {}) if "mcp" in b]),
    ],
)
def test_a_client_is_listed_as_a_package_exactly_when_it_ships_an_mcp_entry_point(registry, name, entry_points):
    # The clients carry the API's version (make sdk fills it in: the package's, served as info.version).
    listed = [p for p in ENTRY.get("packages", []) if p["registryType"] == registry]
    expected = [(name, PROJECT["version"])] if entry_points else []
    assert [(p["identifier"], p["version"]) for p in listed] == expected
