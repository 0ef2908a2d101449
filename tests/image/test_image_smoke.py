"""The image's smoke suite (issue 26), called from outside as a client would, against two
deployments of the one image:

- ``containers``: NATS, a gateway and one process of each service as separate containers on a
  podman network, a key made with the admin CLI in a container of its own;
- ``kube-play``: the Deployments of deploy/k8s/overlays/dev run by `podman kube play`, a key
  made with the admin CLI in the gateway's container (tests/image/kube_play_stack.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import httpx
import pytest

from tests.image.container_stack import ContainerStack
from tests.image.kube_play_stack import KubePlayStack

J2000 = 2451545.0
PLACE = {"jd": J2000, "lat": 51.5, "lon": -0.13}
#: One request per service, each answered by another container.
ONE_PER_SERVICE = [
    ("/v1/positions", {"jd": J2000}),
    ("/v1/profections", {**PLACE, "at": "2030-01-01T00:00:00Z"}),
    ("/v1/eclipses/lunar", {"jd": J2000}),
    ("/v1/astrocartography", {"jd": J2000, "bodies": "venus"}),
]


@pytest.fixture(scope="module", params=["containers", "kube-play"])
def stack(processes, request) -> Iterator[ContainerStack | KubePlayStack]:
    if request.param == "containers":
        running = ContainerStack(os.environ["CELESTIAL_IMAGE"], os.environ["CELESTIAL_NATS_IMAGE"])
    else:
        running = KubePlayStack(os.environ["CELESTIAL_IMAGE"])
    try:
        running.start()
        yield running
    finally:
        running.stop()


def new_key(stack: ContainerStack | KubePlayStack, credits: int) -> str:
    name = f"acct-{os.urandom(4).hex()}"
    stack.admin("account", "create", name, "--credits", str(credits))
    return stack.admin("key", "create", "--account", name).strip()


def client(stack: ContainerStack | KubePlayStack, key: str | None = None) -> httpx.Client:
    return httpx.Client(base_url=stack.base_url, headers={"Authorization": f"Bearer {key}"} if key else {}, timeout=60)


def test_every_service_answers_through_the_gateway_container(stack):
    key = new_key(stack, 1_000)
    with client(stack, key) as api:
        for path, params in ONE_PER_SERVICE:
            response = api.get(path, params=params)
            assert response.status_code == 200, (path, response.text)
            assert response.json()["data"]


def test_a_batch_is_answered_whole(stack):
    key = new_key(stack, 1_000)
    batch = {"requests": [{"endpoint": path, "params": params} for path, params in ONE_PER_SERVICE]}
    with client(stack, key) as api:
        response = api.post("/v1/batch", json=batch)
    assert response.status_code == 200, response.text
    assert response.json()["data"]["summary"] == {"total": 4, "succeeded": 4, "failed": 0}


def test_a_request_without_a_key_is_401(stack):
    with client(stack) as api:
        response = api.get("/v1/positions", params={"jd": J2000})
    assert response.status_code == 401
    assert response.json()["errors"][0]["code"] == "invalid_api_key"


def test_a_request_the_balance_cannot_cover_is_402(stack):
    key = new_key(stack, 1)
    with client(stack, key) as api:
        response = api.get("/v1/eclipses/lunar", params={"jd": J2000})  # 2 credits
    assert response.status_code == 402
    assert response.json()["errors"][0]["code"] == "insufficient_credits"


def test_the_dashboard_pages_are_served_from_the_image(stack):
    with client(stack) as browser:
        response = browser.get("/dashboard/sign-in")
    assert response.status_code == 200 and "<form" in response.text  # templates carried as package data


def test_a_local_time_is_read_through_the_images_tz_database(stack):
    key = new_key(stack, 10)
    with client(stack, key) as api:
        response = api.get("/v1/positions", params={"datetime": "1943-01-15T09:20:00", "tz": "America/New_York"})
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["moment"]["datetime"]["abbreviation"] == "EWT"


def test_a_birth_by_town_reads_the_images_gazetteer_and_zone_map(stack):
    key = new_key(stack, 10)
    with client(stack, key) as api:
        town = api.get("/v1/places", params={"q": "new york", "limit": 1})
        chart = api.get(
            "/v1/natal-chart",
            params={"datetime": "1943-01-15T09:20:00", "place": town.json()["data"]["places"][0]["id"]},
        )
        auto = api.get(
            "/v1/timezone", params={"datetime": "1943-01-15T09:20:00", "tz": "auto", "lat": 40.71, "lon": -74.0}
        )
    assert town.status_code == chart.status_code == auto.status_code == 200, chart.text
    assert chart.json()["meta"]["moment"]["datetime"]["abbreviation"] == auto.json()["data"]["abbreviation"] == "EWT"
