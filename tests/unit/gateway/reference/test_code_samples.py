"""gateway/reference/code_samples.py: every operation of /v1/openapi.json shows its call in our
Python and TypeScript clients (``x-codeSamples``, which /docs' Scalar reads), named by the rule
``make sdk`` names the clients' methods by, with the operation's paste as its arguments
(issue 49). That each names a method the built client has: tests/e2e/test_sdk_docs.py."""

from __future__ import annotations

import ast
import json
import tomllib

from gateway.endpoints import discover_endpoints
from gateway.reference.code_samples import (
    SAMPLE_WIDTH,
    body_model,
    code_samples,
    python_keyword,
    python_method,
    typescript_method,
)
from gateway.reference.openapi import build_openapi
from gateway.reference.operation_text import PASTES
from shared.runtime.config import REPO_ROOT

DOCUMENT = build_openapi(discover_endpoints(), version="test")
OPERATIONS = [
    (path, method, operation)
    for path, operations in DOCUMENT["paths"].items()
    for method, operation in operations.items()
    if isinstance(operation, dict) and "operationId" in operation
]


def python_call(source: str) -> ast.Call:
    """Return the call of ``api``'s method in a Python sample."""
    return next(
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "api"
    )


def test_every_operation_shows_its_call_in_python_and_typescript():
    for path, method, operation in OPERATIONS:
        languages = [sample["lang"] for sample in operation["x-codeSamples"]]
        assert languages == ["Python", "TypeScript"], (path, method)


def test_each_python_sample_parses_and_calls_the_method_named_by_the_rule():
    for path, _, operation in OPERATIONS:
        source = operation["x-codeSamples"][0]["source"]
        assert python_call(source).func.attr == python_method(path, operation), path  # type: ignore[attr-defined]


def test_each_typescript_sample_calls_the_method_named_by_the_rule():
    for path, _, operation in OPERATIONS:
        source = operation["x-codeSamples"][1]["source"]
        assert f"await api.{typescript_method(path, operation)}(" in source, path


def test_a_path_is_one_method_named_after_it_and_a_resource_operation_is_named_by_its_operation_id():
    operations = DOCUMENT["paths"]
    assert python_method("/v1/natal-chart", operations["/v1/natal-chart"]["post"]) == "natal_chart"
    assert typescript_method("/v1/eclipses/solar", operations["/v1/eclipses/solar"]["get"]) == "eclipsesSolar"
    assert python_method("/v1/charts", operations["/v1/charts"]["post"]) == "create_stored_chart"
    assert typescript_method("/v1/charts/{chart_id}", operations["/v1/charts/{chart_id}"]["patch"]) == (
        "updateStoredChart"
    )


def test_a_keyword_that_would_shadow_a_builtin_or_a_module_takes_a_trailing_underscore():
    assert [python_keyword(name) for name in ("datetime", "format", "from", "type", "id", "lat")] == [
        "datetime_",
        "format_",
        "from_",
        "type_",
        "id",
        "lat",
    ]


def test_the_sample_passes_the_paste_typed_as_each_parameter_is():
    call = python_call(DOCUMENT["paths"]["/v1/timezone"]["get"]["x-codeSamples"][0]["source"])
    passed = {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords}
    assert passed == {"datetime_": "1944-06-06T08:00", "tz": "auto", "lat": 51.5085, "lon": -0.1257}
    assert set(PASTES["/v1/timezone"]) == {"datetime", "tz", "lat", "lon"}


def test_a_body_operation_passes_its_body_model_and_the_post_of_a_get_its_keywords():
    batch = DOCUMENT["paths"]["/v1/batch"]["post"]
    assert body_model(batch) == "PostBatchBody"
    source = batch["x-codeSamples"][0]["source"]
    assert "body = PostBatchBody.from_dict({" in source and "api.batch(body=body)" in source
    twin = code_samples("/v1/positions", "post", DOCUMENT["paths"]["/v1/positions"])
    assert twin == DOCUMENT["paths"]["/v1/positions"]["get"]["x-codeSamples"]


def test_a_document_format_prints_the_document_not_an_envelope():
    wheel = DOCUMENT["paths"]["/v1/chart-wheel"]["get"]["x-codeSamples"]
    assert wheel[0]["source"].endswith("print(answer)\n") and wheel[1]["source"].endswith("console.log(answer);\n")


def test_a_date_parameter_is_a_date_in_python_and_its_iso_text_in_typescript():
    python, typescript = (sample["source"] for sample in DOCUMENT["paths"]["/v1/usage"]["get"]["x-codeSamples"])
    assert python.startswith("import datetime\n") and "start=datetime.date(2026, 1, 1)" in python
    assert "start: '2026-01-01'" in typescript


def test_every_line_of_every_sample_fits_the_code_pane():
    wide = [
        (path, method, line)
        for path, method, operation in OPERATIONS
        for sample in operation["x-codeSamples"]
        for line in sample["source"].splitlines()
        if len(line) > SAMPLE_WIDTH
    ]
    assert wide == []


def test_a_call_too_wide_for_one_line_takes_one_argument_a_line():
    python, typescript = (sample["source"] for sample in DOCUMENT["paths"]["/v1/natal-chart"]["get"]["x-codeSamples"])
    assert '    answer = api.natal_chart(\n        datetime_="1985-07-13T14:05",\n        place=' in python
    assert "const answer = await api.natalChart({\n  datetime: '1985-07-13T14:05',\n  place: " in typescript


def test_the_installation_lines_install_the_packages_the_samples_import_as_published():
    published_python = tomllib.loads((REPO_ROOT / "sdk" / "python-template" / "pyproject.toml").read_text())
    published_typescript = json.loads((REPO_ROOT / "sdk" / "typescript-template" / "package.json").read_text())
    installation = {line["lang"]: line["source"] for line in DOCUMENT["info"]["x-scalar-sdk-installation"]}
    assert installation == {
        "Python": f"pip install {published_python['project']['name']}",
        "TypeScript": f"npm install {published_typescript['name']}",
    }
    assert f"from '{published_typescript['name']}';" in OPERATIONS[0][2]["x-codeSamples"][1]["source"]
