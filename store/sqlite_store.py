"""The embedded key and credit store: one SQLite file in WAL mode, safe across processes.

Its parts share one file and this process's connections (``sqlite_connection.py``, where the
choices behind them are written): keys (``sqlite_keys.py``), the credit ledger
(``sqlite_ledger.py``), the limiter (``sqlite_limiter.py``), the test-key traffic's limiter
(``sqlite_test_traffic.py``), the dashboard's owners and sessions (``sqlite_owners.py``),
the accounts' stored charts (``sqlite_charts.py``), the ``Idempotency-Key`` records
(``sqlite_idempotency.py``), webhook subscriptions (``sqlite_webhooks.py``) and the status
page's records (``sqlite_status.py``).
"""

from __future__ import annotations

from store.sqlite_charts import SqliteCharts
from store.sqlite_connection import SCHEMA_VERSION
from store.sqlite_idempotency import SqliteIdempotency
from store.sqlite_keys import SqliteKeys
from store.sqlite_ledger import SqliteLedger
from store.sqlite_limiter import SqliteLimiter
from store.sqlite_owners import SqliteOwners
from store.sqlite_status import SqliteStatus
from store.sqlite_test_traffic import SqliteTestTraffic
from store.sqlite_webhooks import SqliteWebhooks

__all__ = ["SCHEMA_VERSION", "SqliteStore"]


class SqliteStore(
    SqliteKeys,
    SqliteLedger,
    SqliteLimiter,
    SqliteTestTraffic,
    SqliteOwners,
    SqliteCharts,
    SqliteIdempotency,
    SqliteWebhooks,
    SqliteStatus,
):
    """The :class:`~store.interfaces.DashboardStore` on one SQLite file, shared by processes."""
