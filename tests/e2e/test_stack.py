"""Each part of what `make run` starts, proven once on real processes.

The per-rule tests in ``tests/api`` run the gateway app in process with in-process service
pools; here the same requests cross uvicorn, the gateway process, gRPC over loopback to two
ephemeris processes, and the SQLite store the admin CLI (another process) writes to.
"""

from __future__ import annotations

import json
import subprocess
import sys

import httpx
import pytest

from deploy.local_stack import free_port_block, start_gateway
from gateway.batch import MAX_SUBREQUESTS
from shared.runtime.config import REPO_ROOT
from tests.api.test_conventions_api import assert_error

J2000 = 2451545.0
PLACE = {"datetime": "2024-03-20T12:00:00Z", "lat": 51.5, "lon": -0.13}

#: One request per built endpoint, with the parameters that reach the most of its code.
BUILT_REQUESTS = [
    ("/v1/positions", {"jd": J2000, "bodies": "all", "topocentric": "true", "lat": 51.5, "lon": -0.13}),
    ("/v1/houses", {**PLACE, "system": "koch", "sidereal": "lahiri"}),
    ("/v1/chart", {**PLACE, "sidereal": "lahiri"}),
    (
        "/v1/aspects",
        {
            "datetime": "2024-03-20T12:00:00Z",
            "bodies": "all",
            "aspects": "conjunction,opposition,quincunx,semi-sextile",
        },
    ),
    (
        "/v1/natal-chart",
        {
            **PLACE,
            "patterns": "true",
            "derived_points": "true",
            "lots": "default",
            "dignities": "true",
            "house_position_mode": "mundane",
        },
    ),
    ("/v1/natal-chart", {**PLACE, "preset": "kerykeion"}),
    ("/v1/natal-chart", {**PLACE, "relocate": "2988507", "topocentric": "true"}),
    ("/v1/void-of-course", {"jd": J2000}),
    ("/v1/planetary-hours", PLACE),
    ("/v1/stars", {"jd": J2000, "star": "Regulus", "sidereal": "lahiri"}),
    (
        "/v1/astrocartography",
        {"jd": J2000, "targets": '[{"body": "moon", "angles": ["asc", "mc"], "cusps": [2, 11.5]}]', "mode": "mundane"},
    ),
    ("/v1/astrocartography", {"jd": J2000, "bodies": "venus,mars", "format": "geojson"}),
    ("/v1/parans", {**PLACE, "bodies": "sun,moon,venus", "stars": "Regulus,Spica"}),
    ("/v1/parans", {"jd": J2000, "format": "geojson", "pair": "venus:asc,Regulus:mc"}),
    ("/v1/profections", {**PLACE, "at": "2030-01-01T00:00:00Z", "solar": "true"}),
    (
        "/v1/zodiacal-releasing",
        {**PLACE, "start": "2024-03-20T12:00:00Z", "end": "2025-01-01T00:00:00Z", "max_level": 3},
    ),
    ("/v1/firdaria", {**PLACE, "start": "2024-03-20T12:00:00Z", "end": "2100-01-01T00:00:00Z"}),
    (
        "/v1/vedic/chart",
        {
            **PLACE,
            "ayanamsha": "raman",
            "node": "true",
            "houses": "bhava",
            "outer": "true",
            "vargas": "D1,D2,D3,D4,D7,D9,D10,D12,D16,D20,D24,D27,D30,D40,D45,D60",
        },
    ),
    (
        "/v1/vedic/dasha",
        {**PLACE, "start": "2024-03-20T12:00:00Z", "end": "2100-01-01T00:00:00Z", "levels": 3, "year_length": "savana"},
    ),
    ("/v1/vedic/panchang", {**PLACE, "sunrise": "hindu", "limbs_at": "moment", "ayanamsha": "true_citra"}),
    (
        "/v1/vedic/match",
        {
            "datetime_a": "1990-06-15T16:30",
            "tz_a": "Europe/Paris",
            "lat_a": 48.85,
            "lon_a": 2.35,
            "datetime_b": "1992-03-02T06:10:00Z",
            "lat_b": 28.61,
            "lon_b": 77.21,
            "groom": "b",
            "ayanamsha": "raman",
        },
    ),
    ("/v1/vedic/ashtakavarga", {**PLACE, "ayanamsha": "raman", "node": "true"}),
    ("/v1/vedic/shadbala", {**PLACE, "ayanamsha": "raman"}),
    ("/v1/returns", {**PLACE, "body": "moon", "search_start": "2024-03-20T12:00:00Z", "count": 2, "dignities": "true"}),
    ("/v1/ingresses", {"jd": J2000, "body": "mercury", "longitude": 123.4, "backward": "true", "count": 3}),
    ("/v1/eclipses/solar", {"jd": J2000, "lat": 32.8, "lon": -96.8, "count": 2}),
    ("/v1/eclipses/lunar", {"jd": J2000, "lat": 51.5, "lon": -0.13, "type": "total"}),
    ("/v1/heliacal", {**PLACE, "body": "mercury", "event": "evening_first"}),
    ("/v1/directions", {**PLACE, "target_datetime": "2060-01-01T00:00:00Z", "key": "naibod", "sidereal": "lahiri"}),
    ("/v1/places", {"q": "saint etienne", "country": "fr"}),
    ("/v1/timezone", {"datetime": "1944-06-06T08:00:00", "tz": "auto", "lat": 51.5, "lon": -0.13}),
    (
        "/v1/natal-chart/sensitivity",
        {**PLACE, "window_hours": 3, "sidereal": "lahiri", "at": "2030-01-01T00:00:00Z", "system": "koch"},
    ),
]
#: One request per operation that takes only a JSON body, with the body that reaches the most of its code.
POSTED_REQUESTS = [
    (
        "/v1/explain-difference",
        {
            "datetime": "1990-06-15T14:30",
            "tz": "Europe/London",
            "lat": 51.5,
            "lon": -0.13,
            "theirs": {
                "positions": {"sun": 84.1, "moon": 346.6},
                "asc": 205.4,
                "mc": 117.0,
                "houses": {"jupiter": 10},
                "nakshatras": {"moon": "revati", "rahu": "dhanishta", "asc": "chitra"},
                "dashas": [
                    {"lord": "mercury", "start": "1988-11-20"},
                    {"lord": "ketu", "start": "2005-11-20T09:00:00Z"},
                ],
            },
        },
    ),
]

