"""deploy/record_examples.py, its parts that need no running stack: the first request of an
operation built from its descriptors (every required parameter, with its sample value or first
allowed choice), the batch's request built from other operations' requests, and what
``record`` asks of a client and keeps.

References: the module's docstring, the requests' ``(field)`` rules in
protos/celestial/v1/ephemeris_service.proto and search_service.proto (ComputeHousesRequest:
moment and location required; FindHeliacalEventRequest: moment, body, event, place required,
event's choices starting with morning_first; FindPlacesRequest: q required, no choices).
"""

from __future__ import annotations

import pytest

from deploy.record_examples import (
    ACCOUNT_LIFE,
    BATCH_SUB_OPERATIONS,
    batch_request,
    record,
    record_account_life,
    starter_request,
)
from gateway.batch import BATCH_PATH
from gateway.endpoints import account_operations
from gateway.reference.examples import Example

LONDON_1990 = {"datetime": "1990-06-15T14:30:00Z", "lat": "51.5074", "lon": "-0.1278"}


def test_a_first_request_sends_every_required_parameter_with_its_sample_value():
    assert starter_request("/v1/houses") == LONDON_1990


def test_a_required_parameter_without_a_sample_value_takes_its_first_allowed_choice():
    assert starter_request("/v1/heliacal") == {**LONDON_1990, "body": "venus", "event": "morning_first"}


def test_a_required_parameter_with_neither_stops_the_run_naming_it_and_the_file_to_write():
    with pytest.raises(SystemExit) as stopped:
        starter_request("/v1/places")
    assert "'q'" in str(stopped.value) and str(stopped.value).endswith("places.json")


def _example(path: str, request: dict) -> Example:
    return Example(path, "GET", request, 200, {"data": {}})


def test_the_batchs_request_is_the_recorded_requests_of_its_sub_operations():
    examples = {path: _example(path, {"datetime": f"d{i}"}) for i, path in enumerate(BATCH_SUB_OPERATIONS)}
    assert batch_request(examples) == {
        "requests": [{"endpoint": path, "params": {"datetime": f"d{i}"}} for i, path in enumerate(BATCH_SUB_OPERATIONS)]
    }


class Answer:
    def __init__(self, status_code: int, body: dict):
        self.status_code, self._body = status_code, body
        self.headers = {"content-type": "application/json"}

    def json(self) -> dict:
        return self._body


class Client:
    """Records each call and answers it with its own description."""

    def __init__(self):
        self.calls = []

    def get(self, path, params):
        self.calls.append(("GET", path, params))
        return Answer(200, {"data": {"path": path}})

    def post(self, path, json):
        self.calls.append(("POST", path, json))
        return Answer(207, {"data": {"path": path}})


def test_record_keeps_a_recorded_request_and_makes_a_new_operations_from_its_descriptors():
    client = Client()
    kept = {"/v1/positions": _example("/v1/positions", {"datetime": "2000-01-01T12:00:00Z", "bodies": "sun"})}
    recorded = record(client, ["/v1/positions", "/v1/houses"], kept)
    assert client.calls == [
        ("GET", "/v1/positions", {"datetime": "2000-01-01T12:00:00Z", "bodies": "sun"}),
        ("GET", "/v1/houses", LONDON_1990),
    ]
    assert recorded["/v1/houses"] == Example("/v1/houses", "GET", LONDON_1990, 200, {"data": {"path": "/v1/houses"}})


def test_record_posts_the_batch_last_built_from_the_requests_just_recorded():
    client = Client()
    recorded = record(client, [BATCH_PATH, *BATCH_SUB_OPERATIONS], {})
    method, path, body = client.calls[-1]
    assert (method, path) == ("POST", BATCH_PATH)
    assert body == {"requests": [{"endpoint": p, "params": recorded[p].request} for p in BATCH_SUB_OPERATIONS]}
    assert (recorded[BATCH_PATH].method, recorded[BATCH_PATH].status) == ("POST", 207)


def test_record_leaves_the_examples_it_was_not_asked_for():
    other = _example("/v1/stars", {"star": "vega"})
    assert record(Client(), [], {"/v1/stars": other}) == {"/v1/stars": other}


class AccountClient:
    """Answers each account call with a made id for a creation, recording what was sent."""

    def __init__(self):
        self.calls = []

    def request(self, method, url, json=None, params=None):
        self.calls.append((method, url, json if json is not None else params))
        made = {"/v1/charts": "chart_1", "/v1/webhooks": "wh_1"}
        data = {"id": made[url]} if method == "POST" and url in made else {"url": url}
        return Answer(200, {"data": data})


def test_the_account_life_names_the_ids_its_creations_answered_and_keys_by_method_where_a_path_has_several():
    client = AccountClient()

    recorded = record_account_life(client, "http://127.0.0.1:9/hook")

    assert [(method, url) for method, url, _ in client.calls][:5] == [
        ("POST", "/v1/charts"),
        ("GET", "/v1/charts/chart_1"),
        ("PATCH", "/v1/charts/chart_1"),
        ("GET", "/v1/charts"),
        ("GET", "/v1/charts"),
    ]
    webhook = next(sent for method, url, sent in client.calls if (method, url) == ("POST", "/v1/webhooks"))
    assert webhook["url"] == "http://127.0.0.1:9/hook" and webhook["chart"] == "chart_1"
    assert ("POST", "/v1/webhooks/wh_1/test", {}) in client.calls
    assert [step.method for step in ACCOUNT_LIFE][-4:-2] == ["DELETE", "DELETE"]
    assert recorded["PATCH /v1/charts/{chart_id}"].path_parameters == {"chart_id": "chart_1"}
    assert recorded["GET /v1/charts"].more[0].request == {"export": "true"}
    assert "/v1/webhooks/{webhook_id}/test" in recorded and "/v1/usage" in recorded
    assert {f"{o.http.gateway.method} {o.path}" for o in account_operations()} == {
        f"{e.method} {e.operation}" for e in recorded.values()
    }
