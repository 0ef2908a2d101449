"""gateway/dashboard/routes.py: the dashboard's routes on the gateway app in process: a wrong
method is a page with its Allow header (RFC 9110 §15.5.6), and every file the pages read ships
in the package. The rules of each page are in the page modules' tests."""

from __future__ import annotations


def test_a_wrong_method_is_a_page_that_names_the_allowed_ones(pages_stack):
    response = pages_stack.client().put("/dashboard/sign-in")
    assert response.status_code == 405 and response.headers["content-type"].startswith("text/html")
    assert set(response.headers["allow"].replace(" ", "").split(",")) >= {"GET", "POST"}


def test_every_file_the_dashboard_reads_ships_in_the_package():
    """A non-editable install (the container image's ``pip install .``) carries only the
    package data pyproject.toml names: every static file and data file must match."""
    import fnmatch
    import tomllib

    from shared.runtime.config import REPO_ROOT

    patterns = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"][
        "gateway.dashboard"
    ]
    folder = REPO_ROOT / "gateway" / "dashboard"
    data = [
        p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")
    ]
    assert data and all(any(fnmatch.fnmatch(name, pattern) for pattern in patterns) for name in data), data
