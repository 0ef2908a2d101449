"""Stored charts (issue 40, part 1), rule by rule, on the gateway in process: /v1/charts keeps a
birth for the account, and every endpoint that takes a birth takes chart=<id> in its place,
answering exactly what the birth's own parameters give. Issue 46, part 5: a creation retried
under its Idempotency-Key answers the first."""

from __future__ import annotations

import pytest

from tests.api.in_process_stack import AppStack
from tests.api.test_answer_schemas_api import undeclared_or_missing
from tests.api.test_conventions_api import assert_error, balance

LYON = {"datetime": "1985-07-13T14:05:00", "place": "2996944"}
#: Lyon's coordinates and zone as the gazetteer gives them (what the stored chart keeps).
LONDON_UTC = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}


@pytest.fixture()
def account(stack: AppStack) -> tuple[str, str]:
    return stack.new_key()


def store(stack: AppStack, key: str, body: dict) -> dict:
    with stack.client(key) as client:
        response = client.post("/v1/charts", json=body)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def get(stack: AppStack, key: str, path: str, **params):
    with stack.client(key) as client:
        return client.get(path, params=params)


def test_a_stored_chart_is_answered_with_its_id_birth_settings_and_the_parameters_it_stands_for(stack, account):
    _, key = account
    chart = store(stack, key, {"name": "Ada", **LYON, "system": "whole_sign"})
    assert chart["id"].startswith("chart_") and chart["name"] == "Ada"
    assert chart["birth"] == LYON and chart["settings"] == {"system": "whole_sign"}
    assert chart["parameters"]["tz"] == "Europe/Paris" and chart["parameters"]["datetime"] == LYON["datetime"]
    assert 45.7 < chart["parameters"]["lat"] < 45.8 and 4.8 < chart["parameters"]["lon"] < 4.9
    assert get(stack, key, f"/v1/charts/{chart['id']}").json()["data"] == chart


def test_a_stored_chart_costs_nothing(stack, account):
    name, key = account
    before = balance(stack, name)
    chart = store(stack, key, {"name": "Ada", **LYON})
    get(stack, key, "/v1/charts")
    with stack.client(key) as client:
        client.delete(f"/v1/charts/{chart['id']}")
    assert balance(stack, name) == before


def test_chart_id_answers_what_the_births_own_parameters_answer(stack, account):
    _, key = account
    chart = store(stack, key, {"name": "Ada", **LYON})
    by_id = get(stack, key, "/v1/natal-chart", chart=chart["id"])
    by_birth = get(stack, key, "/v1/natal-chart", **LYON)
    assert by_id.status_code == 200, by_id.text
    assert by_id.json()["data"] == by_birth.json()["data"]
    assert by_id.json()["meta"]["moment"]["datetime"]["tz"] == "Europe/Paris"


def test_a_charts_settings_are_defaults_the_request_may_override(stack, account):
    _, key = account
    chart = store(stack, key, {"name": "Ada", **LYON, "system": "whole_sign"})
    stored = get(stack, key, "/v1/natal-chart", chart=chart["id"]).json()["data"]
    plain = get(stack, key, "/v1/natal-chart", **LYON, system="whole_sign").json()["data"]
    overridden = get(stack, key, "/v1/natal-chart", chart=chart["id"], system="placidus").json()["data"]
    assert (
        stored == plain and overridden == get(stack, key, "/v1/natal-chart", **LYON, system="placidus").json()["data"]
    )


def test_every_endpoint_that_takes_a_birth_takes_chart(stack, account):
    _, key = account
    chart = store(stack, key, {"name": "London", **LONDON_UTC})["id"]
    other = store(stack, key, {"name": "Lyon", **LYON})["id"]
    asks = [
        ("/v1/draconic", {"chart": chart}),
        ("/v1/lots", {"chart": chart}),
        ("/v1/firdaria", {"chart": chart, "at": "2024-01-01T00:00:00Z"}),
        ("/v1/transits", {"chart": chart, "start": "2024-01-01T00:00:00Z", "end": "2024-01-08T00:00:00Z"}),
        ("/v1/synastry", {"chart_a": chart, "chart_b": other}),
        ("/v1/chart-wheel", {"chart": chart, "format": "json"}),
        ("/v1/astrocartography", {"chart": chart, "bodies": "sun"}),
        ("/v1/forecast", {"chart": chart, "start": "2024-04-06T00:00:00Z", "end": "2024-04-10T00:00:00Z"}),
    ]
    for path, params in asks:
        response = get(stack, key, path, **params)
        assert response.status_code == 200, (path, response.text)


