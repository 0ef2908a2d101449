"""The Python client package (``sdk/python``): the client openapi-python-client generates
from the OpenAPI document, our layer over it (``sdk/python-template``: ``Celestial``, its
errors and retries, the README, the licence), the two modules written here from the contract
(each operation as a method of ``Celestial``, read from the generated operations; the error
codes' statuses), and the wheel and sdist built from it.

openapi-python-client is pinned in requirements-dev.txt.
"""

from __future__ import annotations

import ast
import functools
import json
import shutil
import string
import subprocess
import sys
from pathlib import Path

from deploy.client_contract import SDK_DIR, api_version, document_formats, error_statuses, shape_switch
from gateway.reference.code_samples import python_keyword, python_method

PYTHON_CONFIG = SDK_DIR / "openapi-python-client.yaml"
PYTHON_TEMPLATE = SDK_DIR / "python-template"
PYTHON_GENERATOR = Path(sys.executable).with_name("openapi-python-client")


def generate_python(document: Path, output: Path) -> Path:
    """Return the folder of the Python client package generated from ``document`` into
    ``output``: the generated client, our layer over it, its README, licence and pyproject."""
    output.parent.mkdir(parents=True, exist_ok=True)
    generated_from = output.parent / f".{output.name}-openapi.json"
    generated_from.write_text(json.dumps(python_document(json.loads(document.read_text()))))
    try:
        subprocess.run(
            [
                str(PYTHON_GENERATOR),
                "generate",
                "--path",
                str(generated_from),
                "--output-path",
                str(output),
                "--overwrite",
                "--config",
                str(PYTHON_CONFIG),
                "--custom-template-path",
                str(PYTHON_TEMPLATE / "templates"),
            ],
            check=True,
            capture_output=True,
            text=True,
        )
    finally:
        generated_from.unlink()
    package = output / "celestial_client"
    for module in (PYTHON_TEMPLATE / "celestial_client").glob("*.py"):
        shutil.copy(module, package / module.name)
    for name in ("README.md", "LICENSE"):
        shutil.copy(PYTHON_TEMPLATE / name, output / name)
    pyproject = string.Template((PYTHON_TEMPLATE / "pyproject.toml").read_text())
    (output / "pyproject.toml").write_text(pyproject.substitute(version=api_version(document)))
    (package / "error_codes.py").write_text(python_error_codes(error_statuses()))
    (package / "_operations.py").write_text(python_operations(package, json.loads(document.read_text())))
    return output


def python_document(document: dict) -> dict:
    """Return ``document`` as openapi-python-client is given it: each query parameter without
    its ``default`` (said in its description instead), each body member without its own, each
    body without its rules across members.

    The generated functions would send a parameter's default when it is not passed, where
    ``Celestial`` sends only what is passed (the server applies its own default, and refuses a
    parameter the request does not take even at its default): the two layers would send two
    query strings for one call, and one ``Idempotency-Key`` across them would be a 409. Without
    the defaults both send exactly what the caller passed, in the same order."""
    copied = json.loads(json.dumps(document))
    for path in copied["paths"].values():
        for operation in path.values():
            if not isinstance(operation, dict):
                continue
            # A body's model would send its members' defaults too (a stored chart would keep
            # them as its settings): without them it sends what the caller set.
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            for member in body.get("properties", {}).values():
                for schema in (member, *member.get("anyOf", ())):
                    schema.pop("default", None)
            # The rules across a body's members (gateway/reference/request_constraints.py: an
            # `allOf` of `oneOf`/`dependentSchemas`, with `false` for "not this member") type
            # nothing and openapi-python-client cannot read a boolean schema: the server holds
            # them, and answers 400 naming the member.
            for rules in ("allOf", "dependentSchemas"):
                body.pop(rules, None)
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                if parameter["in"] == "query" and "default" in schema:
                    default = schema.pop("default")
                    shown = str(default).lower() if isinstance(default, bool) else default
                    parameter["description"] = (
                        parameter.get("description", "") + f" Default (the server's, when it is not sent): {shown}."
                    ).strip()
    return copied


def python_error_codes(statuses: dict[str, int]) -> str:
    """Return the source of ``celestial_client.error_codes``: each error code's HTTP status."""
    rows = "".join(f"    {code!r}: {status},\n" for code, status in statuses.items())
    return (
        '"""Each error code the API answers, with its HTTP status: the server\'s catalogue\n'
        '(generated by make sdk from shared/errors.py; docs/errors.md explains each)."""\n\n'
        "from typing import Final\n\n"
        f"ERROR_STATUS: Final[dict[str, int]] = {{\n{rows}}}\n"
    )


