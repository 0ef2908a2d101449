"""The key and credit store: the ``Store`` protocol, its records and its implementations."""

from gateway.store.errors import (
    AccountExists,
    AccountNotFound,
    KeyNotActive,
    KeyNotFound,
    LedgerConflict,
    StoreBusy,
    StoreError,
    StoreOutcomeUnknown,
    StoreUnavailable,
)
from gateway.store.interfaces import Store
from gateway.store.key_format import KEY_PREFIX, generate_key, hash_key, is_well_formed_key
from gateway.store.origins import validate_origins
from gateway.store.records import Account, Admission, AdmittedCharge, KeyRecord, KeyState, Usage
from gateway.store.sqlite_store import SqliteStore

__all__ = [
    "KEY_PREFIX",
    "Account",
    "Admission",
    "AdmittedCharge",
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
    "StoreOutcomeUnknown",
    "StoreUnavailable",
    "Usage",
    "generate_key",
    "hash_key",
    "is_well_formed_key",
    "validate_origins",
]
