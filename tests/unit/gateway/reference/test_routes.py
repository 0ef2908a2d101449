"""The /docs page's rules that need no browser: the vendored renderer is the pinned release,
the page allows this origin only, and the document it renders carries JSON defaults and an
introduction in Markdown."""

from __future__ import annotations

import hashlib
import json

from jsonschema import Draft202012Validator

from gateway.endpoints import discover_endpoints
from gateway.operation_names import page_name
from gateway.reference.examples import load_examples, with_examples
from gateway.reference.openapi import build_openapi
from gateway.reference.routes import CONTENT_SECURITY_POLICY, SCALAR_DIR, render_reference_page, scalar_configuration

DOCUMENT = build_openapi(discover_endpoints(), version="test")
JSON_TYPES = {"boolean": bool, "integer": int, "number": (int, float), "string": str}


def _schemas(node):
    """Yield every object of ``node`` that has a ``default``, with its declared type."""
    if isinstance(node, dict):
        if "default" in node:
            yield node
        for value in node.values():
            yield from _schemas(value)
    elif isinstance(node, list):
        for value in node:
            yield from _schemas(value)


def test_the_vendored_bundle_is_the_pinned_release():
    recorded = dict(line.split()[::-1] for line in (SCALAR_DIR / "SHA256SUMS").read_text().splitlines())
    actual = hashlib.sha256((SCALAR_DIR / "standalone.js").read_bytes()).hexdigest()
    assert recorded == {"standalone.js": actual}
    assert (SCALAR_DIR / "VERSION").read_text().strip().count(".") == 2
    assert "MIT License" in (SCALAR_DIR / "LICENSE").read_text()


def test_every_default_is_a_json_value_of_its_schemas_type():
    defaults = list(_schemas(DOCUMENT["paths"]))
    assert len(defaults) > 100
    for schema in defaults:
        declared = schema.get("type", "string")
        assert isinstance(schema["default"], JSON_TYPES[declared]), schema
        if declared != "boolean":
            assert not isinstance(schema["default"], bool), schema
    text = json.dumps([schema["default"] for schema in defaults])
    assert "True" not in text and "False" not in text and "None" not in text


def test_the_page_loads_scripts_styles_fonts_and_data_from_this_origin_only():
    directives = dict(part.split(" ", 1) for part in CONTENT_SECURITY_POLICY.split("; "))
    for directive in ("default-src", "script-src", "connect-src", "font-src", "img-src", "style-src"):
        assert "http" not in directives[directive] and "*" not in directives[directive]
    assert directives["script-src"] == "'self'" and directives["connect-src"] == "'self'"


def test_the_renderer_is_told_to_use_none_of_its_vendors_services():
    configuration = scalar_configuration("/v1/openapi.json")
    assert configuration["withDefaultFonts"] is False and configuration["telemetry"] is False
    assert configuration["agent"] == {"disabled": True} and configuration["mcp"] == {"disabled": True}
    assert "proxyUrl" not in configuration


def test_the_page_lists_every_operation_for_readers_without_javascript():
    pages = {path: f"/docs/{page_name(path)}.md" for path in DOCUMENT["paths"]}
    page = render_reference_page(DOCUMENT, pages)
    for path, url in pages.items():
        assert f"href='{url}'" in page and f"<code>{path}</code>" in page
    assert "<script>" not in page  # no inline script: the policy's script-src 'self' holds


def test_the_introduction_has_a_section_per_first_question():
    introduction = DOCUMENT["info"]["description"]
    for heading in (
        "## Authentication",
        "## The first request",
        "## Moments",
        "## The envelope",
        "## Errors",
        "## Credits and limits",
    ):
        assert heading in introduction


def test_every_recorded_request_and_answer_is_valid_against_the_documents_schemas():
    document = with_examples(DOCUMENT, load_examples())
    checked = 0
    for operations in document["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", ()):
                if "example" in parameter:
                    Draft202012Validator(parameter["schema"]).validate(parameter["example"])
                    checked += 1
            for answer in operation["responses"]["200"]["content"].values():
                for named in answer.get("examples", {}).values():
                    # A binary example (a PNG) is a file, an externalValue, not a JSON value.
                    if "value" in named:
                        Draft202012Validator({**answer["schema"], "components": document["components"]}).validate(
                            named["value"]
                        )
                        checked += 1
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            for named in (body or {}).get("examples", {}).values():
                Draft202012Validator(body["schema"]).validate(named["value"])
                checked += 1
    assert checked > 100


def test_no_generic_http_client_is_chosen_so_each_operation_opens_on_its_own_clients_call():
    assert "defaultHttpClient" not in scalar_configuration("/v1/openapi.json")