def method_signature(
    method: str,
    positional: list[ast.arg],
    arguments: list[ast.arg],
    annotations: dict[str, str],
    defaults: dict[str, ast.expr | None],
    returns: str,
    format_: str | None = None,
    format_default: str | None = None,
    body: str = "",
) -> str:
    """Return the source of a client method's ``def``: ``positional`` (a path's parameters) then
    ``arguments`` as keywords, annotated from ``annotations``; ``format_`` annotated and
    defaulted as given."""
    lines = []
    for arg in arguments:
        # UNSET, not the document's default: the server applies its own, and refuses a
        # parameter the request does not take even at its default (chart_wheel's
        # year_days, which only kind=progressed takes).
        annotation, default = annotations[arg.arg], defaults[arg.arg] and "UNSET"
        if arg.arg == "format_" and format_ is not None:
            annotation, default = format_, format_default
        lines.append(f"        {arg.arg}: {annotation}" + (f" = {default}" if default else "") + ",\n")
    # A GET without parameters (/v1/account) takes no keyword: a bare * would be a syntax error.
    keywords = "        *,\n" + "".join(lines) if arguments else ""
    leading = "".join(f"        {arg.arg}: {annotations[arg.arg]},\n" for arg in positional)
    return f"    def {method}(\n        self,\n{leading}{keywords}    ) -> {returns}:{body}\n"


