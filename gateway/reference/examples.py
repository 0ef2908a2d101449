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

A path serving several operations (the account's resources: ``GET`` and ``POST /v1/charts``,
``GET``, ``PATCH`` and ``DELETE /v1/charts/{chart_id}``) has one file per operation, keyed by
method and path: ``<operation>_<method>.json`` (``charts_post.json``), its examples merged into
that method's operation only. ``request`` is then the query string's parameters for ``GET`` and
``DELETE``, the JSON body for ``POST`` and ``PATCH``, and the record adds ``"path_parameters"``
(``{"chart_id": "chart_..."}``) where the path has any. A compute operation's ``GET`` and
``POST`` are one operation answering the same parameters either way: one file, keyed by path.
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field
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
#: The methods whose request is a JSON body (the others' is the query string).
BODY_METHODS = ("POST", "PATCH")
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
    #: Whether the example is keyed by method and path: one of several operations of its path.
    by_method: bool = False
    #: The values of the path's parameters (``{"chart_id": "chart_..."}``).
    path_parameters: dict[str, str] = field(default_factory=dict)

    def illustrates(self, method: str) -> bool:
        """Return whether the example belongs to its path's operation of ``method`` (any
        case): every one of them, unless it is keyed by method."""
        return not self.by_method or method.upper() == self.method

    @property
    def key(self) -> str:
        """Return what the example is kept under: its path, or ``"<METHOD> <path>"`` when
        keyed by method (``"POST /v1/charts"``)."""
        return f"{self.method} {self.operation}" if self.by_method else self.operation

    @property
    def url(self) -> str:
        """Return the path the call was sent to, its parameters filled in."""
        return self.operation.format(**self.path_parameters) if self.path_parameters else self.operation

    @property
    def summary(self) -> str:
        """Return a one-line description of the call, e.g. ``GET /v1/positions?datetime=...``."""
        if self.method not in BODY_METHODS and self.request:
            query = "&".join(f"{name}={value}" for name, value in self.request.items())
            return f"{self.method} {self.url}?{query}"
        return f"{self.method} {self.url}"

    @property
    def media_type(self) -> str:
        """Return the media type of the answer: the document's, or JSON's."""
        return self.document.media_type if self.document else JSON_MEDIA_TYPE

    @property
    def every(self) -> tuple[Example, ...]:
        """Return this example and the operation's others, the default first."""
        return (self, *self.more)


def example_path(operation: str, method: str | None = None) -> Path:
    """Return the file of ``operation``'s recorded examples; of its ``method``'s alone when
    its path serves several operations (``charts_post.json``)."""
    suffix = f"_{method.lower()}" if method else ""
    return EXAMPLES_DIR / f"{operation_name(operation)}{suffix}.json"


def document_file(operation: str, media_type: str) -> str:
    """Return the file name of ``operation``'s document example of ``media_type``
    (``chart_wheel.svg``): one per media type and operation."""
    return f"{operation_name(operation)}{FILE_EXTENSIONS[media_type]}"


def document_url(operation: str, media_type: str) -> str:
    """Return the URL path the gateway serves that document example at."""
    return f"{EXAMPLES_URL}/{document_file(operation, media_type)}"


def load_examples(directory: Path = EXAMPLES_DIR) -> dict[str, Example]:
    """Return every operation's default example in ``directory`` (the others in its
    ``more``), by :attr:`Example.key`: its path, or its method and path."""
    examples = {}
    for path in sorted(directory.glob("*.json")):
        record = orjson.loads(path.read_bytes())
        operation, method = record["operation"], record["method"]
        by_method = path.stem != operation_name(operation)
        kept = dict(by_method=by_method, path_parameters=record.get("path_parameters", {}))
        more = tuple(
            _read_call(operation, method, name, call, directory, **kept)
            for name, call in record.get("more", {}).items()
        )
        example = _read_call(operation, method, EXAMPLE_NAME, record, directory, more, **kept)
        examples[example.key] = example
    return examples


def _read_call(
    operation: str,
    method: str,
    name: str,
    call: dict[str, Any],
    directory: Path,
    more: tuple[Example, ...] = (),
    **kept: Any,
) -> Example:
    document = None
    if "document" in call:
        kept_document = call["document"]
        document = Document(
            kept_document["media_type"], (directory / kept_document["file"]).read_bytes(), kept_document["sha256"]
        )
    return Example(
        operation, method, call["request"], call["status"], call.get("response"), document, name, more, **kept
    )


def example_of(examples: dict[str, Example], path: str, method: str) -> Example | None:
    """Return the example of the operation ``method`` ``path`` of the document: the one keyed by
    both, else the path's (a compute operation's, whose ``GET`` and ``POST`` answer alike)."""
    return examples.get(f"{method.upper()} {path}") or examples.get(path)


def example_files(example: Example) -> dict[str, bytes]:
    """Return the files of ``example`` and its ``more`` by name: the record, indented JSON
    with its keys in a stable order, and each document's bytes.

    Raises ValueError for two documents of one media type, which would share a file.
    """
    record: dict[str, Any] = {"operation": example.operation, "method": example.method}
    if example.path_parameters:
        record["path_parameters"] = example.path_parameters
    record.update(_call_record(example))
    if example.more:
        record["more"] = {other.name: _call_record(other) for other in example.more}
    file = example_path(example.operation, example.method if example.by_method else None).name
    files = {file: orjson.dumps(record, option=orjson.OPT_INDENT_2) + b"\n"}
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
    body's named examples, typed as its body's schema types them (:func:`typed_body`). An
    example keyed by method goes to that method's operation alone, a body as recorded, its
    path's parameters as their ``example``. Each
    answer is the named example of its media type in its status's response: JSON as its
    value, a text document (SVG, iCalendar) as its text, a binary one (PNG) as an
    ``externalValue``, the URL that serves its file. An operation answering a picture shows
    the first one in its description, under the request that made it.
    """
    merged = copy.deepcopy(document)
    for example in examples.values():
        operations = merged["paths"].get(example.operation)
        if operations is None:
            continue
        for method, operation in operations.items():
            if not example.illustrates(method):
                continue
            for call in example.every:
                _merge_answer(operation, call)
            sent = dict(example.path_parameters)
            if method.upper() not in BODY_METHODS:
                sent.update(example.request)
            for parameter in operation.get("parameters", ()):
                if parameter["name"] in sent:
                    parameter["example"] = typed_value(sent[parameter["name"]], parameter["schema"])
            body = operation.get("requestBody", {}).get("content", {}).get(JSON_MEDIA_TYPE)
            if method.upper() in BODY_METHODS and body is not None:
                body["examples"] = {
                    call.name: {
                        "summary": call.summary,
                        "value": call.request
                        if call.method in BODY_METHODS
                        else typed_body(call.request, body["schema"]),
                    }
                    for call in example.every
                }
            picture = next((call for call in example.every if call.media_type.startswith("image/")), None)
            if picture is not None and "description" in operation:
                operation["description"] += "\n\n" + picture_markdown(
                    operation.get("summary", example.operation), picture
                )
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
