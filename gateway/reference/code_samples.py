"""Each operation's call in our own clients, as /docs shows it (``x-codeSamples``, which Scalar
reads): the Python ``Celestial`` method and the TypeScript one, with the operation's paste
(:mod:`gateway.reference.operation_text`) as its arguments.

The methods' names follow one rule, which ``make sdk`` (``deploy/generate_sdks.py``) names the
clients' methods by, so a sample names a method the client has: an operation of a path is
named after its path (``/v1/natal-chart``: ``natal_chart``, ``natalChart``; a path's GET and
POST are one method), an operation of a resource (``x-resource``: /v1/charts) after its
operationId (``create_stored_chart``, ``createStoredChart``). A Python keyword that would
shadow a builtin or a keyword takes a trailing underscore, as openapi-python-client names the
generated functions' keywords (``datetime_``, ``format_``).
"""

from __future__ import annotations

import builtins
import json
import keyword
import re
from datetime import date
from typing import Any

from gateway.reference.operation_text import PASTES, RESOURCE_PASTES

#: The names openapi-python-client gives a trailing underscore besides Python's keywords
#: (its ``strings.RESERVED_WORDS``: the builtins, ``self``, ``true``, ``false``, ``datetime``, but ``id``).
RESERVED_NAMES = (set(dir(builtins)) | {"self", "true", "false", "datetime"}) - {"id"}

PYTHON_OPENING = (
    "{dates}import os\n\nfrom celestial_client import Celestial{models}\n\n"
    'with Celestial(base_url=os.environ["CELESTIAL_BASE_URL"], api_key=os.environ["CELESTIAL_API_KEY"]) as api:\n'
)
TYPESCRIPT_OPENING = (
    "import { Celestial } from 'celestial-client';\n\n"
    "const api = new Celestial({\n"
    "  baseUrl: process.env.CELESTIAL_BASE_URL ?? '',\n"
    "  apiKey: process.env.CELESTIAL_API_KEY ?? '',\n"
    "});\n"
)


def _words(name: str) -> list[str]:
    return [word for word in re.split(r"[_\-/]", name) if word]


def _camel(name: str) -> str:
    head, *rest = _words(name)
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def python_method(path: str, operation: dict[str, Any]) -> str:
    """Return the name of ``operation``'s method of the Python ``Celestial`` (``natal_chart``)."""
    if operation.get("x-resource"):
        return operation["operationId"]
    return "_".join(_words(path.removeprefix("/v1/")))


def typescript_method(path: str, operation: dict[str, Any]) -> str:
    """Return the name of ``operation``'s method of the TypeScript ``Celestial`` (``natalChart``)."""
    if operation.get("x-resource"):
        return _camel(operation["operationId"])
    return _camel(path.removeprefix("/v1/"))


def python_keyword(name: str) -> str:
    """Return the keyword of parameter ``name`` in the Python client (``datetime_``)."""
    return f"{name}_" if keyword.iskeyword(name) or name in RESERVED_NAMES else name


def body_model(operation: dict[str, Any]) -> str:
    """Return the Python client's model of ``operation``'s JSON body (``CreateStoredChartBody``),
    named as openapi-python-client names an inline body: its operationId, then Body."""
    return "".join(word[:1].upper() + word[1:] for word in _words(operation["operationId"])) + "Body"


def _typed(value: Any, schema: dict[str, Any]) -> Any:
    """Return the paste's ``value`` (query-string text) as the parameter's type says."""
    kind = schema.get("type")
    if isinstance(value, str) and schema.get("format") == "date":
        return date.fromisoformat(value)
    if isinstance(value, str) and kind == "number":
        return float(value)
    if isinstance(value, str) and kind == "integer":
        return int(value)
    if isinstance(value, str) and kind == "boolean":
        return value == "true"
    return value


def _python_literal(value: Any) -> str:
    if isinstance(value, date):
        return f"datetime.date({value.year}, {value.month}, {value.day})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_python_literal(key)}: {_python_literal(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_python_literal(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else repr(value)


def _typescript_literal(value: Any) -> str:
    if isinstance(value, date):
        value = value.isoformat()
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key}: {_typescript_literal(item)}" for key, item in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_typescript_literal(item) for item in value) + "]"
    return json.dumps(value)


def _paste(path: str, method: str, operation: dict[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """Return the operation's paste: its path's parameters, then its query or body members."""
    if operation.get("x-resource"):
        url, sent = RESOURCE_PASTES[(path, method)]
        template = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(path))
        in_path = re.fullmatch(template, url)
        return (in_path.groupdict() if in_path else {}), dict(sent)
    return {}, dict(PASTES[path])


def code_samples(path: str, method: str, operations: dict[str, Any]) -> list[dict[str, str]]:
    """Return the ``x-codeSamples`` of ``operations[method]``: its call through the Python and
    the TypeScript ``Celestial``, its paste as the arguments (the POST of a path that has a GET
    is the GET's method, taking the same parameters)."""
    operation = operations[method]
    in_path, sent = _paste(path, method, operation)
    schemas = {
        parameter["name"]: parameter.get("schema", {})
        for parameter in operations.get("get", operation).get("parameters", ())
    }
    body = method != "get" and "requestBody" in operation and (operation.get("x-resource") or "get" not in operations)
    # A document asked for (format=svg): the call answers its text or bytes, not an envelope.
    document = sent.get("format") not in (None, "json") and len(operation["responses"]["200"]["content"]) > 1
    shown = "answer" if document else "answer.data"
    sent = {name: _typed(value, schemas.get(name, {})) for name, value in sent.items()}
    python, typescript = python_method(path, operation), typescript_method(path, operation)
    positional = [_python_literal(value) for value in in_path.values()]
    if body:
        arguments = [*positional, f"body={body_model(operation)}.from_dict({_python_literal(sent)})"]
        models = f"\nfrom celestial_client.models import {body_model(operation)}"
    else:
        arguments = [*positional, *(f"{python_keyword(name)}={_python_literal(value)}" for name, value in sent.items())]
        models = ""
    python_source = (
        PYTHON_OPENING.format(
            models=models, dates="import datetime\n" if any(isinstance(v, date) for v in sent.values()) else ""
        )
        + f"    answer = api.{python}({', '.join(arguments)})\nprint({shown})\n"
    )
    typescript_arguments = [_typescript_literal(in_path)] if in_path else []
    if sent or (body and not operation.get("x-resource")):
        typescript_arguments.append(_typescript_literal(sent))
    typescript_source = (
        TYPESCRIPT_OPENING + f"const answer = await api.{typescript}({', '.join(typescript_arguments)});\n"
        f"console.log({shown});\n"
    )
    return [
        {"lang": "Python", "label": "Python (celestial-client)", "source": python_source},
        {"lang": "TypeScript", "label": "TypeScript (celestial-client)", "source": typescript_source},
    ]


def with_code_samples(document: dict[str, Any]) -> dict[str, Any]:
    """Return ``document`` with each operation's ``x-codeSamples`` (/docs shows them)."""
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if isinstance(operation, dict) and "operationId" in operation:
                operation["x-codeSamples"] = code_samples(path, method, operations)
    return document
