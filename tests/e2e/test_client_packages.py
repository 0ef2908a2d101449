"""The client packages ``make sdk`` builds (issue 38), installed as a user installs them: the
wheel alone in a fresh venv, the npm tarball alone in a fresh npm project; each program a user
would write computes against the real stack, and type-checks strictly (a chart wheel's PNG as
bytes, its SVG as text: issue 37)."""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from standardwebhooks import Webhook as StandardWebhook

from deploy.generate_sdks import served_document
from deploy.local_stack import Stack, free_port_block
from deploy.python_client_package import build_python, generate_python
from deploy.typescript_client_package import TYPESCRIPT_COMPILER, build_typescript, generate_typescript
from deploy.webhook_receiver import Receiver

PROGRAMS = Path(__file__).parent / "client_packages"
# What the server needs and a client must never pull in.
SERVER_DEPENDENCIES = {
    "grpcio",
    "grpcio-status",
    "grpcio-health-checking",
    "protobuf",
    "pyswisseph",
    "starlette",
    "uvicorn",
    "nats-py",
}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# How the programs' local time in Lyon reads (meta.moment.datetime): CEST, UTC+2 in July 1985.
LYON_MOMENT = {"tz": "Europe/Paris", "abbreviation": "CEST", "utc": "1985-07-13T12:05:00.000Z"}
TYPESCRIPT_BUILDS = {
    # package.json "type", then the compiler's module and moduleResolution
    "nodenext": ("module", "nodenext", "nodenext"),
    "commonjs": ("commonjs", "commonjs", "node10"),
}


@pytest.fixture(scope="module")
def packages(stack: Stack, tmp_path_factory) -> dict[str, Path]:
    """Return the built wheel, sdist and npm tarball, from the real stack's document."""
    folder = tmp_path_factory.mktemp("client-packages")
    document = folder / "openapi.json"
    document.write_bytes(served_document(stack.base_url))
    wheel, sdist = sorted(
        build_python(generate_python(document, folder / "python"), folder / "dist"), key=lambda p: p.suffix
    )[::-1]
    built = {"wheel": wheel, "sdist": sdist}
    if shutil.which("npm") and shutil.which("node"):
        built["tarball"] = build_typescript(generate_typescript(document, folder / "typescript"), folder / "dist")
    return built


@pytest.fixture(scope="module")
def key(stack: Stack) -> str:
    return stack.new_key()[1]


@pytest.fixture(scope="module")
def venv(packages, tmp_path_factory) -> Path:
    """Return the python of a fresh venv holding the built wheel and its own dependencies
    (from the indexes pip is configured with), nothing of this checkout."""
    folder = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    python = folder / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(packages["wheel"])],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return python


