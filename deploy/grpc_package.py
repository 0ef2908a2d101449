"""``make sdk``'s gRPC package (issue 38): the code generated from ``protos/celestial/v1`` as
``celestial-grpc``, for the internal consumers that call a service pool directly, built into
``sdk/dist`` beside the HTTP clients (a wheel and an sdist).

The package holds ``celestial/v1``: each proto's ``_pb2.py``, ``_pb2_grpc.py`` and ``.pyi``
(generated here as ``make proto`` generates them for the server), the descriptor set and a
``py.typed``; and ``celestial_grpc`` (``sdk/grpc-template``): the channel options of a pool
and the reading of a refusal's rich error details, with the error codes' HTTP statuses (the
server's catalogue). Its dependencies are grpcio, protobuf and googleapis-common-protos, each
from the version the generated code needs at import (or, for googleapis-common-protos, the
server's pin) to the next major one; the package is versioned with the API (pyproject.toml's
version) and MIT-licensed like the HTTP clients. Nothing generated is committed.
"""

from __future__ import annotations

import argparse
import re
import shutil
import string
import subprocess
import sys
import tomllib
from pathlib import Path

import grpc_tools

from deploy.client_contract import SDK_DIR, error_statuses
from deploy.generate_sdks import DIST_DIR
from deploy.python_client_package import python_error_codes
from shared.runtime.config import REPO_ROOT

GRPC_TEMPLATE = SDK_DIR / "grpc-template"
PROTOS = REPO_ROOT / "protos"
REQUIREMENTS = REPO_ROOT / "requirements.txt"
# The protos of the well-known types (google/protobuf/struct.proto ...), which grpcio-tools ships.
WELL_KNOWN_PROTOS = Path(grpc_tools.__file__).parent / "_proto"
#: The distribution's name and the prefix of its built files' names.
DISTRIBUTION = "celestial-grpc"
FILE_PREFIX = "celestial_grpc-"


def generate_stubs(output: Path) -> Path:
    """Return ``output/celestial/v1``, where the protos' Python code is generated as ``make
    proto`` generates it (messages, stubs, ``.pyi``, descriptor set), with a ``py.typed``."""
    package = output / "celestial" / "v1"
    shutil.rmtree(output / "celestial", ignore_errors=True)
    package.mkdir(parents=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "grpc_tools.protoc",
            "-I",
            str(PROTOS),
            "-I",
            str(WELL_KNOWN_PROTOS),
            f"--python_out={output}",
            f"--grpc_python_out={output}",
            f"--pyi_out={output}",
            "--include_source_info",
            f"--descriptor_set_out={package / 'descriptor_set.binpb'}",
            *sorted(str(proto) for proto in (PROTOS / "celestial" / "v1").glob("*.proto")),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    # PEP 561: the .pyi beside the modules are the package's types. In celestial/v1, since
    # celestial and celestial/v1 are namespace packages, as protoc leaves them.
    (package / "py.typed").write_text("")
    return package


def pinned_version(requirements: str, name: str) -> str:
    """Return the version ``requirements`` (requirements.txt's text) pins ``name`` to.

    Raises LookupError when it pins no such package."""
    found = re.search(rf"^{re.escape(name)}==([^\s#]+)", requirements, re.MULTILINE | re.IGNORECASE)
    if found is None:
        raise LookupError(f"requirements.txt pins no {name}")
    return found.group(1)


def dependency_floors(stubs: Path, requirements: str) -> dict[str, str]:
    """Return the lowest version of each dependency of the package generated in ``stubs``:
    grpcio's and protobuf's, the versions the generated code refuses to import below (its
    ``GRPC_GENERATED_VERSION``, its protobuf gencode version); googleapis-common-protos's, the
    version ``requirements`` pins for the server."""
    grpc_code = next(stubs.glob("*_pb2_grpc.py")).read_text()
    message_code = next(stubs.glob("*_pb2.py")).read_text()
    grpcio = re.search(r"^GRPC_GENERATED_VERSION = '([^']+)'", grpc_code, re.MULTILINE)
    protobuf = re.search(r"^# Protobuf Python Version: (\S+)", message_code, re.MULTILINE)
    if grpcio is None or protobuf is None:
        raise LookupError(f"the generated code in {stubs} names no grpcio or protobuf version")
    return {
        "grpcio": grpcio.group(1),
        "protobuf": protobuf.group(1),
        "googleapis_common_protos": pinned_version(requirements, "googleapis-common-protos"),
    }


def package_version() -> str:
    """Return the API's version, which the package carries (pyproject.toml's)."""
    return tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["version"]


def generate_grpc(output: Path) -> Path:
    """Return ``output``, the folder of the gRPC package: the generated ``celestial/v1``, our
    ``celestial_grpc`` with its generated ``error_codes``, the README, licence and pyproject."""
    output.mkdir(parents=True, exist_ok=True)
    stubs = generate_stubs(output)
    helpers = output / "celestial_grpc"
    shutil.rmtree(helpers, ignore_errors=True)
    shutil.copytree(GRPC_TEMPLATE / "celestial_grpc", helpers, ignore=shutil.ignore_patterns("__pycache__"))
    (helpers / "error_codes.py").write_text(python_error_codes(error_statuses()))
    (helpers / "py.typed").write_text("")
    for name in ("README.md", "LICENSE"):
        shutil.copy(GRPC_TEMPLATE / name, output / name)
    pyproject = string.Template((GRPC_TEMPLATE / "pyproject.toml").read_text())
    floors = dependency_floors(stubs, REQUIREMENTS.read_text())
    (output / "pyproject.toml").write_text(pyproject.substitute(version=package_version(), **floors))
    return output


def build_grpc(project: Path, dist: Path) -> list[Path]:
    """Return the wheel and sdist built from the gRPC package's ``project`` into ``dist``
    (hatchling from this environment: no download), replacing the ones built before."""
    dist.mkdir(parents=True, exist_ok=True)
    for old in dist.glob(FILE_PREFIX + "*"):
        old.unlink()
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--wheel", "--sdist", "--outdir", str(dist), str(project)],
        check=True,
        capture_output=True,
        text=True,
    )
    return sorted(dist.glob(FILE_PREFIX + "*"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    for built in build_grpc(generate_grpc(SDK_DIR / "grpc"), DIST_DIR):
        print(f"gRPC package: {built.relative_to(REPO_ROOT)} ({built.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
