"""Issue 35, part 1: a request is read once per process. The gateway's validation returns the
request's reading and keeps it for meta.moment; the service reads its request once, at its
edge; nothing in the gateway reads the request after the service has answered."""

from __future__ import annotations

import sys
import threading

import pytest

from kernel import timescale
from tests.api.in_process_pool import InProcessPool

NATAL_CHART = {
    "datetime": "1990-07-04T12:00:00", "tz": "Europe/Paris", "lat": 48.85, "lon": 2.35, "bodies": "sun,moon",
}
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


@pytest.fixture
def after_the_service(monkeypatch) -> list[str]:
    """Return the list of the reading packages' functions the gateway's thread calls after a
    service call returns, until the test ends."""
    called: list[str] = []
    watching = threading.Event()

    def watch(frame, event, arg):
        if not watching.is_set():
            sys.setprofile(None)  # the test is over: the loop's thread runs unwatched again
        elif event == "call" and frame.f_globals.get("__name__", "").startswith(READING_PACKAGES) and frame.f_globals["__name__"] not in NOT_READING:
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
