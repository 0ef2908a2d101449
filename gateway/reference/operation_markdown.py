"""The reference of each operation as one Markdown page (``/docs/<path>.md``, named after the
API path: ``/docs/natal-chart.md``, ``/docs/eclipses/solar.md``), and the
introduction as ``/docs/introduction.md``: written from the OpenAPI document, for readers
(language models among them) that want text rather than the interactive page.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from gateway.operation_names import operation_name, page_name
from gateway.reference.examples import (
    BODY_METHODS,
    EXAMPLE_NAME,
    FILE_EXTENSIONS,
    JSON_MEDIA_TYPE,
    document_file,
    document_url,
)

INTRODUCTION_PAGE = "introduction"
#: Where the pages' curl lines send requests: the reader's own base URL, as the MCP server
#: and the SDK pages name it.
BASE_URL_VARIABLE = "$CELESTIAL_BASE_URL"
KEY_VARIABLE = "$CELESTIAL_API_KEY"


def operation_pages(document: dict[str, Any]) -> dict[str, str]:
    """Return every page's Markdown by its name: one per operation (:func:`page_name`, its
    API path), and the introduction."""
    pages = {INTRODUCTION_PAGE: introduction_markdown(document)}
    for path in document["paths"]:
        pages[page_name(path)] = operation_markdown(document, path)
    return pages


def former_page_names(document: dict[str, Any]) -> dict[str, str]:
    """Return the name each operation's page had before it was named after its path (its
    identifier: ``natal_chart``, ``eclipses_solar``), mapped to its name now, for redirects;
    only the names that differ."""
    return {
        operation_name(path): page_name(path) for path in document["paths"] if operation_name(path) != page_name(path)
    }


def introduction_markdown(document: dict[str, Any]) -> str:
    """Return the introduction page: the document's title and ``info.description``."""
    info = document["info"]
    return f"# {info['title']} API: introduction\n\n{info['description'].strip()}\n"


def operation_markdown(document: dict[str, Any], path: str) -> str:
    """Return the Markdown reference of the operation at ``path``: what it does and costs,
    its parameters, a recorded request with its real answer, and its errors."""
    operations = document["paths"][path]
    main = operations.get("get") or operations["post"]
    methods = " or ".join(method.upper() for method in operations)
    lines = [
        f"# {main['summary']}",
        "",
        f"`{methods} {path}`",
        "",
        _text(main.get("description", "")),
        "",
    ]
    if "get" in operations:
        lines += [
            "## Parameters",
            "",
            "A GET takes them in the query string; a POST takes the same names in a JSON body.",
            "",
        ]
        lines += _parameter_table(operations["get"]["parameters"])
    else:
        body = operations["post"]["requestBody"]["content"]["application/json"]
        lines += ["## Body", "", "```json", json.dumps(body["schema"], indent=2), "```", ""]
    lines += _example(path, operations)
    lines += [
        "## Errors",
        "",
        'Every error is `{"errors": [{"code", "message", "suggestion", "param"?}], "meta": {"request_id"}}`.',
        "",
    ]
    lines += ["| status | meaning |", "|---|---|"]
    for status, response in main["responses"].items():
        if status != "200":
            lines.append(f"| {status} | {_cell(response['description'])} |")
    lines.append("")
    return "\n".join(lines)


def _parameter_table(parameters: list[dict[str, Any]]) -> list[str]:
    lines = ["| name | type | required | default | description |", "|---|---|---|---|---|"]
    for parameter in parameters:
        schema = parameter["schema"]
        kind = schema.get("type", "string")
        if "enum" in schema:
            kind += ": " + ", ".join(f"`{value}`" for value in schema["enum"])
        bounds = [
            f"{sign} {schema[key]:g}"
            for key, sign in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"), ("exclusiveMaximum", "<"))
            if key in schema
        ]
        if bounds:
            kind += " (" + ", ".join(bounds) + ")"
        default = f"`{json.dumps(schema['default'])}`" if "default" in schema else ""
        required = "yes" if parameter["required"] else ""
        lines.append(
            f"| `{parameter['name']}` | {_cell(kind)} | {required} | {_cell(default)} | "
            f"{_cell(schema.get('description', ''))} |"
        )
    lines.append("")
    return lines


