"""Heavy scans on real processes: while every search process is busy with the widest transit
scans, the fast endpoints, served by their own processes, keep answering."""

from __future__ import annotations

import threading

from tests.api.test_transits_api import WIDEST


def test_fast_endpoints_answer_while_every_search_process_is_busy(stack):
    _, key = stack.new_key(credits=100_000)
    scans_done = threading.Event()
    scan_statuses: list[int] = []

    def keep_searching() -> None:
        with stack.client(key) as client:
            while not scans_done.is_set():
                scan_statuses.append(client.get("/v1/transits", params=WIDEST).status_code)

    searchers = [threading.Thread(target=keep_searching) for _ in range(4)]
    for thread in searchers:
        thread.start()
    try:
        with stack.client(key) as client:
            statuses = [client.get("/v1/positions", params={"jd": 2451545.0 + i}).status_code for i in range(40)]
    finally:
        scans_done.set()
        for thread in searchers:
            thread.join()
    assert statuses == [200] * 40
    assert scan_statuses and set(scan_statuses) <= {200, 429}, (
        "scans either ran or were turned away as the account's own excess (issue 48: 429, not 503)"
    )
