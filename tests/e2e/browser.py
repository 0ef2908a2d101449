"""The browser of the end-to-end tests: Debian's chromium driven by Playwright (never a
downloaded browser), and the folder its screenshots go to."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from shared.runtime.config import REPO_ROOT

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS_ROOT = REPO_ROOT / "var" / "test-output"


def screenshot_folder(name: str) -> Path:
    """Return the folder of a test module's screenshots, created if missing."""
    folder = SCREENSHOTS_ROOT / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def launched_chromium() -> Iterator:
    """Yield a Playwright browser on Debian's chromium; skip when either is not installed."""
    playwright_sync = pytest.importorskip(
        "playwright.sync_api", reason="playwright is a dev dependency: run make setup"
    )
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium; .ci/run installs it)")
    with playwright_sync.sync_playwright() as playwright:
        # Root (as in CI containers) cannot use chromium's sandbox.
        args = ["--no-sandbox"] if os.geteuid() == 0 else []
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=args)
        try:
            yield browser
        finally:
            browser.close()