def python_operations(package: Path, document: dict) -> str:
    """Return the source of ``celestial_client._operations``: one method per operation, named
    after its path, with the keywords of the generated ``sync_detailed`` (unset unless passed)
    and its answer's model as return type (the GET of a path that has GET and POST: they take
    the same parameters).
    An operation whose ``format`` may ask for a document has one overload per format value:
    ``bytes`` for a binary document, ``str`` for a text one, the model for JSON."""
    operations = {
        operation["operationId"]: operation
        for path in document["paths"].values()
        for operation in path.values()
        if isinstance(operation, dict)
    }
    paths = {
        operation["operationId"]: path
        for path, methods in document["paths"].items()
        for operation in methods.values()
        if isinstance(operation, dict)
    }
    modules = sorted((package / "api").glob("*/*.py"))
    names = {module.stem for module in modules}
    imports = {"from .types import UNSET, Unset", "from .types import Response"}
    methods = []
    for module in modules:
        resource = module.stem != "__init__" and operations[module.stem].get("x-resource", False)
        if module.stem == "__init__" or (
            not resource and module.stem.startswith("post_") and "get_" + module.stem.removeprefix("post_") in names
        ):
            continue
        tree = ast.parse(module.read_text())
        sync = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "sync_detailed")
        for node in tree.body:
            if (
                isinstance(node, ast.ImportFrom)
                and node.level == 3
                and node.module
                and node.module.startswith("models.")
            ):
                imports.add(f"from .{node.module} import {', '.join(alias.name for alias in node.names)}")
        imports.add(f"from .api.{module.parent.name} import {module.stem}")
        answer = answer_model(sync.returns)
        # A path's parameters (/v1/charts/{chart_id}) come first and positional; the rest are keywords.
        positional = list(sync.args.args)
        arguments = [arg for arg in sync.args.kwonlyargs if arg.arg != "client"]
        defaults = dict(zip((arg.arg for arg in sync.args.kwonlyargs), sync.args.kw_defaults))
        annotations = {arg.arg: ast.unparse(arg.annotation) for arg in positional + arguments}
        documents = document_formats(operations[module.stem])

        # A parameter of a few values takes its enum's member or the value's string
        # (sign="aries", as the reference writes it), checked here as the API would.
        sent_as = {arg.arg: arg.arg for arg in positional + arguments}
        for parameter in operations[module.stem].get("parameters", []):
            name, values = python_keyword(parameter["name"]), parameter["schema"].get("enum")
            kind = annotations.get(name, "str").split(" | ")[0]
            if not values or kind in ("str", "int", "float", "bool") or (documents and name == "format_"):
                continue
            imports.add("from typing import Literal")
            literal = f"Literal[{', '.join(repr(value) for value in values)}]"
            optional = annotations[name].endswith("| Unset")
            annotations[name] = f"{kind} | {literal}" + (" | Unset" if optional else "")
            member = f"_member({kind}, {name}, {parameter['name']!r})"
            sent_as[name] = f"UNSET if isinstance({name}, Unset) else {member}" if optional else member
        passed = ", ".join(f"{name}={value}" for name, value in sent_as.items())
        summary = (ast.get_docstring(sync) or "").split("Raises:")[0].rstrip()
        # Named by the rule /docs' code samples name it by (one rule, one place).
        method = python_method(paths[module.stem], operations[module.stem])
        signature = functools.partial(method_signature, method, positional, arguments, annotations, defaults)
        raises = "        Raises:\n            CelestialError: the API's error, or no answer (NetworkError).\n        "
        switch = shape_switch(document, operations[module.stem])
        if switch and not documents:
            parameter, members, is_list = switch
            keyword = next(arg.arg for arg in arguments if arg.arg.rstrip("_") == parameter)
            imports.add(f"from .models import {', '.join(sorted(members.values()))}")
            imports.add("from typing import Literal, cast, overload")
            view = "ListAnswer" if is_list else "Answer"
            shaped = {value: f"{view}[{member}]" for value, member in members.items()}
            for value, literal in ((False, "Literal[False] | Unset"), (True, "Literal[True]")):
                methods.append(
                    "    @overload\n"
                    + functools.partial(
                        method_signature, method, positional, arguments, annotations, defaults, format_=None
                    )(shaped[value], body=" ...").replace(
                        f"        {keyword}: {annotations[keyword]} = UNSET,\n",
                        f"        {keyword}: {literal}{' = ...' if not value else ''},\n",
                    )
                )
            either = f"{shaped[False]} | {shaped[True]}"
            methods.append(
                "    @overload\n"
                + signature(either, body=" ...").replace(
                    f"        {keyword}: {annotations[keyword]} = UNSET,\n", f"        {keyword}: bool | Unset = ...,\n"
                )
            )
            doc = (
                summary.replace("\n", "\n        ")
                + f"\n\n        Returns:\n            {answer} whose ``data`` holds {members[False]}s, or "
                f"{members[True]}s with ``{keyword}=True``\n            (typed so by the overloads).\n\n" + raises
            )
            methods.append(
                signature(either) + f'        """{doc}"""\n'
                f"        return cast({either}, self._call(lambda: {module.stem}.sync_detailed("
                f"client=self.client{', ' + passed if passed else ''}), {answer}))\n"
            )
            continue
        if not documents:
            doc = (
                summary.replace("\n", "\n        ")
                + f"\n\n        Returns:\n            {answer}: the answer's model.\n\n"
                + raises
            )
            methods.append(
                signature(answer) + f'        """{doc}"""\n'
                f"        return self._call(lambda: {module.stem}.sync_detailed("
                f"client=self.client{', ' + passed if passed else ''}), {answer})\n"
            )
            continue
        imports.add("from typing import Literal, overload")
        kind = annotations["format_"].split(" | ")[0]  # GetChartWheelFormat | Unset
        format_schema = next(value for value in operations[module.stem]["parameters"] if value["name"] == "format")[
            "schema"
        ]
        values = format_schema["enum"]
        default = f"{kind}.{format_schema['default'].upper()}"  # GetChartWheelFormat.SVG
        types = {
            value: ("bytes" if documents[value][1] else "str") if value in documents else answer for value in values
        }
        for value in values:
            literal = f"Literal[{value!r}, {kind}.{value.upper()}]"
            is_default = default == f"{kind}.{value.upper()}"
            methods.append(
                "    @overload\n"
                + signature(
                    types[value], literal + (" | Unset" if is_default else ""), "..." if is_default else None, " ..."
                )
            )
        returned = " | ".join(dict.fromkeys(types.values()))
        # The format as passed (the enum of a string), unset when it was not: the query string
        # is the generated function's for the same call, whatever the format's default.
        chosen_passed = passed.replace("format_=format_", "format_=sent_format")
        each = "".join(
            f"            {value!r}: {'bytes' if binary else 'str'} ({media_type}),\n"
            for value, (media_type, binary) in documents.items()
        )
        doc = summary.replace("\n", "\n        ") + (
            "\n\n        Returns:\n            What ``format_`` asks for: the answer's model for JSON, else the "
            f"document,\n{each}\n" + raises
        )
        body = [
            f"        chosen = _chosen_format({kind}, format_, {default})\n",
            f"        sent_format: {kind} | Unset = UNSET if isinstance(format_, Unset) else chosen\n",
        ]
        for value, (media_type, binary) in documents.items():
            body.append(
                f"        if chosen == {kind}.{value.upper()}:\n            return self._document(lambda: "
                f"self.client.get_httpx_client().request(**{module.stem}._get_kwargs({chosen_passed})), "
                f"{media_type!r}).{'content' if binary else 'text'}\n"
            )
        body.append(
            f"        return self._call(lambda: {module.stem}.sync_detailed(client=self.client, {chosen_passed}), "
            f"{answer})\n"
        )
        methods.append(signature(returned, f"{kind} | str | Unset", "UNSET") + f'        """{doc}"""\n' + "".join(body))
    return (
        '"""Each operation of the API as a method of ``Celestial`` (generated by make sdk from the\n'
        'generated operations: edit deploy/python_client_package.py, not this file)."""\n\n'
        "from __future__ import annotations\n\n"
        # datetime: the annotation of a date parameter (/v1/usage's start and end).
        "import datetime\nfrom collections.abc import Callable\nfrom enum import StrEnum\nfrom typing import Any, "
        "Protocol, TypeVar\n\nimport httpx\n\nfrom .client import AuthenticatedClient\nfrom .exceptions import "
        "InvalidParameter\nfrom .models.meta import Meta\n"
        + "\n".join(sorted(imports))
        + '\n\nT = TypeVar("T")\nFormat = TypeVar("Format", bound=StrEnum)\n'
        + 'Shape = TypeVar("Shape", covariant=True)\nItem = TypeVar("Item")\n\n\n'
        "class ListAnswer(Protocol[Item]):\n"
        '    """An answer whose ``data`` is a list of one shape (the positions of /v1/positions: one\n'
        "    ``EclipticPosition`` each, or with ``equatorial=True`` one ``EquatorialPosition``): the\n"
        '    answer\'s model, typed by the call\'s overload."""\n\n'
        "    @property\n    def data(self) -> list[Item]: ...\n\n"
        "    @property\n    def meta(self) -> Meta: ...\n\n"
        "    @property\n    def warnings(self) -> list[str] | Unset: ...\n\n"
        "    def to_dict(self) -> dict[str, Any]: ...\n\n\n"
        "class Answer(Protocol[Shape]):\n"
        '    """An answer whose ``data`` is one shape of a union, typed by the call\'s overload."""\n\n'
        "    @property\n    def data(self) -> Shape: ...\n\n"
        "    @property\n    def meta(self) -> Meta: ...\n\n"
        "    @property\n    def warnings(self) -> list[str] | Unset: ...\n\n"
        "    def to_dict(self) -> dict[str, Any]: ...\n\n\n"
        "def _member(kind: type[Format], value: Format | str, param: str) -> Format:\n"
        '    """Return the member of ``kind`` that ``value`` names; raise InvalidParameter for a value\n'
        '    the parameter does not take, as the API would."""\n'
        "    try:\n"
        "        return kind(value)\n"
        "    except ValueError:\n"
        "        choices = ', '.join(member.value for member in kind)\n"
        "        raise InvalidParameter(f'Unknown {param} {value!r}', code='invalid_parameter', param=param, "
        "suggestion=f'Use one of: {choices}.') from None\n\n\n"
        "def _chosen_format(kind: type[Format], value: Format | str | Unset, default: Format) -> Format:\n"
        '    """Return the format ``value`` names (the default when unset); raise InvalidParameter\n'
        '    for a value the operation does not take, as the API would."""\n'
        "    if isinstance(value, Unset):\n"
        "        return default\n"
        "    try:\n"
        "        return kind(value)\n"
        "    except ValueError:\n"
        "        choices = ', '.join(member.value for member in kind)\n"
        "        raise InvalidParameter(f'Unknown format {value!r}', code='invalid_parameter', param='format', "
        "suggestion=f'Use one of: {choices}.') from None\n\n\n"
        "class Operations:\n"
        '    """The operations; ``Celestial`` gives them their client, ``_call`` and ``_document``."""\n\n'
        "    client: AuthenticatedClient\n\n"
        "    def _call(self, send: Callable[[], Response[Any]], answer: type[T]) -> T:\n"
        "        raise NotImplementedError\n\n"
        "    def _document(self, send: Callable[[], httpx.Response], media_type: str) -> httpx.Response:\n"
        "        raise NotImplementedError\n\n" + "\n".join(methods)
    )


def answer_model(returns: ast.expr) -> str:
    """Return the name of the answer's model in a generated ``sync_detailed``'s return
    annotation, ``Response[<the answer's model> | Error]`` (the members in any order, and an
    ``Any`` beside them where a status has no body: a picture's free 304)."""
    union = returns.slice  # type: ignore[attr-defined]
    members: list[str] = []
    pending = [union]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.BinOp):
            pending += [node.right, node.left]
        else:
            members.append(ast.unparse(node))
    answers = [member for member in members if member not in ("Error", "Any")]
    if len(answers) != 1:
        raise ValueError(f"no single answer model in Response[{ast.unparse(union)}]")
    return answers[0]


def build_python(project: Path, dist: Path) -> list[Path]:
    """Return the wheel and sdist built from the Python client's ``project`` into ``dist``
    (hatchling from this environment: no download)."""
    before = set(dist.glob("celestial_client-*"))
    for old in before:
        old.unlink()
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--wheel", "--sdist", "--outdir", str(dist), str(project)],
        check=True,
        capture_output=True,
        text=True,
    )
    return sorted(dist.glob("celestial_client-*"))
