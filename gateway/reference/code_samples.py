"""Each operation's call in our own clients, as /docs shows it (``x-codeSamples``, which Scalar
reads): the Python ``Celestial`` method and the TypeScript one, with the operation's paste
(:mod:`gateway.reference.operation_text`) as its arguments, laid out within
:data:`SAMPLE_WIDTH` columns; and the lines installing the two clients.

The methods' names follow one rule, which ``make sdk`` (``deploy/python_client_package.py``,
``deploy/typescript_client_package.py``) names the clients' methods by, so a sample names a
method the client has: an operation of a path is named after its path (``/v1/natal-chart``:
``natal_chart``, ``natalChart``; a path's GET and POST are one method), an operation of a
resource (``x-resource``: /v1/charts) after its operationId (``create_stored_chart``,
``createStoredChart``). A Python keyword that would shadow a builtin or a keyword takes a
trailing underscore, as openapi-python-client names the generated functions' keywords
(``datetime_``, ``format_``).
"""

from __future__ import annotations

import builtins
import json
import keyword
import re
from datetime import date
from typing import Any

from gateway.reference.code_layout import Brackets, Code, Joined, Text, laid_out
from gateway.reference.operation_text import PASTES, RESOURCE_PASTES

#: The names openapi-python-client gives a trailing underscore besides Python's keywords
#: (its ``strings.RESERVED_WORDS``: the builtins, ``self``, ``true``, ``false``, ``datetime``, but ``id``).
RESERVED_NAMES = (set(dir(builtins)) | {"self", "true", "false", "datetime"}) - {"id"}

#: The widest line of a sample: what /docs' code pane shows without a horizontal scroll (at
#: the reference's width for a desktop screen; tests/e2e/test_reference_browser.py holds it).
SAMPLE_WIDTH = 52

#: The packages the samples import, as they are published (sdk/python-template/pyproject.toml's
#: name, sdk/typescript-template/package.json's), and the lines that install them.
PYTHON_PACKAGE = "celestial-client"
TYPESCRIPT_PACKAGE = "celestial-client"
SDK_INSTALLATION = (
    {"lang": "Python", "description": "The Python client (Python 3.11+).", "source": f"pip install {PYTHON_PACKAGE}"},
    {
        "lang": "TypeScript",
        "description": "The TypeScript client (Node 18+, browsers, Deno, Bun).",
        "source": f"npm install {TYPESCRIPT_PACKAGE}",
    },
)

#: The client each Python sample opens (the ``with`` line its call is written in).
PYTHON_OPENING = Joined(
    (
        Text("with Celestial"),
        Brackets(
            "(",
            (Text('base_url=os.environ["CELESTIAL_BASE_URL"]'), Text('api_key=os.environ["CELESTIAL_API_KEY"]')),
            ")",
        ),
        Text(" as api"),
    )
)
TYPESCRIPT_OPENING = (
    f"import {{ Celestial }} from '{TYPESCRIPT_PACKAGE}';\n\n"
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


def _python_literal(value: Any) -> Code:
    if isinstance(value, date):
        return Text(f"datetime.date({value.year}, {value.month}, {value.day})")
    if isinstance(value, dict):
        members = (
            Joined((Text(f"{json.dumps(key, ensure_ascii=False)}: "), _python_literal(item)))
            for key, item in value.items()
        )
        return Brackets("{", tuple(members), "}")
    if isinstance(value, list):
        return Brackets("[", tuple(_python_literal(item) for item in value), "]")
    return Text(json.dumps(value, ensure_ascii=False) if isinstance(value, str) else repr(value))


def _typescript_literal(value: Any) -> Code:
    if isinstance(value, date):
        value = value.isoformat()
    if isinstance(value, str):
        return Text("'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'")
    if isinstance(value, bool):
        return Text("true" if value else "false")
    if isinstance(value, dict):
        members = (Joined((Text(f"{key}: "), _typescript_literal(item))) for key, item in value.items())
        return Brackets("{", tuple(members), "}", padded=True)
    if isinstance(value, list):
        return Brackets("[", tuple(_typescript_literal(item) for item in value), "]")
    return Text(json.dumps(value))


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
    arguments: list[Code] = [_python_literal(value) for value in in_path.values()]
    imports = ["import datetime"] if any(isinstance(value, date) for value in sent.values()) else []
    imports += ["import os", "", "from celestial_client import Celestial"]
    # A body is built before the client (at the left margin, where its nesting has room).
    built = ""
    if body:
        model = body_model(operation)
        imports.append(_python_import("celestial_client.models", model))
        from_dict = Brackets("(", (_python_literal(sent),), ")", hugging=True)
        built = _python_layout(Joined((Text(f"body = {model}.from_dict"), from_dict))) + "\n\n"
        arguments.append(Text("body=body"))
    else:
        arguments += [Joined((Text(f"{python_keyword(name)}="), _python_literal(v))) for name, v in sent.items()]
    python_call = Joined((Text(f"answer = api.{python}"), Brackets("(", tuple(arguments), ")", hugging=True)))
    python_source = (
        "\n".join(imports)
        + "\n\n"
        + built
        + _python_layout(PYTHON_OPENING)
        + ":\n    "
        + _python_layout(python_call, indent=4)
        + f"\nprint({shown})\n"
    )
    typescript_arguments = [_typescript_literal(in_path)] if in_path else []
    if sent or (body and not operation.get("x-resource")):
        typescript_arguments.append(_typescript_literal(sent))
    typescript_call = Joined(
        (
            Text(f"const answer = await api.{typescript}"),
            Brackets("(", tuple(typescript_arguments), ")", hugging=True),
            Text(";"),
        )
    )
    typescript_source = TYPESCRIPT_OPENING + _typescript_layout(typescript_call) + f"\nconsole.log({shown});\n"
    return [
        {"lang": "Python", "label": "Python (celestial-client)", "source": python_source},
        {"lang": "TypeScript", "label": "TypeScript (celestial-client)", "source": typescript_source},
    ]


def _python_import(module: str, name: str) -> str:
    """Return the line importing ``name`` from ``module``, in brackets when it is too wide."""
    line = f"from {module} import {name}"
    return line if len(line) <= SAMPLE_WIDTH else f"from {module} import (\n    {name},\n)"


def _python_layout(code: Code, indent: int = 0) -> str:
    return laid_out(code, SAMPLE_WIDTH, step=4, indent=indent)


def _typescript_layout(code: Code) -> str:
    return laid_out(code, SAMPLE_WIDTH, step=2)


def with_code_samples(document: dict[str, Any]) -> dict[str, Any]:
    """Return ``document`` with each operation's ``x-codeSamples`` and the lines installing
    the clients (``info.x-scalar-sdk-installation``): /docs shows them."""
    document["info"]["x-scalar-sdk-installation"] = [dict(line) for line in SDK_INSTALLATION]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if isinstance(operation, dict) and "operationId" in operation:
                operation["x-codeSamples"] = code_samples(path, method, operations)
    return document