def test_a_chart_in_a_post_body_and_in_a_batch_is_read_as_in_a_query(stack, account):
    _, key = account
    chart = store(stack, key, {"name": "Ada", **LYON})["id"]
    by_query = get(stack, key, "/v1/natal-chart", chart=chart).json()["data"]
    with stack.client(key) as client:
        by_body = client.post("/v1/natal-chart", json={"chart": chart}).json()["data"]
        batch = client.post(
            "/v1/batch", json={"requests": [{"endpoint": "/v1/natal-chart", "params": {"chart": chart}}]}
        ).json()
    assert by_body == by_query
    assert batch["data"]["results"][0]["data"] == by_query


def test_chart_and_a_birth_parameter_it_stands_for_conflict(stack, account):
    _, key = account
    chart = store(stack, key, {"name": "Ada", **LYON})["id"]
    assert_error(get(stack, key, "/v1/natal-chart", chart=chart, lat=1), 400, "conflicting_parameters", "chart")


def test_an_unknown_chart_or_another_accounts_is_404_chart_not_found_and_costs_nothing(stack, account):
    name, key = account
    _, other_key = stack.new_key()
    theirs = store(stack, other_key, {"name": "Theirs", **LYON})["id"]
    before = balance(stack, name)
    for chart in (theirs, "chart_00000000000000000000a", "nonsense"):
        assert_error(get(stack, key, "/v1/natal-chart", chart=chart), 404, "chart_not_found", "chart")
        assert_error(get(stack, key, f"/v1/charts/{chart}"), 404, "chart_not_found")
    assert balance(stack, name) == before


def test_chart_on_an_endpoint_without_a_birth_is_an_unknown_parameter(stack, account):
    _, key = account
    chart = store(stack, key, {"name": "Ada", **LYON})["id"]
    assert_error(
        get(stack, key, "/v1/positions", chart=chart, datetime="2024-01-01T00:00:00Z"),
        400,
        "invalid_parameter",
        "chart",
    )


def test_a_birth_is_checked_as_the_natal_chart_checks_it(stack, account):
    _, key = account
    with stack.client(key) as client:
        assert_error(
            client.post("/v1/charts", json={"name": "x", "datetime": "1985-07-13T14:05:00"}),
            400,
            "missing_parameter",
            "lat",
        )
        assert_error(
            client.post("/v1/charts", json={"name": "x", **LYON, "system": "nope"}), 400, "invalid_parameter", "system"
        )
        assert_error(
            client.post("/v1/charts", json={"name": "x", **LYON, "colour": "red"}), 400, "invalid_parameter", "colour"
        )
        assert_error(client.post("/v1/charts", json={"name": 3, **LYON}), 400, "invalid_parameter", "name")
        assert_error(client.post("/v1/charts", json=[1]), 400, "invalid_body")


def test_patch_changes_what_it_names_and_null_removes(stack, account):
    _, key = account
    chart = store(stack, key, {"name": "Ada", **LYON, "system": "whole_sign"})
    with stack.client(key) as client:
        changed = client.patch(
            f"/v1/charts/{chart['id']}", json={"name": "Ada L.", "system": None, "datetime": "1985-07-13T15:05:00"}
        )
    assert changed.status_code == 200, changed.text
    data = changed.json()["data"]
    assert (data["name"], data["settings"], data["birth"]["datetime"], data["birth"]["place"]) == (
        "Ada L.",
        {},
        "1985-07-13T15:05:00",
        "2996944",
    )
    assert data["created_at"] == chart["created_at"] and data["updated_at"] >= chart["updated_at"]
    with stack.client(key) as client:
        assert_error(
            client.patch(f"/v1/charts/{chart['id']}", json={"lat": 95, "lon": 4}), 400, "invalid_parameter", "lat"
        )


def test_a_deleted_chart_is_gone_at_once(stack, account):
    _, key = account
    chart = store(stack, key, {"name": "Ada", **LYON})["id"]
    with stack.client(key) as client:
        assert client.delete(f"/v1/charts/{chart}").json()["data"] == {"id": chart, "deleted": True}
        assert_error(client.delete(f"/v1/charts/{chart}"), 404, "chart_not_found")
    assert_error(get(stack, key, "/v1/natal-chart", chart=chart), 404, "chart_not_found", "chart")


def post_keyed(stack: AppStack, key: str, body: dict, idempotency_key: str):
    with stack.client(key, {"Idempotency-Key": idempotency_key}) as client:
        return client.post("/v1/charts", json=body)


def test_a_chart_retried_under_its_idempotency_key_answers_the_first_and_is_stored_once(stack, account):
    _, key = account
    first = post_keyed(stack, key, {"name": "Ada", **LYON}, "chart-retry")
    again = post_keyed(stack, key, {**LYON, "name": "Ada"}, "chart-retry")
    assert first.status_code == again.status_code == 200, first.text
    assert again.content == first.content and again.headers["idempotent-replayed"] == "true"
    assert (again.headers["location"], again.headers["x-request-id"]) == (
        first.headers["location"],
        first.headers["x-request-id"],
    )
    assert [c["id"] for c in get(stack, key, "/v1/charts").json()["data"]["charts"]] == [first.json()["data"]["id"]]


