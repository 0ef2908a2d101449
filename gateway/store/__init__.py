"""The key and credit store: the ``Store`` protocol, its records and its implementations."""

from gateway.store.interfaces import (
    KEY_PREFIX,
    Account,
    AccountExists,
    AccountNotFound,
    KeyNotActive,
    KeyNotFound,
    KeyRecord,
    KeyState,
    LedgerConflict,
    Store,
    StoreBusy,
    StoreError,
    Usage,
    generate_key,
    hash_key,
    is_well_formed_key,
    validate_origins,
)
from gateway.store.sqlite_store import SqliteStore

__all__ = [
    "KEY_PREFIX",
    "Account",
    "AccountExists",
    "AccountNotFound",
    "KeyNotActive",
    "KeyNotFound",
    "KeyRecord",
    "KeyState",
    "LedgerConflict",
    "SqliteStore",
    "Store",
    "StoreBusy",
    "StoreError",
    "Usage",
    "generate_key",
    "hash_key",
    "is_well_formed_key",
    "validate_origins",
]
