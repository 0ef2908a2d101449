"""Issue 36, section 3, on real processes: one free request must not close a pool.

A heliacal search near the pole (Mercury's morning first at latitude 80°) ran 14-25 s in one
engine call, and every other search of every account waited behind it and was refused 503.
The stack runs one search process and the default wait for a turn (CELESTIAL_QUEUE_WAIT_S,
5 s): the heliacal search is stopped at its deadline class's 2.5 s, so another account's six
lunar-eclipse searches, sent while it runs, all get their turn. Issue 48: at latitude 80°, beyond
the 60° within which the engine's heliacal search is documented, the stop is answered 400
naming ``lat`` (why, and what to ask instead), free, never a 5xx.
"""

from __future__ import annotations

import json
import threading
import time

import pytest

HOPELESS_HELIACAL = {
    "datetime": "2024-01-01T00:00:00Z",
    "body": "mercury",
    "event": "morning_first",
    "lat": 80,
    "lon": 31,
}
LUNAR_ECLIPSES = {"datetime": "2024-01-01T00:00:00Z", "lat": 51.5, "lon": -0.13}


@pytest.fixture(scope="module")
def stack(module_real_stacks):
    return module_real_stacks.real("one-search-process", {"CELESTIAL_SEARCH_PROCESSES": "1"})


def balance(stack, name: str) -> int:
    return json.loads(stack.admin("account", "show", name, "--json").stdout)["balance"]


def test_a_polar_heliacal_search_stopped_at_its_deadline_is_a_free_400_naming_the_latitude(stack):
    name, key = stack.new_key(credits=100)
    with stack.client(key) as client:
        reply = client.get("/v1/heliacal", params=HOPELESS_HELIACAL)
    assert reply.status_code == 400, reply.text
    error = reply.json()["errors"][0]
    assert (error["code"], error["param"]) == ("invalid_parameter", "lat")
    assert "2.5 s" in error["message"] and "60°" in error["suggestion"]
    assert balance(stack, name) == 100


def _search_process_ready(stack) -> None:
    """Wait (30 s at most) until the one search process answers again: a search stopped at its
    deadline costs its compute process, which is replaced within a few seconds, and a call
    that arrives before is answered 503 (busy), which would not be the situation tested."""
    _, key = stack.new_key(credits=1000)
    with stack.client(key) as client:
        for _ in range(60):
            if client.get("/v1/eclipses/lunar", params=LUNAR_ECLIPSES).status_code == 200:
                return
            time.sleep(0.5)
    pytest.fail("the search process did not answer again within 30 s")


def test_another_accounts_searches_are_answered_while_a_heliacal_search_holds_the_only_process(stack):
    _search_process_ready(stack)
    _, heliacal_key = stack.new_key(credits=100)
    _, other_key = stack.new_key(credits=100)
    statuses: list[int] = []

    def heliacal() -> None:
        with stack.client(heliacal_key) as client:
            statuses.append(client.get("/v1/heliacal", params=HOPELESS_HELIACAL).status_code)

    eclipse_statuses: list[int] = []

    def eclipses() -> None:
        with stack.client(other_key) as client:
            eclipse_statuses.append(client.get("/v1/eclipses/lunar", params=LUNAR_ECLIPSES).status_code)

    started = threading.Thread(target=heliacal)
    started.start()
    time.sleep(0.5)  # the heliacal search holds the one search process
    others = [threading.Thread(target=eclipses) for _ in range(6)]
    for thread in others:
        thread.start()
    for thread in [started, *others]:
        thread.join()
    assert eclipse_statuses == [200] * 6, eclipse_statuses
    assert statuses == [400]