def test_another_chart_under_the_same_key_is_422_idempotency_key_reuse(stack, account):
    _, key = account
    post_keyed(stack, key, {"name": "Ada", **LYON}, "chart-reuse")
    assert_error(post_keyed(stack, key, {"name": "Bea", **LYON}, "chart-reuse"), 422, "idempotency_key_reuse")
    assert len(get(stack, key, "/v1/charts").json()["data"]["charts"]) == 1


def test_a_chart_refused_keeps_nothing_under_its_key(stack, account):
    _, key = account
    assert_error(post_keyed(stack, key, {"name": "Ada"}, "chart-refused"), 400, "missing_parameter")
    assert post_keyed(stack, key, {"name": "Ada", **LYON}, "chart-refused").status_code == 200


def test_charts_are_listed_page_by_page_in_the_order_they_were_made_and_exported_whole(stack, account):
    _, key = account
    made = [store(stack, key, {"name": f"n{i}", **LYON})["id"] for i in range(5)]
    seen, token = [], None
    while True:
        page = get(stack, key, "/v1/charts", limit=2, **({"page_token": token} if token else {})).json()["data"]
        seen += [c["id"] for c in page["charts"]]
        token = page["next_page_token"]
        if token is None:
            break
    assert seen == made
    export = get(stack, key, "/v1/charts", export="true")
    assert [c["id"] for c in export.json()["data"]["charts"]] == made
    assert "attachment" in export.headers["content-disposition"]
    assert_error(get(stack, key, "/v1/charts", limit=0), 400, "invalid_parameter", "limit")
    assert_error(get(stack, key, "/v1/charts", page_token="x"), 400, "invalid_parameter", "page_token")


def test_an_account_keeps_no_more_charts_than_its_limit(module_stacks):
    small = module_stacks.in_process("charts-small", {"CELESTIAL_CHARTS_PER_ACCOUNT": "2"})
    _, key = small.new_key()
    store(small, key, {"name": "a", **LYON})
    store(small, key, {"name": "b", **LYON})
    with small.client(key) as client:
        assert_error(client.post("/v1/charts", json={"name": "c", **LYON}), 409, "chart_limit_reached")


def test_a_birth_is_never_logged(stack, account):
    _, key = account
    store(stack, key, {"name": "Secret Person", "datetime": "1977-03-04T05:06:07", "place": "2996944"})
    logged = stack.log_path.read_text()
    assert "1977-03-04" not in logged and "Secret Person" not in logged


def test_an_export_is_one_page_with_no_next_page_and_fits_the_listings_schema(stack, account):
    _, key = account
    store(stack, key, {"name": "Ada", **LYON})
    export = get(stack, key, "/v1/charts", export="true")
    assert export.status_code == 200 and export.json()["data"]["next_page_token"] is None
    with stack.client() as client:
        document = client.get("/v1/openapi.json").json()
    assert undeclared_or_missing(document, "/v1/charts", "get", export) == []


#: A value for every setting of /v1/natal-chart, as a client may send it (a list as an array,
#: an ayanamsha as its id, choices in another case).
EVERY_SETTING = {
    "bodies": ["sun", "moon"],
    "system": "whole_sign",
    "aspects": "trine,square",
    "orb": 5,
    "applying": True,
    "parallels": False,
    "parallel_orb": 1.5,
    "patterns": True,
    "pattern_types": ["yod"],
    "stellium_min": 3,
    "stellium_scope": "House",
    "derived_points": True,
    "midpoints": True,
    "antiscia": False,
    "lots": ["fortune"],
    "rulership": "Modern",
    "day_chart": True,
    "sidereal": 3,
    "equatorial": True,
    "no_nutation": False,
    "j2000": False,
    "topocentric": True,
    "heliocentric": False,
    "house_position_mode": "mundane",
    "resolution": "higher",
    "dignities": True,
}


def test_a_stored_chart_answers_its_birth_and_settings_typed_as_its_schema_declares(stack, account):
    _, key = account
    chart = store(stack, key, {"name": "Ada", **LYON, "alt": 170, **EVERY_SETTING})
    answer = get(stack, key, f"/v1/charts/{chart['id']}")
    with stack.client() as client:
        document = client.get("/v1/openapi.json").json()
    assert undeclared_or_missing(document, "/v1/charts/{chart_id}", "get", answer) == []
    settings = answer.json()["data"]["settings"]
    assert set(settings) == set(EVERY_SETTING) and answer.json()["data"]["birth"] == {**LYON, "alt": 170.0}
    assert (settings["bodies"], settings["sidereal"], settings["orb"], settings["stellium_min"]) == (
        "sun,moon",
        "3",
        5.0,
        3,
    )
    assert (settings["rulership"], settings["stellium_scope"]) == ("modern", "house")