#: A valid request to an RPC the older release's search process (below) does not implement.
UNIMPLEMENTED_REQUEST = ("/v1/transits", {"jd": J2000, "start": "2024-01-01T00:00:00Z", "end": "2024-02-01T00:00:00Z"})


def balance(stack, name: str) -> int:
    return json.loads(stack.admin("account", "show", name, "--json").stdout)["balance"]


@pytest.mark.parametrize(("path", "params"), BUILT_REQUESTS, ids=[path for path, _ in BUILT_REQUESTS])
def test_every_built_endpoint_answers_on_real_processes_what_it_answers_in_process(stack, app_stack, path, params):
    with stack.client(stack.new_key()[1]) as real, app_stack.client(app_stack.new_key()[1]) as in_process:
        over_grpc, direct = real.get(path, params=params), in_process.get(path, params=params)
    assert over_grpc.status_code == direct.status_code == 200, over_grpc.text
    assert over_grpc.json()["data"] == direct.json()["data"]
    assert over_grpc.json().get("warnings") == direct.json().get("warnings")


@pytest.mark.parametrize(("path", "body"), POSTED_REQUESTS, ids=[path for path, _ in POSTED_REQUESTS])
def test_every_posted_operation_answers_on_real_processes_what_it_answers_in_process(stack, app_stack, path, body):
    with stack.client(stack.new_key()[1]) as real, app_stack.client(app_stack.new_key()[1]) as in_process:
        over_grpc, direct = real.post(path, json=body), in_process.post(path, json=body)
    assert over_grpc.status_code == direct.status_code == 200, over_grpc.text
    assert over_grpc.json()["data"] == direct.json()["data"]


