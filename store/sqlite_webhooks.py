"""The SQLite store's webhook subscriptions: table ``webhooks`` (one row per subscription, its
document as JSON), ``webhook_deliveries`` (the recent attempts, the oldest dropped past the
number kept), ``webhook_delivered`` (the events answered 2xx, pruned once older than
``DELIVERED_MARK_S``) and ``leases`` (the one scheduler of a SQLite deployment). Each write is
one ``BEGIN IMMEDIATE`` transaction, so the per-account limit is exact."""

from __future__ import annotations

import time

import orjson

from store.records import utc_now
from store.sqlite_connection import SqliteConnection, immediate
from store.webhook_records import (
    CHART_DELETED,
    DELIVERED_MARK_S,
    ENDED,
    KEEP_DELIVERIES,
    Delivery,
    Webhook,
    WebhookLimitReached,
    check_delivery,
    check_webhook,
    delivery_document,
    delivery_of,
    ended,
    replacement,
    webhook_document,
    webhook_of,
)


class SqliteWebhooks(SqliteConnection):
    """Webhook subscriptions (the store's :class:`~store.interfaces.Webhooks`) and leases."""

    async def create_webhook(self, webhook: Webhook, limit: int) -> Webhook:
        return await self._run(self._create_webhook, check_webhook(webhook), limit)

    @staticmethod
    def _create_webhook(conn, webhook: Webhook, limit: int) -> Webhook:
        with immediate(conn):
            (count,) = conn.execute(
                "SELECT COUNT(*) FROM webhooks WHERE account_id = ?", (webhook.account_id,)
            ).fetchone()
            if count >= limit:
                raise WebhookLimitReached(limit)
            conn.execute(
                "INSERT INTO webhooks (webhook_id, account_id, document) VALUES (?, ?, ?)",
                (webhook.webhook_id, webhook.account_id, orjson.dumps(webhook_document(webhook)).decode()),
            )
        return webhook

    async def get_webhook(self, account_id: str, webhook_id: str) -> Webhook | None:
        row = await self._run(
            lambda conn: conn.execute(
                "SELECT document FROM webhooks WHERE webhook_id = ? AND account_id = ?", (webhook_id, account_id)
            ).fetchone()
        )
        return None if row is None else webhook_of(orjson.loads(row[0]))

    async def replace_webhook(self, webhook: Webhook) -> Webhook | None:
        return await self._run(self._replace_webhook, check_webhook(webhook))

    @staticmethod
    def _replace_webhook(conn, webhook: Webhook) -> Webhook | None:
        with immediate(conn):
            row = conn.execute(
                "SELECT document FROM webhooks WHERE webhook_id = ? AND account_id = ?",
                (webhook.webhook_id, webhook.account_id),
            ).fetchone()
            written = None if row is None else replacement(webhook_of(orjson.loads(row[0])), webhook)
            if written is not None:
                conn.execute(
                    "UPDATE webhooks SET document = ? WHERE webhook_id = ? AND account_id = ?",
                    (orjson.dumps(webhook_document(written)).decode(), webhook.webhook_id, webhook.account_id),
                )
        return written

    async def end_chart_webhooks(self, account_id: str, chart_id: str) -> int:
        return await self._run(self._end_chart_webhooks, account_id, chart_id)

    @staticmethod
    def _end_chart_webhooks(conn, account_id: str, chart_id: str) -> int:
        now = utc_now()
        count = 0
        with immediate(conn):
            rows = conn.execute("SELECT document FROM webhooks WHERE account_id = ?", (account_id,)).fetchall()
            for (document,) in rows:
                webhook = webhook_of(orjson.loads(document))
                if webhook.chart_id != chart_id or webhook.state == ENDED:
                    continue
                conn.execute(
                    "UPDATE webhooks SET document = ? WHERE webhook_id = ? AND account_id = ?",
                    (
                        orjson.dumps(webhook_document(ended(webhook, CHART_DELETED, now))).decode(),
                        webhook.webhook_id,
                        account_id,
                    ),
                )
                count += 1
        return count

    async def delete_webhook(self, account_id: str, webhook_id: str) -> bool:
        return await self._run(self._delete_webhook, account_id, webhook_id)

    @staticmethod
    def _delete_webhook(conn, account_id: str, webhook_id: str) -> bool:
        with immediate(conn):
            cursor = conn.execute(
                "DELETE FROM webhooks WHERE webhook_id = ? AND account_id = ?", (webhook_id, account_id)
            )
            if cursor.rowcount:
                conn.execute("DELETE FROM webhook_deliveries WHERE webhook_id = ?", (webhook_id,))
        return cursor.rowcount > 0

    async def list_webhooks(self, account_id: str) -> list[Webhook]:
        rows = await self._run(
            lambda conn: conn.execute(
                "SELECT document FROM webhooks WHERE account_id = ? ORDER BY webhook_id", (account_id,)
            ).fetchall()
        )
        return [webhook_of(orjson.loads(row[0])) for row in rows]

    async def all_webhooks(self) -> list[Webhook]:
        rows = await self._run(
            lambda conn: conn.execute("SELECT document FROM webhooks ORDER BY webhook_id").fetchall()
        )
        return [webhook_of(orjson.loads(row[0])) for row in rows]

    async def record_delivery(self, delivery: Delivery, keep: int = KEEP_DELIVERIES) -> None:
        await self._run(self._record_delivery, check_delivery(delivery), keep)

    @staticmethod
    def _record_delivery(conn, delivery: Delivery, keep: int) -> None:
        with immediate(conn):
            if conn.execute("SELECT 1 FROM webhooks WHERE webhook_id = ?", (delivery.webhook_id,)).fetchone() is None:
                return
            conn.execute(
                "INSERT INTO webhook_deliveries (webhook_id, document) VALUES (?, ?)",
                (delivery.webhook_id, orjson.dumps(delivery_document(delivery)).decode()),
            )
            conn.execute(
                "DELETE FROM webhook_deliveries WHERE webhook_id = ? AND id NOT IN "
                "(SELECT id FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id DESC LIMIT ?)",
                (delivery.webhook_id, delivery.webhook_id, keep),
            )

    async def recent_deliveries(self, webhook_id: str, limit: int) -> list[Delivery]:
        rows = await self._run(
            lambda conn: conn.execute(
                "SELECT document FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id DESC LIMIT ?",
                (webhook_id, limit),
            ).fetchall()
        )
        return [delivery_of(orjson.loads(row[0])) for row in rows]

    async def mark_delivered(self, webhook_id: str, event_id: str) -> bool:
        return await self._run(self._mark_delivered, webhook_id, event_id, time.time())

    @staticmethod
    def _mark_delivered(conn, webhook_id: str, event_id: str, now_s: float) -> bool:
        with immediate(conn):
            conn.execute("DELETE FROM webhook_delivered WHERE marked_at_s < ?", (now_s - DELIVERED_MARK_S,))
            cursor = conn.execute(
                "INSERT OR IGNORE INTO webhook_delivered (webhook_id, event_id, marked_at_s) VALUES (?, ?, ?)",
                (webhook_id, event_id, now_s),
            )
        return cursor.rowcount > 0

    async def is_delivered(self, webhook_id: str, event_id: str) -> bool:
        row = await self._run(
            lambda conn: conn.execute(
                "SELECT 1 FROM webhook_delivered WHERE webhook_id = ? AND event_id = ?", (webhook_id, event_id)
            ).fetchone()
        )
        return row is not None

    async def hold_lease(self, name: str, holder: str, ttl_s: float, now_s: float | None = None) -> bool:
        """Return whether ``holder`` holds lease ``name`` for the next ``ttl_s`` seconds: taken
        when free or lapsed, renewed when already its own; False while another holds it."""
        return await self._run(self._hold_lease, name, holder, ttl_s, time.time() if now_s is None else now_s)

    @staticmethod
    def _hold_lease(conn, name: str, holder: str, ttl_s: float, now_s: float) -> bool:
        with immediate(conn):
            row = conn.execute("SELECT holder, expires_at_s FROM leases WHERE name = ?", (name,)).fetchone()
            if row is not None and row[0] != holder and row[1] > now_s:
                return False
            conn.execute(
                "INSERT INTO leases (name, holder, expires_at_s) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at_s = excluded.expires_at_s",
                (name, holder, now_s + ttl_s),
            )
        return True
