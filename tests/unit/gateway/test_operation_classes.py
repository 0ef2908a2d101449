"""Every operation belongs to one operation class of the status page (gateway/operation_classes.py)."""

from __future__ import annotations

import pytest

from gateway.account_resources import account_operations
from gateway.batch import BATCH_PATH
from gateway.endpoints import discover_endpoints
from gateway.operation_classes import CLASS_OF_PATH, OPERATION_CLASSES, class_of_path


def every_operation_path() -> set[str]:
    return {e.path for e in discover_endpoints()} | {e.path for e in account_operations()} | {BATCH_PATH}


def test_every_operation_has_a_class():
    assert every_operation_path() - set(CLASS_OF_PATH) == set()


def test_the_table_names_no_path_that_is_not_an_operation():
    assert set(CLASS_OF_PATH) - every_operation_path() == set()


def test_every_class_in_the_table_is_a_class_the_page_shows():
    assert set(CLASS_OF_PATH.values()) == set(OPERATION_CLASSES)


@pytest.mark.parametrize(
    ("path", "op_class"),
    [
        ("/v1/positions", "quick"),
        ("/v1/natal-chart", "chart"),
        ("/v1/transits", "search"),
        ("/v1/astrocartography", "map"),
        ("/v1/charts/chart_0123", "account"),
        ("/v1/webhooks/wh_1/deliveries", "account"),
        ("/v1/batch", "batch"),
    ],
)
def test_a_request_path_has_its_operations_class(path, op_class):
    assert class_of_path(path) == op_class


@pytest.mark.parametrize(
    "path", ["/v1/status", "/status", "/pricing", "/v1/nothing", "/v1/charts/a/b", "/dashboard/keys", "/healthz"]
)
def test_a_path_of_no_operation_has_no_class(path):
    assert class_of_path(path) is None
