"""The shared key and credit store on NATS JetStream: every gateway process talks to one server.

The design (ledger under compare-and-set, the limiter in a key-value entry, how any process
refunds any request) is in docs/stores.md, "Design notes: the NATS store"; the layout is below.
``P`` is the ``prefix`` option (``CELESTIAL`` in production).

- Stream ``P_LEDGER``: one subject per account, ``p.ledger.<account_id>``; each message one
  entry ``{kind, request_id, credits, balance_after, at_s}`` (``kind`` debit, refund or
  topup), published with ``Nats-Msg-Id: <kind>:<request_id>`` and
  ``Nats-Expected-Last-Subject-Sequence``. The balance is the last entry's ``balance_after``.
- Bucket ``P_LIMITS``: ``<account_id>`` -> ``{window_start_s, admitted, slots: {slot_id:
  [lease end in Unix seconds, [[request id, credits] of each charge made under it], holder id
  of the store holding it]}}``;
  ``<account_id>-test`` -> the same for the account's test-key requests (``nats_test_traffic.py``).
- Bucket ``P_ACCOUNTS``: ``id.<account_id>`` -> the account record; ``name.<sha256 of the
  folded name>`` -> account id (created with ``create``: names are unique); ``topup.<sha256 of
  request id>`` -> ``{account_id, credits}`` of an invoice top-up, so retrying it is harmless
  after the de-duplication window too.
- Bucket ``P_KEYS``: ``hash.<sha256>`` -> the key record; ``id.<key_id>`` and
  ``acct.<account_id>.<key_id>`` -> the hash (indexes, written before the record).
- Bucket ``P_OWNERS``: the dashboard's owners, sessions and sign-in throttles (``nats_owners.py``).
- Bucket ``P_CHARTS``: the births accounts keep, ``acct.<account_id>.<chart_id>`` (``nats_charts.py``).
- Bucket ``P_IDEMPOTENCY``: the ``Idempotency-Key`` records, with a TTL of a day (``nats_idempotency.py``).
- Buckets ``P_WEBHOOKS``, ``P_WEBHOOK_DELIVERIES`` and ``P_WEBHOOK_SENT``: webhook
  subscriptions, their recent deliveries and the events delivered (``nats_webhooks.py``).
- Buckets ``P_STATUS_MINUTES``, ``P_STATUS_HOURS`` and ``P_STATUS_DAYS``: the status page's
  latency histograms and probe days, each kept as long as the page reads it (``nats_status.py``).
- Bucket ``P_CAPS``: each account's places under the chart and webhook caps, taken under
  compare-and-set so the caps are exact across gateways (``nats_caps.py``).
- Bucket ``P_HEARTBEATS``: each gateway's heartbeat, which the others watch to free a dead
  gateway's slots and refund their charges within seconds (``nats_heartbeats.py``).
- Stream ``P_WEBHOOK_QUEUE``: the due webhook deliveries, a work queue every delivery worker
  pulls from (``nats_webhook_queue.py``).
- Streams ``P_WEBHOOK_SCHEDULE`` and ``P_WEBHOOK_LATER``: the webhook day jobs every worker
  shares, and the events they found kept until due (``nats_webhook_schedule.py``).
"""

from __future__ import annotations

from store.nats_charts import NatsCharts
from store.nats_connection import DEFAULT_DUPLICATE_WINDOW_S, DEFAULT_PREFIX
from store.nats_heartbeats import NatsHeartbeats
from store.nats_idempotency import NatsIdempotency
from store.nats_keys import NatsKeys
from store.nats_ledger import NatsLedger
from store.nats_limiter import NatsLimiter
from store.nats_owners import NatsOwners
from store.nats_status import NatsStatus
from store.nats_test_traffic import NatsTestTraffic
from store.nats_webhook_queue import NatsWebhookQueue
from store.nats_webhook_schedule import NatsWebhookSchedule
from store.nats_webhooks import NatsWebhooks


class NatsStore(
    NatsKeys,
    NatsLedger,
    NatsLimiter,
    NatsTestTraffic,
    NatsOwners,
    NatsCharts,
    NatsIdempotency,
    NatsWebhooks,
    NatsWebhookQueue,
    NatsWebhookSchedule,
    NatsHeartbeats,
    NatsStatus,
):
    """The key and credit store on NATS JetStream, shared by every gateway: its keys
    (``nats_keys.py``), credit ledger (``nats_ledger.py``) and limiter (``nats_limiter.py``) on
    one connection (``nats_connection.py``).

    Open it with :func:`open_nats_store`. One store serves one event loop.
    """


async def open_nats_store(
    url: str,
    *,
    prefix: str = DEFAULT_PREFIX,
    request_timeout_s: float = 1.0,
    connect_timeout_s: float = 2.0,
    reconnect_wait_s: float = 0.25,
    duplicate_window_s: float = DEFAULT_DUPLICATE_WINDOW_S,
    replicas: int = 1,
    name: str | None = None,
) -> NatsStore:
    """Return a connected NatsStore on the server at ``url``, its stream and buckets created if missing.

    Times are in seconds: ``request_timeout_s`` per round trip, ``connect_timeout_s`` for the
    first connection (StoreUnavailable past it), ``reconnect_wait_s`` between reconnection
    attempts (which go on forever). ``prefix`` names the stream and buckets; ``name`` labels
    the connection in the server's monitoring.
    """
    store = NatsStore(
        prefix=prefix, request_timeout_s=request_timeout_s, duplicate_window_s=duplicate_window_s, replicas=replicas
    )
    await store._connect(url, connect_timeout_s, reconnect_wait_s, name)
    try:
        await store._ensure_layout()
    except BaseException:
        await store.close()
        raise
    return store
