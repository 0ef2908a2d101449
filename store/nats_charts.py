"""The NATS store's stored charts in bucket ``P_CHARTS`` (``P`` the store's prefix): key
``acct.<account_id>.<chart_id>`` -> the chart's document. A chart is read only under its own
account's key, so no account can reach another's; deleting purges the key, so no history of
the birth remains in the bucket.

The per-account limit is exact across gateways: a creation takes a place under the cap
(``nats_caps.py``, entry ``charts.<account_id>``) under compare-and-set before it writes the
chart, and a deletion gives the place back after purging it.
"""

from __future__ import annotations

import nats.js.errors
import orjson
from nats.js import api

from store.chart_records import ChartLimitReached, StoredChart, chart_document, chart_of, check_chart, is_chart_id
from store.nats_caps import NatsCaps
from store.nats_connection import TOKEN_RE, WrongLastSequence

#: The name of the charts' cap in the ``P_CAPS`` bucket.
CHARTS_CAP = "charts"


class NatsCharts(NatsCaps):
    """Stored charts (the store's :class:`~store.interfaces.StoredCharts`)."""

    _charts = None

    async def _ensure_layout(self) -> None:
        await super()._ensure_layout()
        js = self._nc.jetstream(timeout=max(self._timeout_s, 2.0))
        config = api.KeyValueConfig(
            bucket=f"{self.prefix}_CHARTS",
            history=1,
            storage=api.StorageType.FILE,
            replicas=self._replicas,
            direct=True,
        )
        await self._call(js.create_key_value(config))
        self._charts = await self._call(self._js.key_value(config.bucket))

    @staticmethod
    def _chart_key(account_id: str, chart_id: str) -> str | None:
        """Return the bucket key of a chart, None when either id cannot name one."""
        if not isinstance(account_id, str) or TOKEN_RE.fullmatch(account_id) is None or not is_chart_id(chart_id):
            return None
        return f"acct.{account_id}.{chart_id}"

    async def _account_charts(self, account_id: str) -> list[StoredChart]:
        """Return every chart of the account, in id order."""
        if TOKEN_RE.fullmatch(account_id) is None:
            return []
        listed = await self._listing(self._charts, f"acct.{account_id}.*")
        charts = [chart_of(orjson.loads(value)) for value in listed.values()]
        return sorted(charts, key=lambda chart: chart.chart_id)

    async def create_chart(self, chart: StoredChart, limit: int) -> StoredChart:
        check_chart(chart)
        key = self._chart_key(chart.account_id, chart.chart_id)
        if key is None:
            raise ValueError("a chart's account id is not a store token")
        async with self._lock("charts", chart.account_id):
            written = await self._with_place(
                CHARTS_CAP,
                chart.account_id,
                chart.chart_id,
                limit,
                lambda: self._chart_ids(chart.account_id),
                lambda: self._create(self._charts, key, orjson.dumps(chart_document(chart))),
            )
        if written is None:
            raise ChartLimitReached(limit)
        if not written:
            raise ValueError(f"chart id {chart.chart_id} is taken")
        return chart

    async def _chart_ids(self, account_id: str) -> set[str]:
        """Return the ids of the account's charts as stored."""
        return {chart.chart_id for chart in await self._account_charts(account_id)}

    async def get_chart(self, account_id: str, chart_id: str) -> StoredChart | None:
        key = self._chart_key(account_id, chart_id)
        if key is None:
            return None
        found = await self._get_json(self._charts, key)
        return None if found is None else chart_of(found[1])

    async def replace_chart(self, chart: StoredChart) -> StoredChart | None:
        check_chart(chart)
        key = self._chart_key(chart.account_id, chart.chart_id)
        document = orjson.dumps(chart_document(chart))
        # A change between the read and the write is overwritten (the last PATCH wins, as on the
        # SQLite store); a deletion in between wins: the read finds nothing and nothing is written.
        while (found := None if key is None else await self._get(self._charts, key)) is not None:
            try:
                await self._call(self._charts.update(key, document, last=found[0]))
            except WrongLastSequence:
                continue
            return chart
        return None

    async def delete_chart(self, account_id: str, chart_id: str) -> bool:
        key = self._chart_key(account_id, chart_id)
        if key is None or await self._get(self._charts, key) is None:
            return False
        try:
            await self._call(self._charts.purge(key))
        except nats.js.errors.NotFoundError:
            return False
        await self._give_place(CHARTS_CAP, account_id, chart_id)
        return True

    async def list_charts(self, account_id: str, after: str | None, limit: int) -> list[StoredChart]:
        charts = await self._account_charts(account_id)
        return [chart for chart in charts if after is None or chart.chart_id > after][:limit]