def run_python(venv: Path, program: str, *args: str) -> list[dict]:
    """Return the JSON lines ``program`` printed, run by the fresh venv outside the checkout."""
    ran = subprocess.run([str(venv), program, *args], cwd=venv.parent, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    return [json.loads(line) for line in ran.stdout.splitlines()]


def test_the_wheel_computes_a_natal_chart_from_a_town_and_a_local_time(venv, stack, key):
    chart = run_python(venv, str(PROGRAMS / "natal_chart.py"), stack.base_url, key)[0]
    # Lyon, 13 July 1985, 14:05 CEST (12:05 UTC): the Sun at 21° Cancer.
    assert chart == {"sign": "cancer", "credits_used": 2, "moment": LYON_MOMENT}


def test_the_wheel_raises_invalid_parameter_with_its_suggestion_for_a_bad_house_system(venv, stack, key):
    refused = run_python(venv, str(PROGRAMS / "natal_chart.py"), stack.base_url, key)[1]
    assert refused["code"] == "invalid_parameter" and refused["param"] == "system"
    assert "placidus" in refused["suggestion"]


@pytest.mark.parametrize("program", ["natal_chart.py", "chart_wheel.py"])
def test_the_program_against_the_wheel_passes_mypy_strict(venv, program):
    # mypy of this checkout, reading the packages of the fresh venv (PEP 561: py.typed).
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--python-executable",
            str(venv),
            str(PROGRAMS / program),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


#: The default wheel of the programs' birth as a PNG: 800 pixels wide, its 800 px square under
#: a header of four lines (docs/chart-wheels.md, "The frame": 0.021 x 800 x (1.4 x 4 + 1.2)).
WHEEL_PNG_SIZE = (800, 914)


def png_size(path: Path) -> tuple[int, int]:
    """Return the width and height of the PNG file at ``path``, asserting it is one: the
    signature, then the IHDR chunk that must come first."""
    head = path.read_bytes()[:24]
    assert head[:8] == PNG_SIGNATURE and head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


@pytest.fixture(scope="module")
def python_documents(venv, stack, key, tmp_path_factory) -> tuple[Path, list[dict]]:
    """Return the PNG the document program saved and the JSON lines it printed (issue 37)."""
    png = tmp_path_factory.mktemp("python-documents") / "wheel.png"
    return png, run_python(venv, str(PROGRAMS / "chart_wheel.py"), stack.base_url, key, str(png))


def test_the_wheel_saves_a_png_chart_wheel_from_the_bytes_it_answers(python_documents):
    png, _ = python_documents
    assert png_size(png) == WHEEL_PNG_SIZE


def test_the_wheel_answers_the_svg_chart_wheel_as_text(python_documents):
    svg = python_documents[1][0]
    assert svg["head"] in ("<svg ", "<?xml") and svg["role_img"]


def test_the_wheel_answers_the_ics_calendar_as_text(python_documents):
    assert python_documents[1][1] == {"first_line": "BEGIN:VCALENDAR"}


def test_the_wheel_raises_invalid_parameter_for_a_png_request_it_refuses(python_documents):
    assert python_documents[1][2] == {"code": "invalid_parameter", "param": "system"}


def test_a_server_that_is_down_raises_network_error_not_an_httpx_error(venv):
    closed = f"http://127.0.0.1:{free_port_block(1)}"
    program = (
        "import json, sys\nfrom celestial_client import Celestial, NetworkError, Retry\ntry:\n    "
        "Celestial(base_url=sys.argv[1], api_key='svc_live_x', "
        "retry=Retry(attempts=1)).positions(datetime_='2024-03-20T12:00:00Z')\nexcept NetworkError as error:\n    "
        "print(json.dumps({'code': error.code, 'cause': type(error.__cause__).__name__}))\n"
    )
    assert run_python(venv, "-c", program, closed) == [{"code": "connection_failed", "cause": "ConnectError"}]


def test_rate_limited_carries_retry_after_when_the_wait_is_not_taken(venv, stack):
    # One request a minute; attempts=1 leaves the wait to the caller.
    limited = stack.new_key(rate_per_minute=1)[1]
    program = (
        "import json, sys\nfrom celestial_client import Celestial, RateLimited, Retry\napi = "
        "Celestial(base_url=sys.argv[1], api_key=sys.argv[2], retry=Retry(attempts=1))\ntry:\n    for _ in "
        "range(3):\n        api.positions(datetime_='2024-03-20T12:00:00Z')\nexcept RateLimited as error:\n    "
        "print(json.dumps({'code': error.code, 'status': error.status, 'retry_after': error.retry_after, "
        "'request_id': error.request_id}))\n"
    )
    [refused] = run_python(venv, "-c", program, stack.base_url, limited)
    assert refused["code"] == "rate_limit_exceeded" and refused["status"] == 429
    assert refused["retry_after"] >= 1 and refused["request_id"]


def test_a_429_is_retried_after_its_retry_after_and_then_answered(venv, stack, key):
    # A fake API (httpx's MockTransport) that refuses once with Retry-After: 0, then answers
    # what the real stack answered.
    with stack.client(key) as client:
        answer = client.get("/v1/timezone", params={"lat": 45.75, "lon": 4.85, "datetime": "2024-03-20T12:00:00Z"}).text
    program = (
        "import json, sys, httpx\nfrom celestial_client import Celestial\ncalls = []\ndef answer(request):\n    "
        "calls.append(request.url.path)\n    if len(calls) == 1:\n        return httpx.Response(429, "
        "headers={'Retry-After': '0'}, json={'errors': [{'code': 'rate_limit_exceeded', 'message': 'm', "
        "'suggestion': 's'}], 'meta': {'request_id': 'r'}})\n    return httpx.Response(200, "
        "content=sys.argv[1].encode(), headers={'Content-Type': 'application/json'})\napi = "
        "Celestial(base_url='http://api.invalid', api_key='k', httpx_args={'transport': "
        "httpx.MockTransport(answer)})\nzone = api.timezone(lat=45.75, lon=4.85, "
        "datetime_='2024-03-20T12:00:00Z')\nprint(json.dumps({'calls': len(calls), 'tz': zone.data.tz}))\n"
    )
    assert run_python(venv, "-c", program, answer) == [{"calls": 2, "tz": "Europe/Paris"}]


def test_the_wheel_says_its_licence_and_holds_it(packages):
    with zipfile.ZipFile(packages["wheel"]) as wheel:
        names = wheel.namelist()
        metadata = wheel.read(next(name for name in names if name.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in metadata.splitlines()
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    with tarfile.open(packages["sdist"]) as sdist:
        assert any(name.endswith("/LICENSE") for name in sdist.getnames())


def test_the_wheel_depends_on_no_server_dependency(packages):
    with zipfile.ZipFile(packages["wheel"]) as wheel:
        metadata = wheel.read(next(name for name in wheel.namelist() if name.endswith(".dist-info/METADATA"))).decode()
    required = {
        Requirement(line.split(":", 1)[1]).name.lower()
        for line in metadata.splitlines()
        if line.startswith("Requires-Dist:")
    }
    assert required == {"httpx", "attrs"} and not required & SERVER_DEPENDENCIES


def test_the_packages_carry_the_apis_version(packages, stack):
    version = json.loads(served_document(stack.base_url))["info"]["version"]
    assert packages["wheel"].name == f"celestial_client-{version}-py3-none-any.whl"
    if "tarball" in packages:
        assert packages["tarball"].name == f"celestial-client-{version}.tgz"


@pytest.fixture(scope="module")
def tarball(packages) -> Path:
    if "tarball" not in packages:
        pytest.skip("node and npm are needed to build the npm package (.ci/run installs them)")
    return packages["tarball"]


def tarball_manifest(tarball: Path) -> dict:
    """Return the package.json inside the npm tarball."""
    with tarfile.open(tarball) as packed:
        return json.load(packed.extractfile("package/package.json"))


def test_the_npm_package_says_its_licence_and_holds_it(tarball):
    assert tarball_manifest(tarball)["license"] == "MIT"
    with tarfile.open(tarball) as packed:
        assert "package/LICENSE" in packed.getnames()


def test_the_npm_package_exports_an_es_module_and_commonjs_each_with_its_types(tarball):
    exported = tarball_manifest(tarball)["exports"]["."]
    assert set(exported) == {"import", "require"}
    assert all(set(exported[kind]) == {"types", "default"} for kind in exported)


def test_the_npm_package_depends_on_nothing(tarball):
    # The generated client uses the global fetch (Node 18+, browsers, Deno, Bun).
    assert "dependencies" not in tarball_manifest(tarball)


def fresh_npm_project(tarball: Path, folder: Path, build: str) -> Path:
    """Return a fresh npm project holding only the tarball and the programs, compiled as
    ``build`` says with tsc --strict (asserting it compiles without an error)."""
    package_type, module, resolution = TYPESCRIPT_BUILDS[build]
    folder.mkdir()
    (folder / "package.json").write_text(json.dumps({"name": "app", "private": True, "type": package_type}))
    subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--silent", str(tarball)], cwd=folder, check=True, timeout=300
    )
    sources = sorted(PROGRAMS.glob("*.ts"))
    for source in sources:
        shutil.copy(source, folder / source.name)
    options = {
        "target": "ES2022",
        "module": module,
        "moduleResolution": resolution,
        "lib": ["ES2022", "DOM"],
        "types": [],
        "strict": True,
        "outDir": "dist",
    }
    (folder / "tsconfig.json").write_text(
        json.dumps({"compilerOptions": options, "include": [source.name for source in sources]})
    )
    compiled = subprocess.run(
        [str(TYPESCRIPT_COMPILER), "-p", str(folder)], capture_output=True, text=True, timeout=300
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    return folder


@pytest.fixture(scope="module", params=sorted(TYPESCRIPT_BUILDS))
def npm_project(request, tarball, tmp_path_factory) -> Path:
    """Return a fresh npm project with the programs compiled as the param says."""
    return fresh_npm_project(tarball, tmp_path_factory.mktemp("npm") / request.param, request.param)


def run_node(project: Path, program: str, *args: str) -> list[dict]:
    """Return the JSON lines the compiled ``program`` printed, run by node in ``project``."""
    ran = subprocess.run(["node", f"dist/{program}", *args], cwd=project, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    return [json.loads(line) for line in ran.stdout.splitlines()]


@pytest.fixture(scope="module")
def typescript_run(npm_project, stack, key) -> list[dict]:
    return run_node(npm_project, "natal_chart.js", stack.base_url, key)


@pytest.fixture(scope="module")
def typescript_documents(npm_project, stack, key) -> tuple[Path, list[dict]]:
    """Return the PNG the document program saved and the JSON lines it printed (issue 37)."""
    png = npm_project / "wheel.png"
    return png, run_node(npm_project, "chart_wheel.js", stack.base_url, key, str(png))


def test_the_npm_package_compiles_strictly_and_computes_a_natal_chart_from_a_town_and_a_local_time(typescript_run):
    assert typescript_run[0] == {"sign": "cancer", "credits_used": 2, "moment": LYON_MOMENT}


def test_the_npm_package_throws_invalid_parameter_as_an_error_with_a_stack(typescript_run):
    refused = typescript_run[1]
    assert refused["name"] == "InvalidParameter" and refused["isError"] and refused["isCelestialError"]
    assert (
        refused["code"] == "invalid_parameter" and refused["param"] == "system" and "placidus" in refused["suggestion"]
    )
    assert refused["stack"].startswith("InvalidParameter: ") and "\n    at " in refused["stack"]


def test_the_npm_package_throws_authentication_error_for_an_empty_key_before_any_request(npm_project):
    refused = {"name": "AuthenticationError", "code": "invalid_api_key", "param": "apiKey"}
    assert run_node(npm_project, "empty_key.js") == [refused, refused, {"requests": 0}]


def test_the_npm_package_saves_a_png_chart_wheel_from_the_bytes_it_answers(typescript_documents):
    png, _ = typescript_documents
    assert png_size(png) == WHEEL_PNG_SIZE


def test_the_npm_package_answers_the_svg_chart_wheel_as_text(typescript_documents):
    svg = typescript_documents[1][0]
    assert svg["head"] in ("<svg ", "<?xml") and svg["role_img"]


def test_the_npm_package_answers_the_ics_calendar_as_text(typescript_documents):
    assert typescript_documents[1][1] == {"first_line": "BEGIN:VCALENDAR"}


def test_the_npm_package_throws_invalid_parameter_for_a_png_request_it_refuses(typescript_documents):
    assert typescript_documents[1][2] == {"code": "invalid_parameter", "param": "system"}


@pytest.fixture(scope="module")
def delivery(stack: Stack, key: str, tmp_path_factory) -> tuple[str, str, str]:
    """Return a real webhook delivery: (the file holding its body, its Standard Webhooks
    headers as JSON, the subscription's secret), a test delivery the stack sent to a local
    receiver, which the specification's own library verifies."""
    with Receiver() as receiver, stack.client(key) as client:
        made = client.post("/v1/webhooks", json={"url": receiver.url, "events": ["lunation"]}).json()["data"]
        assert client.post(f"/v1/webhooks/{made['id']}/test").json()["data"]["status"] == 200
        client.delete(f"/v1/webhooks/{made['id']}")
    (got,) = receiver.received
    body = tmp_path_factory.mktemp("delivery") / "body.json"
    body.write_bytes(got.body)
    signed = {name: got.headers[name] for name in ("webhook-id", "webhook-timestamp", "webhook-signature")}
    StandardWebhook(made["secret"]).verify(got.body, signed)
    return str(body), json.dumps(signed), made["secret"]


VERIFIED = {"real": True, "tampered": False, "wrong_secret": False, "stale": False}


def test_the_wheels_verifier_accepts_a_real_delivery_and_refuses_a_tampered_body_a_wrong_secret_and_a_stale_timestamp(
    venv, delivery
):
    assert run_python(venv, str(PROGRAMS / "verify_delivery.py"), *delivery) == [VERIFIED]


def test_the_npm_verifier_accepts_a_real_delivery_and_refuses_a_tampered_body_a_wrong_secret_and_a_stale_timestamp(
    npm_project, delivery
):
    assert run_node(npm_project, "verify_delivery.js", *delivery) == [VERIFIED]


def test_no_export_of_the_npm_package_shadows_a_global(tarball, tmp_path):
    with tarfile.open(tarball) as packed:
        packed.extractall(tmp_path, filter="data")
    # The compiler's own list of the module's exports, types included (the API's error body
    # was exported as `Error`); node's list of its globals.
    listing = (
        "const ts = require(process.argv[1]); const file = process.argv[2];const program = ts.createProgram([file], "
        "{ types: [], lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'] });const checker = "
        "program.getTypeChecker();console.log(JSON.stringify(checker.getExportsOfModule("
        "checker.getSymbolAtLocation(program.getSourceFile(file))).map((s) => s.name)))"
    )
    compiler = TYPESCRIPT_COMPILER.parent.parent / "typescript"
    exported = subprocess.run(
        ["node", "-e", listing, str(compiler), str(tmp_path / "package" / "dist" / "esm" / "index.d.ts")],
        capture_output=True,
        text=True,
        check=True,
    )
    globals_ = subprocess.run(
        ["node", "-p", "JSON.stringify(Object.getOwnPropertyNames(globalThis))"],
        capture_output=True,
        text=True,
        check=True,
    )
    names = set(json.loads(exported.stdout))
    assert {"Celestial", "CelestialError", "InvalidParameter", "ErrorBody"} <= names
    assert not names & set(json.loads(globals_.stdout))
