"""Every code block of docs/sdk-python.md and docs/sdk-typescript.md, and /docs' code samples
(``x-codeSamples``), held as a user holds them (issue 49): each Python block type-checks under
``mypy --strict`` against the wheel installed alone in a fresh venv and runs against the real
stack; each TypeScript block compiles under ``tsc --strict`` (the pinned compiler) in a fresh npm
project holding only the tarball, as ``module: nodenext`` and as ``commonjs``, and runs under
Node against the stack. The samples type-check the same way, so each names a method (and
keywords) the client has.

The blocks read the stack's address and a key from ``CELESTIAL_BASE_URL`` and
``CELESTIAL_API_KEY``, as the docs tell a user to. CommonJS has no top-level await: there each
block's statements run in an async function, its imports above it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from deploy.generate_sdks import served_document
from deploy.local_stack import Stack
from deploy.typescript_client_package import TYPESCRIPT_COMPILER
from shared.runtime.config import REPO_ROOT
from tests.e2e.test_client_packages import TYPESCRIPT_BUILDS, key, packages, tarball, venv  # noqa: F401 (fixtures)

DOCS = REPO_ROOT / "docs"
# What the blocks use of Node, declared so the fresh project needs no @types/node.
NODE_DECLARATIONS = """\
declare const process: { env: Record<string, string | undefined> };
declare module 'node:fs/promises' {
  export function writeFile(path: string, data: Uint8Array | string): Promise<void>;
}
"""
IMPORT_LINE = re.compile(r"^import .*;$", re.MULTILINE)


def blocks(page: str, language: str) -> list[str]:
    """Return the code blocks of ``page`` fenced as ``language``."""
    return re.findall(rf"```{language}\n(.*?)```", (DOCS / page).read_text(), re.DOTALL)


PYTHON_BLOCKS = blocks("sdk-python.md", "python")
TYPESCRIPT_BLOCKS = blocks("sdk-typescript.md", "ts")


def test_the_pages_have_the_blocks_this_test_holds():
    # A block fenced otherwise (```py, ```typescript) would escape the test.
    for page, language in (("sdk-python.md", "python"), ("sdk-typescript.md", "ts")):
        fences = set(re.findall(r"^```(\w+)$", (DOCS / page).read_text(), re.MULTILINE))
        assert fences <= {language, "sh"}, (page, fences)
    assert len(PYTHON_BLOCKS) >= 8 and len(TYPESCRIPT_BLOCKS) >= 8


@pytest.fixture(scope="module")
def document(stack: Stack) -> dict:
    return json.loads(served_document(stack.base_url))


def samples(document: dict, language: str) -> list[str]:
    """Return every operation's ``x-codeSamples`` source in ``language``."""
    return [
        sample["source"]
        for operations in document["paths"].values()
        for operation in operations.values()
        for sample in operation.get("x-codeSamples", ())
        if sample["lang"] == language
    ]


