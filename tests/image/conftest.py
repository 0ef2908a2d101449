"""The container image's smoke suite: run by `make test-image`, which builds the image and sets
CELESTIAL_IMAGE (and CELESTIAL_NATS_IMAGE); `make test-all` skips it, having no image to run."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config, items):
    if os.environ.get("CELESTIAL_IMAGE"):
        return
    skip = pytest.mark.skip(reason="the image's smoke suite runs under `make test-image` (CELESTIAL_IMAGE unset)")
    for item in items:
        if "tests/image/" in str(item.fspath):
            item.add_marker(skip)
