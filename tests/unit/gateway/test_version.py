"""gateway/version.py: every answer's ``meta.version`` names the API (``v1``), the build, the
Swiss Ephemeris release and the shipped tz database's release (interface.md, "meta")."""

from __future__ import annotations

import re
import tomllib

import swisseph

from gateway.version import API_VERSION, BUILD_VERSION, answer_version
from shared.runtime.config import REPO_ROOT


def test_the_answer_version_has_the_four_parts():
    version = answer_version()
    assert set(version) == {"api", "build", "engine", "tz"} and version["api"] == API_VERSION == "v1"


def test_the_build_version_is_the_packages():
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    assert BUILD_VERSION == project["version"]


def test_the_tz_release_has_the_iana_form_and_the_engine_is_the_loaded_swiss_ephemeris():
    version = answer_version()
    assert re.fullmatch(r"\d{4}[a-z]", version["tz"]), version["tz"]
    assert version["engine"] == f"Swiss Ephemeris {swisseph.version}"
