"""Recording answers for the status page (gateway/status_recording.py): per minute and class,
in the buckets the metrics use, kept for the next flush when the store fails."""

from __future__ import annotations

import asyncio

from gateway.status_recording import BUCKET_BOUNDS_S, StatusRecorder, record_answer
from store.errors import StoreUnavailable
from store.status_records import MINUTE_S, ProbeResult

NOON = 1_796_558_400


def test_the_buckets_are_the_metric_catalogues():
    assert BUCKET_BOUNDS_S == (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)


def test_an_answer_counts_in_the_bucket_whose_bound_it_does_not_exceed():
    recorder = StatusRecorder()
    for duration_s in (0.005, 0.0051, 61.0):
        recorder.record("quick", 200, duration_s, NOON)
    (histogram,), _ = recorder.take()
    assert (histogram.counts[0], histogram.counts[1], histogram.counts[-1]) == (1, 1, 1)


def test_answers_are_counted_per_minute_and_class_with_their_5xx():
    recorder = StatusRecorder()
    recorder.record("quick", 200, 0.001, NOON)
    recorder.record("quick", 503, 0.001, NOON + 59)
    recorder.record("quick", 200, 0.001, NOON + 60)
    recorder.record("search", 500, 0.3, NOON)
    histograms, _ = recorder.take()
    assert [(h.start_s, h.op_class, h.total, h.errors) for h in histograms] == [
        (NOON, "quick", 2, 1),
        (NOON, "search", 1, 1),
        (NOON + MINUTE_S, "quick", 1, 0),
    ]
    assert recorder.take() == ([], [])


class FailingStore:
    async def add_latencies(self, minutes):
        raise StoreUnavailable("down")

    async def add_probe_results(self, results):
        raise StoreUnavailable("down")


class KeepingStore:
    def __init__(self):
        self.minutes, self.probes = [], []

    async def add_latencies(self, minutes):
        self.minutes += minutes

    async def add_probe_results(self, results):
        self.probes += results


def test_what_a_failed_flush_could_not_add_is_added_by_the_next():
    recorder = StatusRecorder()
    recorder.record("quick", 200, 0.001, NOON)
    recorder.record_probe(ProbeResult(NOON, True))
    asyncio.run(recorder.flush(FailingStore()))
    recorder.record("quick", 200, 0.001, NOON)
    store = KeepingStore()
    asyncio.run(recorder.flush(store))
    assert [h.total for h in store.minutes] == [2] and store.probes == [ProbeResult(NOON, True)]


class App:
    class state:
        status_recorder = StatusRecorder()


def test_only_a_path_of_an_operation_is_recorded():
    record_answer({"app": App, "path": "/status"}, 200, 0.01)
    record_answer({"app": App, "path": "/v1/positions"}, 200, 0.01)
    histograms, _ = App.state.status_recorder.take()
    assert [h.op_class for h in histograms] == ["quick"]
