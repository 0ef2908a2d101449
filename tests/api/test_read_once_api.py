"""Issue 35, part 1: a request is read once per process. The gateway's validation returns the
request's reading and keeps it for meta.moment; the service reads its request once, at its
edge; nothing in the gateway reads the request after the service has answered.

Issue 47, part 2: every vocabulary, not only the moment, is parsed once per process: the
checks of validation keep what they parse and the readers take the kept value, and the stored
charts' path hands the readers the reading, not the bare message."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import threading
from collections import Counter

import pytest

from gateway.endpoints import discover_endpoints
from gateway.reference.operation_text import PASTES
from kernel import aspects, ayanamshas, bodies, civil_time, houses, places, timescale
from tests.api.in_process_pool import InProcessPool

NATAL_CHART = {
    "datetime": "1990-07-04T12:00:00",
    "tz": "Europe/Paris",
    "lat": 48.85,
    "lon": 2.35,
    "bodies": "sun,moon",
}
#: A local-time natal chart naming every vocabulary a chart reads: bodies, a house system,
#: aspect types, an ayanamsha, a datetime read in a zone.
EVERY_VOCABULARY = {**NATAL_CHART, "system": "koch", "aspects": "conjunction,trine,square", "sidereal": "lahiri"}
#: A birth by its town (the place vocabulary), stored with settings of the other vocabularies.
STORED_BIRTH = {
    "name": "Ada",
    "datetime": "1985-07-13T14:05:00",
    "place": "2996944",
    "system": "whole_sign",
    "aspects": "opposition,sextile",
}
#: Each vocabulary's kernel parser (its module and name), the function its check and its
#: readers call; the datetime's are Moment's constructors, counted apart.
PARSERS = {
    "bodies": (bodies, "resolve_bodies"),
    "house_system": (houses, "parse_house_system"),
    "aspects": (aspects, "parse_aspect_types"),
    "ayanamsha": (ayanamshas, "parse_ayanamsha"),
    "time_zone": (civil_time, "zone_named"),
    "place": (places, "town_from_parameter"),
}
#: The packages whose modules call the parsers (imported by name, so each module's own name is wrapped).
CALLING_PACKAGES = ("kernel", "shared", "services", "gateway", "webhooks")
#: The pastes that are no single paid computation of a request's vocabularies.
NOT_COMPUTATIONS = ("/v1/batch", "/v1/usage", "/v1/account", "/v1/places", "/v1/status")
# The packages whose code reads a request: nothing of them runs in the gateway once the
# service has answered. The request's log line is written by the runtime's logging, which
# reads no request.
READING_PACKAGES = ("kernel", "shared.runtime")
#: What the gateway calls of those packages after the answer, rendering and logging, not reading.
NOT_READING = ("shared.runtime.logging", "shared.runtime.reply_rendering")


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """Return the list the thread of each datetime parse is appended to (a service computes in
    its pool's "<service>-compute" worker thread, the gateway on its event loop)."""
    threads: list[str] = []
    for name in ("from_iso", "from_civil_iso"):
        parse = getattr(timescale.Moment, name).__func__

        def counted(cls, *args, _parse=parse, **kwargs):
            threads.append(threading.current_thread().name)
            return _parse(cls, *args, **kwargs)

        monkeypatch.setattr(timescale.Moment, name, classmethod(counted))
    return threads


def _where(thread: str) -> str:
    return "service" if "-compute" in thread else "gateway"


def _count_parses(monkeypatch, key) -> Counter:
    """Return the counter of parses by ``key(vocabulary, "gateway" or "service", arguments)``,
    every kernel parser of a vocabulary wrapped wherever a module of the code holds it (its
    own module too, so a parse inside the kernel counts), and Moment's two datetime parsers."""
    for package in CALLING_PACKAGES:
        # Every module imported first: one imported later would hold the parser unwrapped.
        for info in pkgutil.walk_packages(importlib.import_module(package).__path__, f"{package}."):
            importlib.import_module(info.name)
    counted: Counter = Counter()
    for vocabulary, (home, name) in PARSERS.items():
        parse = getattr(home, name)

        def counting(*args, _parse=parse, _vocabulary=vocabulary, **kwargs):
            counted[key(_vocabulary, _where(threading.current_thread().name), args)] += 1
            return _parse(*args, **kwargs)

        holders = [
            module
            for module_name, module in list(sys.modules.items())
            if module_name.split(".")[0] in CALLING_PACKAGES and getattr(module, name, None) is parse
        ]
        assert home in holders
        for module in holders:
            monkeypatch.setattr(module, name, counting)
    for name in ("from_iso", "from_civil_iso"):
        parse = getattr(timescale.Moment, name).__func__

        def counting_moment(cls, *args, _parse=parse, **kwargs):
            counted[key("datetime", _where(threading.current_thread().name), args)] += 1
            return _parse(cls, *args, **kwargs)

        monkeypatch.setattr(timescale.Moment, name, classmethod(counting_moment))
    return counted


@pytest.fixture
def vocabulary_parses(monkeypatch) -> Counter:
    """Return the counter of parses by (vocabulary, "gateway" or "service")."""
    return _count_parses(monkeypatch, lambda vocabulary, where, args: (vocabulary, where))


@pytest.fixture
def value_parses(monkeypatch) -> Counter:
    """Return the counter of parses by (vocabulary, "gateway" or "service", the value parsed)."""
    return _count_parses(monkeypatch, lambda vocabulary, where, args: (vocabulary, where, repr(args)))


def once_in_each(*vocabularies: str, where: tuple[str, ...] = ("gateway", "service")) -> Counter:
    return Counter({(vocabulary, place): 1 for vocabulary in vocabularies for place in where})


@pytest.fixture
def after_the_service(monkeypatch) -> list[str]:
    """Return the list of the reading packages' functions the gateway's thread calls after a
    service call returns, until the test ends."""
    called: list[str] = []
    watching = threading.Event()

    def watch(frame, event, arg):
        if not watching.is_set():
            sys.setprofile(None)  # the test is over: the loop's thread runs unwatched again
        elif (
            event == "call"
            and frame.f_globals.get("__name__", "").startswith(READING_PACKAGES)
            and frame.f_globals["__name__"] not in NOT_READING
        ):
            called.append(f"{frame.f_globals['__name__']}.{frame.f_code.co_name}")

    call = InProcessPool.call

    async def call_then_watch(self, *args, **kwargs):
        reply = await call(self, *args, **kwargs)
        watching.set()
        sys.setprofile(watch)
        return reply

    monkeypatch.setattr(InProcessPool, "call", call_then_watch)
    yield called
    watching.clear()


def test_a_natal_chart_in_local_time_parses_its_datetime_once_in_the_gateway_and_once_in_the_service(api, parses):
    answer = api.get("/v1/natal-chart", params=NATAL_CHART)
    assert answer.status_code == 200, answer.text
    assert answer.json()["meta"]["moment"]["datetime"]["tz"] == "Europe/Paris"
    in_service = [thread for thread in parses if "-compute" in thread]
    in_gateway = [thread for thread in parses if "-compute" not in thread]
    assert (len(in_gateway), len(in_service)) == (1, 1), parses


def test_the_gateway_reads_nothing_after_the_service_has_answered(api, after_the_service):
    answer = api.get("/v1/natal-chart", params=NATAL_CHART)
    assert answer.status_code == 200, answer.text
    assert "moment" in answer.json()["meta"]
    assert after_the_service == []


def test_a_local_time_natal_chart_parses_each_vocabulary_once_in_the_gateway_and_once_in_the_service(
    api, vocabulary_parses
):
    answer = api.get("/v1/natal-chart", params=EVERY_VOCABULARY)
    assert answer.status_code == 200, answer.text
    assert vocabulary_parses == once_in_each("bodies", "house_system", "aspects", "ayanamsha", "time_zone", "datetime")


def test_storing_a_chart_parses_each_vocabulary_of_its_birth_and_settings_once(api, vocabulary_parses):
    stored = api.post("/v1/charts", json=STORED_BIRTH)
    assert stored.status_code == 200, stored.text
    # Checked as its natal chart would be, in the gateway alone: no service is called.
    assert vocabulary_parses == once_in_each(
        "bodies", "house_system", "aspects", "place", "time_zone", "datetime", where=("gateway",)
    )


def test_a_stored_chart_parses_each_vocabulary_once_in_the_gateway_and_once_in_the_service(api, vocabulary_parses):
    stored = api.post("/v1/charts", json=STORED_BIRTH)
    assert stored.status_code == 200, stored.text
    vocabulary_parses.clear()
    answer = api.get("/v1/natal-chart", params={"chart": stored.json()["data"]["id"]})
    assert answer.status_code == 200, answer.text
    assert answer.json()["meta"]["moment"]["datetime"]["tz"] == "Europe/Paris"
    # The stored parameters carry the town's coordinates and zone: its place is read no more.
    assert vocabulary_parses == once_in_each("bodies", "house_system", "aspects", "time_zone", "datetime")


@pytest.mark.parametrize("path", [path for path in PASTES if path not in NOT_COMPUTATIONS])
def test_each_reference_paste_parses_each_value_at_most_once_in_the_gateway_and_once_in_the_service(
    api, value_parses, path
):
    # Counted on a second request: what a process reads once for all requests (a forecast's
    # declared defaults, cached) is no parse of this one. A POST-only operation takes its paste
    # as a JSON body.
    post_only = next(e for e in discover_endpoints() if e.path == path).http.post_only

    def ask():
        return api.post(path, json=PASTES[path]) if post_only else api.get(path, params=PASTES[path])

    assert ask().status_code == 200
    value_parses.clear()
    answer = ask()
    assert answer.status_code == 200, answer.text
    assert any(where == "service" for _vocabulary, where, _value in value_parses)
    assert sorted(key for key, count in value_parses.items() if count > 1) == []