def test_a_success_is_charged_once_in_the_store_the_admin_cli_reads(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        response = client.get("/v1/positions", params={"jd": J2000})
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["credits_remaining"] == 9 == balance(stack, name)


def test_an_error_raised_in_a_service_process_reaches_the_client_with_its_code_and_costs_nothing(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        response = client.get("/v1/positions", params={"datetime": "1000-01-01T00:00:00Z", "bodies": "ceres"})
    error = assert_error(response, 400, "out_of_range")
    assert error["suggestion"]
    assert balance(stack, name) == 10


@pytest.fixture(scope="module")
def older_gateway(stack):
    """A gateway whose search pool is one process of an older release that implements none of
    the search RPCs (it answers UNIMPLEMENTED), beside the stack's own processes."""
    port = free_port_block(1)
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.e2e.unimplementing_service", "search", "--port", str(port)],
        cwd=REPO_ROOT,
        env=stack.env,
    )
    gateway = start_gateway(stack, {"CELESTIAL_SEARCH_ADDRESSES": f"127.0.0.1:{port}"})
    yield gateway
    gateway.stop()
    process.terminate()
    process.wait(timeout=10)


def older_client(gateway, key: str) -> httpx.Client:
    return httpx.Client(base_url=gateway.base_url, headers={"Authorization": f"Bearer {key}"}, timeout=60)


def test_an_rpc_no_process_implements_is_501_and_costs_nothing(stack, older_gateway):
    path, params = UNIMPLEMENTED_REQUEST
    name, key = stack.new_key(credits=10)
    with older_client(older_gateway, stack.new_key(credits=0)[1]) as empty:
        assert_error(empty.get(path, params=params), 501, "not_implemented")  # not 402
    with older_client(older_gateway, key) as client:
        response = client.get(path, params=params)
    assert_error(response, 501, "not_implemented")
    assert balance(stack, name) == 10


#: Every built endpoint's request twice, but for the sensitivity (once more would pass the scans
#: one account may have in flight at once) and the heliacal search (whose deadline class lets it
#: wait 0.25 s for its turn, less than the account's scans ahead of it in this batch may take:
#: its second copy is shed 429 by design, docs/reliability.md): once each.
ONCE = ("/v1/natal-chart/sensitivity", "/v1/heliacal")
FANNED_OUT = [{"endpoint": path, "params": params} for path, params in BUILT_REQUESTS] + [
    {"endpoint": path, "params": params} for path, params in BUILT_REQUESTS if path not in ONCE
]


#: FANNED_OUT in batches of at most MAX_SUBREQUESTS, the first copy of each request in the first.
BATCHES = [FANNED_OUT[start : start + MAX_SUBREQUESTS] for start in range(0, len(FANNED_OUT), MAX_SUBREQUESTS)]


def test_a_batch_fans_out_over_the_service_processes(stack):
    name, key = stack.new_key(credits=1000)
    spent = 0
    with stack.client(key) as client:
        for batch in BATCHES:
            response = client.post("/v1/batch", json={"requests": batch})
            assert response.status_code == 200, response.text
            failed = [r["errors"][0]["message"] for r in response.json()["data"]["results"] if r.get("status") != 200]
            assert failed == []
            assert response.json()["data"]["summary"] == {"total": len(batch), "succeeded": len(batch), "failed": 0}
            spent += response.json()["meta"]["credits_used"]
    assert balance(stack, name) == 1000 - spent


def test_a_sidereal_id_as_a_json_number_through_a_batch_answers_as_its_text_and_its_name(stack):
    # Issue 49, part 2: "sidereal": 3 in a batch sub-request is the id 3, raman, as "3" is.
    _, key = stack.new_key(credits=20)
    asked = [{"jd": J2000, "bodies": "sun,moon", "sidereal": value} for value in (3, "3", "raman")]
    with stack.client(key) as client:
        response = client.post(
            "/v1/batch", json={"requests": [{"endpoint": "/v1/positions", "params": params} for params in asked]}
        )
    assert response.status_code == 200, response.text
    number, text, name = response.json()["data"]["results"]
    assert number["status"] == text["status"] == name["status"] == 200, number
    assert number["data"] == text["data"] == name["data"]


def test_a_key_revoked_by_another_process_is_refused(stack):
    name, key = stack.new_key()
    key_id = json.loads(stack.admin("key", "list", "--account", name, "--json").stdout)[0]["key_id"]
    stack.admin("key", "revoke", key_id)
    with stack.client(key) as client:
        assert_error(client.get("/v1/positions", params={"jd": J2000}), 401, "invalid_api_key")


def test_readiness_lists_every_service_pool_ready(stack):
    with stack.client() as client:
        response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ready",
        "store": "ready",
        "services": dict.fromkeys(("ephemeris", "timelords", "search", "astrocartography"), "ready"),
    }


def test_a_call_to_an_unbuilt_endpoint_logs_no_error_and_no_traceback(stack, older_gateway):
    _name, key = stack.new_key(credits=10)
    with older_client(older_gateway, key) as client:
        for _ in range(3):
            assert client.get(UNIMPLEMENTED_REQUEST[0], params=UNIMPLEMENTED_REQUEST[1]).status_code == 501
    lines = [json.loads(line) for line in older_gateway.log_path.read_text().splitlines() if line.startswith("{")]
    assert any(line.get("status") == 501 for line in lines), "the 501s were logged at all"
    assert not [line for line in lines if line.get("level") in ("error", "critical") or "exception" in line]
