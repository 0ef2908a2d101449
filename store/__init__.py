"""The key and credit store: the ``Store`` protocol, its records and its implementations."""

from store.errors import (
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
from store.interfaces import Store
from store.key_format import KEY_PREFIX, generate_key, hash_key, is_well_formed_key
from store.origins import validate_origins
from store.records import Account, Admission, AdmittedCharge, KeyRecord, KeyState, Usage
from store.sqlite_store import SqliteStore

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