def _example(path: str, operations: dict[str, Any]) -> list[str]:
    """Return the recorded examples' section: each call as curl, and its real answer: JSON or
    an iCalendar text in full, a picture (shown by the description) as the link to its file."""
    if any(operation.get("x-resource") for operation in operations.values()):
        return _resource_examples(operations)
    main = operations.get("get") or operations["post"]
    # A GET-only operation (/v1/usage, /v1/account) has no body examples; its answers keep their order.
    bodies = (
        operations["post"]["requestBody"]["content"]["application/json"].get("examples", {})
        if "post" in operations
        else {}
    )
    answers = {
        name: (media_type, named)
        for media_type, content in main["responses"]["200"]["content"].items()
        for name, named in content.get("examples", {}).items()
    }
    if not answers:
        return []
    lines = ["## Example", "", "Requests recorded from a running stack, and the answers they really got:", ""]
    # In the record's order, the default request first: the body examples keep it.
    order = list(bodies)
    for name, (media_type, answer) in sorted(
        answers.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order)
    ):
        sent = bodies.get(name, {}).get("value", {})
        file = document_file(path, media_type) if media_type in FILE_EXTENSIONS else ""
        if len(answers) > 1:
            lines += [f"### {'The default request' if name == EXAMPLE_NAME else f'`{name}`'}: `{media_type}`", ""]
        lines += ["```sh", _curl(path, operations, sent, file), "```", ""]
        if media_type == JSON_MEDIA_TYPE:
            lines += ["```json", json.dumps(answer["value"], indent=2, ensure_ascii=False), "```", ""]
        elif media_type.startswith("image/"):
            lines += [f"It answered the picture [{file}]({document_url(path, media_type)}).", ""]
        else:
            lines += [
                f"It answered [{file}]({document_url(path, media_type)}):",
                "",
                "```text",
                answer["value"].replace("\r\n", "\n").rstrip("\n"),
                "```",
                "",
            ]
    return lines


def _resource_examples(operations: dict[str, Any]) -> list[str]:
    """Return the recorded examples' section of an account resource's path: each operation's
    calls (its method's own), as curl with the URL they were sent to (the ids its creation
    answered), and the answers they got."""
    lines = []
    for method, operation in operations.items():
        bodies = operation.get("requestBody", {}).get("content", {}).get(JSON_MEDIA_TYPE, {}).get("examples", {})
        answers = operation["responses"]["200"]["content"].get(JSON_MEDIA_TYPE, {}).get("examples", {})
        for name, answer in answers.items():
            url = answer["summary"].split(" ", 1)[1]
            curl = [f'curl -s -X {method.upper()} -H "Authorization: Bearer {KEY_VARIABLE}"']
            if method.upper() in BODY_METHODS:
                curl.append(f"-H 'Content-Type: application/json' -d '{json.dumps(bodies[name]['value'])}'")
            curl.append(f'"{BASE_URL_VARIABLE}{url}"')
            lines += [f"### `{answer['summary']}`", "", "```sh", " \\\n  ".join(curl), "```", ""]
            lines += ["```json", json.dumps(answer["value"], indent=2, ensure_ascii=False), "```", ""]
    if not lines:
        return []
    opening = "Requests recorded from a running stack, one account's chart or subscription made, used and deleted, "
    return ["## Example", "", opening + "and the answers they really got:", "", *lines]


def _curl(path: str, operations: dict[str, Any], sent: dict[str, Any], file: str) -> str:
    """Return the curl line sending ``sent``, typed body parameters, as a GET's query string
    (a POST-only operation's body), saving a document answer to ``file``."""
    authorization = f'curl -s -H "Authorization: Bearer {KEY_VARIABLE}"'
    if file:
        authorization += f" -o {file}"
    if "get" in operations:
        query = "&".join(f"{name}={quote(_query_text(value), safe=',:')}" for name, value in sent.items())
        return f'{authorization} \\\n  "{BASE_URL_VARIABLE}{path}?{query}"'
    return (
        f"{authorization} -H 'Content-Type: application/json' \\\n  -d '{json.dumps(sent)}' \\\n  "
        f'"{BASE_URL_VARIABLE}{path}"'
    )


def _query_text(value: Any) -> str:
    """Return a typed parameter value as a query string carries it (``true``, ``51.5074``)."""
    return json.dumps(value) if isinstance(value, bool) else str(value)


def _text(description: str) -> str:
    """Return a proto comment's text as Markdown paragraphs (its lines joined; a fenced code
    block, such as an operation's request to paste, kept line by line)."""
    paragraphs = description.split("\n\n")
    return "\n\n".join(
        paragraph if paragraph.startswith("```") else " ".join(line.strip() for line in paragraph.splitlines())
        for paragraph in paragraphs
    )


def _cell(text: str) -> str:
    """Return ``text`` fit for one table cell: one line, its pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")
