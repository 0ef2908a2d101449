"""The browser the pictures' tests compare resvg with (tests/golden_pictures.py)."""

from __future__ import annotations

import pytest

from tests.e2e.browser import launched_chromium


@pytest.fixture(scope="module")
def chromium_page(processes):
    """A page of Debian's Chromium at one device pixel per CSS pixel, its viewport sized by
    :func:`tests.golden_pictures.chromium_pixels` for each picture."""
    with launched_chromium() as browser:
        page = browser.new_page(viewport={"width": 800, "height": 800}, device_scale_factor=1)
        yield page
