"""Examples from real calls: recorded requests and the answers they really got, per operation,
kept in ``gateway/reference/docs_assets/examples/`` and merged into the OpenAPI document
(``make examples`` records them from a running stack; a test replays them).

An operation's file, ``<operation>.json``, holds its default example, named ``recorded``:
``{"operation", "method", "request", "status", "response"}``, ``request`` being the query
string's parameters (as the strings a query string carries) for ``GET``, the JSON body for
``POST``. An answer that is a document rather than JSON (a chart wheel's SVG or PNG, an
iCalendar file) is kept as a file beside it, named after the operation and the media type
(``chart_wheel.svg``, ``chart_wheel.png``, ``calendar.ics``), and the record holds
``"document": {"media_type", "file", "sha256"}`` in place of ``response``. An operation
answering in several formats has one more example per format in ``"more"``, by name (the
format's: ``"png"``, ``"json"``, ``"ics"``), each ``{"request", "status", "response" or
"document"}``.
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from gateway.operation_names import operation_name

EXAMPLES_DIR = Path(__file__).resolve().parent / "docs_assets" / "examples"
#: Where the gateway serves EXAMPLES_DIR (routes.py mounts docs_assets at /docs/assets).
EXAMPLES_URL = "/docs/assets/examples"
#: The name of the default request's example in each operation's ``examples`` maps.
EXAMPLE_NAME = "recorded"
JSON_MEDIA_TYPE = "application/json"
#: How the paragraph showing an operation's example picture begins in its description.
PICTURE_INTRODUCTION = "Recorded example: `"
#: The extension of a document example's file, by media type: what the gateway's static
#: files guess the same media type back from when it serves the file.
FILE_EXTENSIONS = {"image/svg+xml": ".svg", "image/png": ".png", "text/calendar": ".ics"}


@dataclass(frozen=True)
class Document:
    """A document answer: its media type and its bytes."""

    media_type: str
    content: bytes
    #: The SHA-256 the record gives (hex); the content's own when recorded now.
    sha256: str = ""

    def __post_init__(self) -> None:
        if not self.sha256:
            object.__setattr__(self, "sha256", hashlib.sha256(self.content).hexdigest())


@dataclass(frozen=True)
class Example:
    """One recorded call: the request and the answer it got, JSON (``response``) or a
    document (``document``); the default example carries the operation's others in ``more``."""

    operation: str
    method: str
    request: dict[str, Any]
    status: int
    response: Any = None
    document: Document | None = None
    name: str = EXAMPLE_NAME
    more: tuple[Example, ...] = ()

    @property
    def summary(self) -> str:
        """Return a one-line description of the call, e.g. ``GET /v1/positions?datetime=...``."""
        if self.method == "GET":
            query = "&".join(f"{name}={value}" for name, value in self.request.items())
            return f"GET {self.operation}?{query}"
        return f"POST {self.operation}"

    @property
    def media_type(self) -> str:
        """Return the media type of the answer: the document's, or JSON's."""
        return self.document.media_type if self.document else JSON_MEDIA_TYPE

    @property
    def every(self) -> tuple[Example, ...]:
        """Return this example and the operation's others, the default first."""
        return (self, *self.more)


def example_path(operation: str) -> Path:
    """Return the file of ``operation``'s recorded examples."""
    return EXAMPLES_DIR / f"{operation_name(operation)}.json"


def document_file(operation: str, media_type: str) -> str:
    """Return the file name of ``operation``'s document example of ``media_type``
    (``chart_wheel.svg``): one per media type and operation."""
    return f"{operation_name(operation)}{FILE_EXTENSIONS[media_type]}"


def document_url(operation: str, media_type: str) -> str:
    """Return the URL path the gateway serves that document example at."""
    return f"{EXAMPLES_URL}/{document_file(operation, media_type)}"


def load_examples(directory: Path = EXAMPLES_DIR) -> dict[str, Example]:
    """Return every operation's default example in ``directory`` (the others in its
    ``more``), by operation path."""
    examples = {}
    for path in sorted(directory.glob("*.json")):
        record = orjson.loads(path.read_bytes())
        operation, method = record["operation"], record["method"]
        more = tuple(
            _read_call(operation, method, name, call, directory) for name, call in record.get("more", {}).items()
        )
        examples[operation] = _read_call(operation, method, EXAMPLE_NAME, record, directory, more)
    return examples


def _read_call(
    operation: str, method: str, name: str, call: dict[str, Any], directory: Path, more: tuple[Example, ...] = ()
) -> Example:
    document = None
    if "document" in call:
        kept = call["document"]
        document = Document(kept["media_type"], (directory / kept["file"]).read_bytes(), kept["sha256"])
    return Example(operation, method, call["request"], call["status"], call.get("response"), document, name, more)