def mypy_strict(venv: Path, folder: Path) -> subprocess.CompletedProcess:
    """Return mypy --strict's run over every program in ``folder``, reading the fresh venv's packages."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--python-executable",
            str(venv),
            *(str(path) for path in sorted(folder.glob("*.py"))),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=folder,
    )


@pytest.fixture(scope="module")
def python_blocks(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("python-blocks")
    for index, block in enumerate(PYTHON_BLOCKS):
        (folder / f"block_{index}.py").write_text(block)
    return folder


def test_every_python_block_of_the_docs_passes_mypy_strict(venv, python_blocks):  # noqa: F811
    checked = mypy_strict(venv, python_blocks)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def environment(stack: Stack, api_key: str) -> dict[str, str]:
    return {**os.environ, "CELESTIAL_BASE_URL": stack.base_url, "CELESTIAL_API_KEY": api_key}


@pytest.mark.parametrize("index", range(len(PYTHON_BLOCKS)))
def test_each_python_block_of_the_docs_runs_against_the_stack(venv, python_blocks, stack, key, index):  # noqa: F811
    ran = subprocess.run(
        [str(venv), f"block_{index}.py"],
        cwd=python_blocks,
        env=environment(stack, key),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert ran.returncode == 0, PYTHON_BLOCKS[index] + ran.stderr


def test_every_python_code_sample_of_the_reference_passes_mypy_strict(venv, document, tmp_path):  # noqa: F811
    sources = samples(document, "Python")
    assert len(sources) == sum(
        1
        for operations in document["paths"].values()
        for operation in operations.values()
        if "operationId" in operation
    )
    for index, source in enumerate(sources):
        (tmp_path / f"sample_{index}.py").write_text(source)
    checked = mypy_strict(venv, tmp_path)
    assert checked.returncode == 0, checked.stdout[-5000:]


def as_commonjs(block: str) -> str:
    """Return ``block`` with its statements in an async function (CommonJS has no top-level
    await), its imports above it."""
    imports = IMPORT_LINE.findall(block)
    rest = IMPORT_LINE.sub("", block)
    return "\n".join(imports) + "\n\nvoid (async (): Promise<void> => {\n" + rest + "\n})();\n"


def npm_project(tarball: Path, folder: Path, build: str, sources: dict[str, str]) -> Path:  # noqa: F811
    """Return a fresh npm project holding only the tarball and ``sources`` (name: text),
    compiled with tsc --strict as ``build`` says (asserting it compiles without an error)."""
    package_type, module, resolution = TYPESCRIPT_BUILDS[build]
    folder.mkdir(parents=True)
    (folder / "package.json").write_text(json.dumps({"name": "app", "private": True, "type": package_type}))
    subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--silent", str(tarball)], cwd=folder, check=True, timeout=300
    )
    (folder / "node.d.ts").write_text(NODE_DECLARATIONS)
    for name, text in sources.items():
        (folder / name).write_text(text if build == "nodenext" else as_commonjs(text))
    options = {
        "target": "ES2022",
        "module": module,
        "moduleResolution": resolution,
        "lib": ["ES2022", "DOM"],
        "types": [],
        "strict": True,
        "outDir": "dist",
    }
    (folder / "tsconfig.json").write_text(json.dumps({"compilerOptions": options, "include": ["node.d.ts", *sources]}))
    compiled = subprocess.run(
        [str(TYPESCRIPT_COMPILER), "-p", str(folder)], capture_output=True, text=True, timeout=600
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    return folder


@pytest.fixture(scope="module", params=sorted(TYPESCRIPT_BUILDS))
def typescript_blocks(request, tarball, tmp_path_factory) -> Path:  # noqa: F811
    """Return the fresh npm project with every block compiled as the param says."""
    if shutil.which("node") is None:
        pytest.skip("node is needed to run the TypeScript blocks")
    sources = {f"block_{index}.ts": block for index, block in enumerate(TYPESCRIPT_BLOCKS)}
    return npm_project(tarball, tmp_path_factory.mktemp("ts-blocks") / request.param, request.param, sources)


@pytest.mark.parametrize("index", range(len(TYPESCRIPT_BLOCKS)))
def test_each_typescript_block_of_the_docs_compiles_strictly_and_runs_against_the_stack(
    typescript_blocks,
    stack,
    key,
    index,  # noqa: F811
):
    ran = subprocess.run(
        ["node", f"dist/block_{index}.js"],
        cwd=typescript_blocks,
        env=environment(stack, key),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert ran.returncode == 0, TYPESCRIPT_BLOCKS[index] + ran.stderr


def test_every_typescript_code_sample_of_the_reference_compiles_strictly(tarball, document, tmp_path):  # noqa: F811
    sources = {f"sample_{index}.ts": source for index, source in enumerate(samples(document, "TypeScript"))}
    assert sources
    npm_project(tarball, tmp_path / "samples", "nodenext", sources)
