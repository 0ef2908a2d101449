"""The NATS store's status records (``status_records.py``), in three key-value buckets (``P``
the store's prefix), each with the time-to-live of what it keeps, so the server forgets the rest:

- ``P_STATUS_MINUTES`` (2 hours): ``lat.<start_s>.<class>`` -> ``{counts, errors}`` of a minute;
- ``P_STATUS_HOURS`` (2 days): the same for hours;
- ``P_STATUS_DAYS`` (32 days): the same for days, and ``probe.<YYYY-MM-DD>`` -> that UTC day's
  probe marks.

Every gateway adds into the same entries under compare-and-set (read, add, update at the
revision read; retried when another gateway wrote in between), so no count is lost or doubled.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

import orjson
from nats.js import api
from nats.js.kv import KeyValue

from store.errors import StoreBusy
from store.nats_connection import NatsConnection, WrongLastSequence
from store.status_records import (
    DAY_S,
    HOUR_S,
    KEPT_S,
    MINUTE_S,
    LatencyHistogram,
    ProbeDay,
    ProbeResult,
    check_probe_marks,
    histogram_document,
    histogram_of,
    merge_into,
    merge_probe_marks,
    probe_marks,
    rolled_up,
)

_BUCKETS = {MINUTE_S: "STATUS_MINUTES", HOUR_S: "STATUS_HOURS", DAY_S: "STATUS_DAYS"}
#: Compare-and-set attempts before an addition gives up (StoreBusy): far more gateways than
#: ever add to one entry within one round trip.
_CAS_ATTEMPTS = 20


class NatsStatus(NatsConnection):
    """The status page's records (the store's :class:`~store.interfaces.StatusRecords`)."""

    _status: dict[int, KeyValue] | None = None

    async def _ensure_layout(self) -> None:
        await super()._ensure_layout()
        js = self._nc.jetstream(timeout=max(self._timeout_s, 2.0))
        buckets = {}
        for period_s, name in _BUCKETS.items():
            config = api.KeyValueConfig(
                bucket=f"{self.prefix}_{name}",
                history=1,
                ttl=float(KEPT_S[period_s]),
                storage=api.StorageType.FILE,
                replicas=self._replicas,
                direct=True,
            )
            await self._call(js.create_key_value(config))
            buckets[period_s] = await self._call(self._js.key_value(config.bucket))
        self._status = buckets

    async def _add_to(self, bucket: KeyValue, key: str, add: Callable[[bytes | None], bytes]) -> None:
        """Write ``add(value kept or None)`` to ``key`` under compare-and-set, retried on a conflict."""
        for _ in range(_CAS_ATTEMPTS):
            found = await self._get(bucket, key)
            value = add(None if found is None else found[1])
            if found is None:
                if await self._create(bucket, key, value):
                    return
                continue
            try:
                await self._call(bucket.update(key, value, last=found[0]))
                return
            except WrongLastSequence:
                continue
        raise StoreBusy(f"status entry {key} kept changing under {_CAS_ATTEMPTS} additions")

    async def add_latencies(self, minutes: Sequence[LatencyHistogram]) -> None:
        for histogram in rolled_up(minutes):

            def add(kept: bytes | None, histogram: LatencyHistogram = histogram) -> bytes:
                before = None if kept is None else _histogram(histogram, orjson.loads(kept))
                return orjson.dumps(histogram_document(merge_into(before, histogram)))

            key = f"lat.{histogram.start_s}.{histogram.op_class}"
            await self._add_to(self._status[histogram.period_s], key, add)

    async def latencies(self, period_s: int, since_s: int) -> list[LatencyHistogram]:
        listed = await self._listing(self._status[period_s], "lat.*.*")
        found = []
        for key, value in listed.items():
            _, start, op_class = key.split(".")
            if int(start) >= since_s:
                found.append(histogram_of(period_s, int(start), op_class, orjson.loads(value)))
        return sorted(found, key=lambda histogram: (histogram.start_s, histogram.op_class))

    async def add_probe_results(self, results: Sequence[ProbeResult]) -> None:
        for day, marks in probe_marks(results).items():

            def add(kept: bytes | None, marks: str = marks) -> bytes:
                return merge_probe_marks(None if kept is None else kept.decode(), marks).encode()

            await self._add_to(self._status[DAY_S], f"probe.{day.isoformat()}", add)

    async def probe_days(self, first_day: date) -> list[ProbeDay]:
        listed = await self._listing(self._status[DAY_S], "probe.*")
        days = [
            ProbeDay(date.fromisoformat(key[len("probe.") :]), check_probe_marks(v.decode()))
            for key, v in listed.items()
        ]
        return sorted((day for day in days if day.day >= first_day), key=lambda day: day.day)


def _histogram(like: LatencyHistogram, document: dict) -> LatencyHistogram:
    """Return the kept histogram of ``like``'s period, start and class from its document."""
    return histogram_of(like.period_s, like.start_s, like.op_class, document)