def example_files(example: Example) -> dict[str, bytes]:
    """Return the files of ``example`` and its ``more`` by name: the record, indented JSON
    with its keys in a stable order, and each document's bytes.

    Raises ValueError for two documents of one media type, which would share a file.
    """
    record: dict[str, Any] = {"operation": example.operation, "method": example.method}
    record.update(_call_record(example))
    if example.more:
        record["more"] = {other.name: _call_record(other) for other in example.more}
    files = {example_path(example.operation).name: orjson.dumps(record, option=orjson.OPT_INDENT_2) + b"\n"}
    for call in example.every:
        if call.document:
            name = document_file(call.operation, call.document.media_type)
            if name in files:
                raise ValueError(f"{example.operation}: two {call.document.media_type} examples would share {name}")
            files[name] = call.document.content
    return files


def _call_record(example: Example) -> dict[str, Any]:
    call: dict[str, Any] = {"request": example.request, "status": example.status}
    if example.document:
        call["document"] = {
            "media_type": example.document.media_type,
            "file": document_file(example.operation, example.document.media_type),
            "sha256": example.document.sha256,
        }
    else:
        call["response"] = example.response
    return call


def write_example(example: Example, directory: Path = EXAMPLES_DIR) -> None:
    """Write ``example``'s record and documents into ``directory``."""
    for name, content in example_files(example).items():
        (directory / name).write_bytes(content)


def with_examples(document: dict[str, Any], examples: dict[str, Example]) -> dict[str, Any]:
    """Return a copy of ``document`` whose operations carry the recorded examples.

    A GET operation gets each parameter's default recorded value as its ``example`` (what the
    reference's "Try it" fills in); a POST operation gets every example's parameters as its
    body's named examples, typed as its body's schema types them (:func:`typed_body`). Each
    answer is the named example of its media type in its status's response: JSON as its
    value, a text document (SVG, iCalendar) as its text, a binary one (PNG) as an
    ``externalValue``, the URL that serves its file. An operation answering a picture shows
    the first one in its description, under the request that made it.
    """
    merged = copy.deepcopy(document)
    for path, example in examples.items():
        operations = merged["paths"].get(path)
        if operations is None:
            continue
        for method, operation in operations.items():
            for call in example.every:
                _merge_answer(operation, call)
            if method == "get":
                for parameter in operation.get("parameters", ()):
                    if parameter["name"] in example.request:
                        parameter["example"] = typed_value(example.request[parameter["name"]], parameter["schema"])
            else:
                body = operation["requestBody"]["content"][JSON_MEDIA_TYPE]
                body["examples"] = {
                    call.name: {
                        "summary": call.summary,
                        "value": call.request if call.method == "POST" else typed_body(call.request, body["schema"]),
                    }
                    for call in example.every
                }
            picture = next((call for call in example.every if call.media_type.startswith("image/")), None)
            if picture is not None and "description" in operation:
                operation["description"] += "\n\n" + picture_markdown(operation.get("summary", path), picture)
    return merged


def _merge_answer(operation: dict[str, Any], example: Example) -> None:
    content = operation["responses"].get(str(example.status), {}).get("content", {}).get(example.media_type)
    if content is None:
        return
    named: dict[str, Any] = {"summary": example.summary}
    if example.document is None:
        named["value"] = example.response
    elif content.get("schema", {}).get("format") == "binary":
        # A JSON document cannot hold bytes: the example is the served file.
        named["externalValue"] = document_url(example.operation, example.media_type)
    else:
        named["value"] = example.document.content.decode()
    content.setdefault("examples", {})[example.name] = named


def picture_markdown(title: str, example: Example) -> str:
    """Return the Markdown showing ``example``'s picture under the request that made it."""
    url = document_url(example.operation, example.media_type)
    return (
        f"{PICTURE_INTRODUCTION}{example.summary}` answered this picture:\n\n![{title}: the answer to "
        f"{example.summary}]({url})"
    )


def typed_body(query: dict[str, str], schema: dict[str, Any]) -> dict[str, Any]:
    """Return the JSON body carrying the query-string parameters ``query`` as the values the
    body's ``schema`` types them, so the body example is valid against its own schema."""
    return {name: typed_value(text, schema["properties"].get(name, {})) for name, text in query.items()}


def typed_value(text: str, schema: dict[str, Any]) -> Any:
    """Return a query string's ``text`` as the JSON value ``schema`` types it: a number, an
    integer or a boolean; anything else (a list stays its comma-separated text, which a body
    takes too) as the text."""
    kind = schema.get("type")
    if kind == "number":
        return float(text)
    if kind == "integer":
        return int(text)
    if kind == "boolean":
        return text.lower() in ("true", "1")
    return text


def without_examples(document: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of ``document`` with no recorded example: the schemas alone, for tools
    that would otherwise spend their budget resending the examples (the fuzzers)."""
    stripped = copy.deepcopy(document)
    for operations in stripped["paths"].values():
        for operation in operations.values():
            if "description" in operation:
                operation["description"] = operation["description"].split("\n\n" + PICTURE_INTRODUCTION)[0]
            for parameter in operation.get("parameters", ()):
                parameter.pop("example", None)
            body = operation.get("requestBody", {}).get("content", {}).get(JSON_MEDIA_TYPE, {})
            body.pop("examples", None)
            for response in operation["responses"].values():
                for content in response.get("content", {}).values():
                    content.pop("examples", None)
    return stripped
