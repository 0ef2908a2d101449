"""``make sdk``: generate the Python client (``sdk/python``, openapi-python-client) and the
TypeScript client (``sdk/typescript``, @hey-api/openapi-ts) from the served OpenAPI document,
and build them into the packages a developer installs (``sdk/dist``: a wheel, an sdist and an
npm tarball).

Both generators are pinned: openapi-python-client in requirements-dev.txt, openapi-ts (and the
TypeScript compiler) in ``sdk/generator/package.json`` and its lock file, installed with
``npm ci``. The generated code is not committed, like the protos'. What is ours is: the thin
layer over each generated client (``sdk/python-template``, ``sdk/typescript-template``: the
``Celestial`` class, its errors and retries, the README, the licence), copied in here; and two
small modules written here from the contract: each operation as a method of ``Celestial``
(read from the generated operations) and the error codes' statuses (the server's catalogue).
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import os
import shutil
import string
import subprocess
import sys
from pathlib import Path

import httpx

from gateway.reference.code_samples import python_keyword, python_method, typescript_method
from shared.runtime.config import REPO_ROOT

SDK_DIR = REPO_ROOT / "sdk"
GENERATOR_DIR = SDK_DIR / "generator"
PYTHON_CONFIG = SDK_DIR / "openapi-python-client.yaml"
PYTHON_TEMPLATE = SDK_DIR / "python-template"
TYPESCRIPT_TEMPLATE = SDK_DIR / "typescript-template"
DIST_DIR = SDK_DIR / "dist"
PYTHON_GENERATOR = Path(sys.executable).with_name("openapi-python-client")
TYPESCRIPT_GENERATOR = GENERATOR_DIR / "node_modules" / ".bin" / "openapi-ts"
TYPESCRIPT_COMPILER = GENERATOR_DIR / "node_modules" / ".bin" / "tsc"
# The documents an operation's `format` may ask for instead of JSON, by the media type its
# answer has (issue 37: the generators parse every 200 as JSON, or as an untyped Blob).
DOCUMENT_FORMATS = {"svg": "image/svg+xml", "png": "image/png", "ics": "text/calendar"}


def served_document(base_url: str | None = None) -> bytes:
    """Return /v1/openapi.json as the gateway serves it: from ``base_url``, or from the
    gateway app built in this process (no stack needed: the document needs no service)."""
    if base_url:
        answer = httpx.get(f"{base_url}/v1/openapi.json", timeout=30)
        answer.raise_for_status()
        return answer.content
    from dataclasses import replace

    from starlette.testclient import TestClient

    from gateway.app import create_app
    from shared.runtime.config import load_settings
    from shared.runtime.logging import configure_logging

    # The gateway's request line is not the command's output: only warnings and errors, on
    # stderr (make sdk printed a request_finished line among its own).
    settings = replace(load_settings(), log_level="WARNING")
    configure_logging(settings, "generate_sdks", stream=sys.stderr)
    # Without entering the client, the app's lifespan (its store, its services) never runs.
    answer = TestClient(create_app(settings)).get("/v1/openapi.json")
    answer.raise_for_status()
    return answer.content


def install_typescript_generator() -> None:
    """Install the pinned openapi-ts and tsc into sdk/generator/node_modules, once."""
    if not TYPESCRIPT_GENERATOR.exists() or not TYPESCRIPT_COMPILER.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=GENERATOR_DIR, check=True)


def error_statuses() -> dict[str, int]:
    """Return the server's error catalogue as code -> HTTP status (every layer's errors)."""
    import kernel.errors  # noqa: F401  (the domain errors join the catalogue once imported)
    from shared.errors import error_classes

    return {cls.code: cls.http_status for cls in sorted(error_classes(), key=lambda cls: cls.code)}


def api_version(document: Path) -> str:
    """Return the API's version, which the packages carry (pyproject.toml's, served as info.version)."""
    return json.loads(document.read_text())["info"]["version"]


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
        'generated operations: edit deploy/generate_sdks.py, not this file)."""\n\n'
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
    annotation, ``Response[<the answer's model> | Error]`` (the members in either order)."""
    union = returns.slice  # type: ignore[attr-defined]
    members = (
        [ast.unparse(side) for side in (union.left, union.right)]
        if isinstance(union, ast.BinOp)
        else [ast.unparse(union)]
    )
    answers = [member for member in members if member != "Error"]
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


def generate_typescript(document: Path, output: Path) -> Path:
    """Return the folder of the TypeScript client package generated from ``document`` into
    ``output``: the generated client in ``src/generated``, our layer over it in ``src``, its
    package.json, tsconfigs, README and licence."""
    install_typescript_generator()
    shutil.rmtree(output, ignore_errors=True)
    environment = {
        **os.environ,
        "CELESTIAL_OPENAPI": str(document.resolve()),
        "CELESTIAL_TS_OUTPUT": str(output.resolve() / "src" / "generated"),
    }
    subprocess.run(
        [
            str(TYPESCRIPT_GENERATOR),
            "-f",
            str(TYPESCRIPT_TEMPLATE / "openapi-ts.config.mjs"),
            "--no-log-file",
            "--silent",
        ],
        cwd=GENERATOR_DIR,
        env=environment,
        check=True,
    )
    for source in (TYPESCRIPT_TEMPLATE / "src").glob("*.ts"):
        shutil.copy(source, output / "src" / source.name)
    for name in ("README.md", "LICENSE", "tsconfig.esm.json", "tsconfig.cjs.json"):
        shutil.copy(TYPESCRIPT_TEMPLATE / name, output / name)
    package = string.Template((TYPESCRIPT_TEMPLATE / "package.json").read_text())
    (output / "package.json").write_text(package.substitute(version=api_version(document)))
    (output / "src" / "errorCodes.gen.ts").write_text(typescript_error_codes(error_statuses()))
    (output / "src" / "operations.gen.ts").write_text(typescript_operations(json.loads(document.read_text())))
    return output


def typescript_error_codes(statuses: dict[str, int]) -> str:
    """Return the source of ``errorCodes.gen.ts``: each error code's HTTP status."""
    rows = "".join(f"  {code}: {status},\n" for code, status in statuses.items())
    return (
        "// Each error code the API answers, with its HTTP status: the server's catalogue\n"
        "// (generated by make sdk from shared/errors.py; docs/errors.md explains each).\n"
        f"export const ERROR_STATUS: Readonly<Record<string, number>> = {{\n{rows}}};\n"
    )


def _camel(name: str) -> str:
    """Return ``name`` (``get_natal_chart``, ``natal-chart``) in camelCase, as openapi-ts names."""
    head, *rest = name.replace("-", "_").split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _typescript_resource_method(verb: str, path: str, operation: dict) -> tuple[str, set[str]]:
    """Return the method of one operation of a resource (``x-resource``: /v1/charts), named
    by its operationId and taking its path's parameters, its query and its body as they apply,
    and the generated types it names."""
    function = typescript_method(path, operation)  # the generated function's name too
    prefix = function[:1].upper() + function[1:]
    parameters, passed = [], []
    if any(parameter["in"] == "path" for parameter in operation.get("parameters", [])):
        parameters.append(f"path: {prefix}Data['path']")
        passed.append("path")
    if any(parameter["in"] == "query" for parameter in operation.get("parameters", [])):
        parameters.append(f"query: NonNullable<{prefix}Data['query']> = {{}}")
        passed.append("query")
    if "requestBody" in operation:
        # A body the operation does not need (rotate-secret's) may be left out.
        optional = "?" if not operation["requestBody"].get("required", True) else ""
        parameters.insert(len(parameters) - ("query" in passed), f"body{optional}: {prefix}Data['body']")
        passed.insert(len(passed) - ("query" in passed), "body")
    doc = f"  /** {operation.get('summary', '')} (free): {verb.upper()} {path}. */\n"
    call = "".join(f", {name}" for name in passed)
    method = (
        f"{doc}  {function}({', '.join(parameters)}): Promise<{prefix}Response> {{\n"
        f"    return this.call<{prefix}Response>((client) => sdk.{function}({{ client{call} }}));\n  }}\n"
    )
    return method, {f"{prefix}Data", f"{prefix}Response"}


def typescript_operations(document: dict) -> str:
    """Return the source of ``operations.gen.ts``: one method per operation, named after its
    path, taking its query (or, for a POST-only operation, its body) and resolving to its
    answer's type (the GET of a path that has GET and POST: they take the same parameters)."""
    methods, types = [], set()
    for path, operations in document["paths"].items():
        if not path.startswith("/v1/"):
            continue
        if any(operation.get("x-resource") for operation in operations.values()):
            for verb, operation in operations.items():
                method, resource_types = _typescript_resource_method(verb, path, operation)
                methods.append(method)
                types |= resource_types
            continue
        verb = "get" if "get" in operations else "post"
        method = typescript_method(path, operations[verb])
        function = _camel(operations[verb]["operationId"])
        prefix = function[:1].upper() + function[1:]
        types |= {f"{prefix}Data", f"{prefix}Response"}
        summary = operations[verb].get("summary", "")
        required = any(parameter.get("required") for parameter in operations[verb].get("parameters", []))
        credits = operations[verb].get("x-credits")
        doc = f"  /** {summary}{f' ({credits} credits)' if credits is not None else ''}: {verb.upper()} {path}. */\n"
        if verb == "get" and not operations[verb].get("parameters"):
            # A GET without parameters (/v1/account): its Data's query is never, so none is taken.
            parameter, passed = "", ""
        elif verb == "get":
            parameter = f"query: NonNullable<{prefix}Data['query']>" + ("" if required else " = {}")
            passed = ", query"
        else:
            parameter, passed = f"body: {prefix}Data['body']", ", body"
        documents = document_formats(operations[verb])
        switch = shape_switch(document, operations[verb]) if verb == "get" else None
        if switch and not documents:
            # One overload per value of the boolean that chooses data's shape, and one for a
            # boolean not known until run time (either shape).
            name, members, is_list = switch
            types |= set(members.values())
            query = f"NonNullable<{prefix}Data['query']>"
            shaped = {
                value: f"Shaped<{prefix}Response, {f'Array<{member}>' if is_list else member}>"
                for value, member in members.items()
            }
            optional = "" if required else "?"
            methods.append(
                doc + f"  {method}(query{optional}: {query} & {{ {name}?: false }}): Promise<{shaped[False]}>;\n"
                f"  {method}(query: {query} & {{ {name}: true }}): Promise<{shaped[True]}>;\n"
                f"  {method}(query{optional}: {query}): Promise<{prefix}Response>;\n"
                f"  {method}({parameter}): Promise<{prefix}Response> {{\n"
                f"    return this.call<{prefix}Response>((client) => sdk.{function}({{ client{passed} }}));\n  }}\n"
            )
            continue
        if not documents:
            methods.append(
                f"{doc}  {method}({parameter}): Promise<{prefix}Response> {{\n"
                f"    return this.call<{prefix}Response>((client) => sdk.{function}({{ client{passed} }}));\n  }}\n"
            )
            continue
        # One overload per format value, the default's format optional: a document's text or
        # bytes, else the JSON answer (only a GET's query has a format).
        query = f"NonNullable<{prefix}Data['query']>"
        values = next(
            parameter["schema"] for parameter in operations[verb]["parameters"] if parameter["name"] == "format"
        )
        overloads, branches = [], []
        for value in values["enum"]:
            returns = ("Uint8Array" if documents[value][1] else "string") if value in documents else f"{prefix}Response"
            if value == values.get("default"):
                overloads.append(
                    f"  {method}(query{'' if required else '?'}: {query} & {{ format?: '{value}' }}): "
                    f"Promise<{returns}>;\n"
                )
            else:
                overloads.append(f"  {method}(query: {query} & {{ format: '{value}' }}): Promise<{returns}>;\n")
        for value, (media_type, binary) in documents.items():
            reader, parse_as = ("bytes", "arrayBuffer") if binary else ("text", "text")
            branches.append(
                f"    if (format === '{value}') return this.{reader}((client) => sdk.{function}({{ client, query, "
                f"parseAs: '{parse_as}' }}), '{media_type}');\n"
            )
        returned = (
            " | ".join(dict.fromkeys(("Uint8Array" if binary else "string") for _, binary in documents.values()))
            + f" | {prefix}Response"
        )
        methods.append(
            doc + "".join(overloads) + f"  {method}({parameter}): Promise<{returned}> {{\n"
            f"    const format = query.format ?? '{values.get('default')}';\n"
            + "".join(branches)
            + f"    return this.call<{prefix}Response>((client) => sdk.{function}({{ client{passed} }}));\n  }}\n"
        )
    return (
        "// Each operation of the API as a method of Celestial (generated by make sdk from the\n// OpenAPI document: "
        "edit deploy/generate_sdks.py, not this file).\nimport type { Client } from "
        "'./generated/client/index.js';\nimport * as sdk from './generated/sdk.gen.js';\nimport type { "
        f"{', '.join(sorted(types))} }} from './generated/types.gen.js';\n\n/** What a generated function resolves "
        "to: the answer's data or error, and the response\n * (undefined when fetch failed). */\nexport interface "
        "SendResult {\n  data?: unknown;\n  error?: unknown;\n  response?: Response;\n}\n\n/** An answer whose "
        "data holds one shape of a union (the positions of /v1/positions: EclipticPosition,\n * or "
        "EquatorialPosition with equatorial: true), typed by the call's overload. */\nexport type Shaped<Answer, Data> "
        "= Omit<Answer, 'data'> & { data: Data };\n\n/** The operations; "
        "Celestial gives them their client and call. */\nexport abstract class Operations {\n  protected abstract "
        "call<T>(send: (client: Client) => Promise<SendResult>): Promise<T>;\n  protected abstract text(send: "
        "(client: Client) => Promise<SendResult>, mediaType: string): Promise<string>;\n  protected abstract "
        "bytes(send: (client: Client) => Promise<SendResult>, mediaType: string): Promise<Uint8Array>;\n\n"
        + "\n".join(methods)
        + "}\n"
    )


def build_typescript(project: Path, dist: Path) -> Path:
    """Return the npm tarball built from the TypeScript client's ``project`` into ``dist``:
    compiled twice (an ES module build and a CommonJS one, each with its types), then packed."""
    install_typescript_generator()
    for config in ("tsconfig.esm.json", "tsconfig.cjs.json"):
        compiled = subprocess.run(
            [str(TYPESCRIPT_COMPILER), "-p", str(project / config)], capture_output=True, text=True
        )
        if compiled.returncode != 0:
            raise RuntimeError(f"tsc -p {config} failed:\n{compiled.stdout}{compiled.stderr}")
    # The package is "type": "module"; the CommonJS build says it is CommonJS for Node and tsc.
    (project / "dist" / "cjs" / "package.json").write_text('{"type": "commonjs"}\n')
    dist.mkdir(parents=True, exist_ok=True)
    for old in dist.glob("celestial-client-*.tgz"):
        old.unlink()
    packed = subprocess.run(
        ["npm", "pack", "--silent", "--pack-destination", str(dist)],
        cwd=project,
        check=True,
        capture_output=True,
        text=True,
    )
    return dist / packed.stdout.strip().splitlines()[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running gateway to read the document from (default: this checkout's)")
    args = parser.parse_args(argv)
    document = SDK_DIR / "openapi.json"
    document.write_bytes(served_document(args.url))
    for built in build_python(generate_python(document, SDK_DIR / "python"), DIST_DIR):
        print(f"Python client: {built.relative_to(REPO_ROOT)} ({built.stat().st_size:,} bytes)")
    built = build_typescript(generate_typescript(document, SDK_DIR / "typescript"), DIST_DIR)
    print(f"TypeScript client: {built.relative_to(REPO_ROOT)} ({built.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
