"""The NATS store's dashboard state in bucket ``P_OWNERS`` (``P`` the store's prefix), every
write a create or a compare-and-set update, and an account's ledger rows from the ledger stream.

- ``owner.<owner_id>`` -> the owner record; ``email.<sha256 of the email>`` -> owner id
  (created with ``create``: an email owns one account); ``acct.<account_id>.<owner_id>`` ->
  owner id (the account's owners).
- ``session.<session_id>`` -> the session record; deleted when the session ends.
- ``throttle.<sha256 of the subject>`` -> failed sign-ins and lock-out of one subject.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime

import orjson
from nats.aio.msg import Msg
from nats.js import api

from store.bounds import require_aware
from store.nats_connection import TOKEN_RE, NatsConnection, WrongLastSequence, digest
from store.nats_ledger import USAGE_CLOCK_MARGIN_S
from store.owner_records import (
    InviteNotValid,
    OwnerElsewhere,
    OwnerNotFound,
    OwnerRecord,
    SessionRecord,
    SignInThrottle,
    new_owner_id,
    new_session_id,
    normalize_email,
    same_digest,
)
from store.records import ChargeNote, LedgerEntry, from_unix_s, to_unix_s


def _owner_of(doc: dict) -> OwnerRecord:
    return OwnerRecord(
        owner_id=doc["owner_id"],
        account_id=doc["account_id"],
        email=doc["email"],
        created_at=from_unix_s(doc["created_at_s"]),
        password_hash=doc["password_hash"],
        invite_digest=doc["invite_digest"],
        invite_expires_at=from_unix_s(doc["invite_expires_at_s"]),
        session_epoch=doc["session_epoch"],
    )


def _session_of(doc: dict) -> SessionRecord:
    return SessionRecord(
        doc["session_id"],
        doc["owner_id"],
        doc["secret_digest"],
        doc["session_epoch"],
        from_unix_s(doc["created_at_s"]),
        from_unix_s(doc["last_seen_at_s"]),
    )


class NatsOwners(NatsConnection):
    """Owners, sessions and sign-in throttles (the store's :class:`~store.interfaces.Owners`)
    and the ledger's rows (:class:`~store.interfaces.LedgerHistory`)."""

    _owners = None

    async def _ensure_layout(self) -> None:
        await super()._ensure_layout()
        js = self._nc.jetstream(timeout=max(self._timeout_s, 2.0))
        config = api.KeyValueConfig(
            bucket=f"{self.prefix}_OWNERS",
            history=1,
            storage=api.StorageType.FILE,
            replicas=self._replicas,
            direct=True,
        )
        await self._call(js.create_key_value(config))
        self._owners = await self._call(self._js.key_value(config.bucket))

    async def _owner_doc(self, owner_id: str) -> tuple[int, dict] | None:
        if not isinstance(owner_id, str) or TOKEN_RE.fullmatch(owner_id) is None:
            return None
        return await self._get_json(self._owners, f"owner.{owner_id}")

    async def _change_owner(self, owner_id: str, change: Callable[[dict], dict], missing: Exception) -> OwnerRecord:
        """Return the owner after writing ``change(doc)`` under compare-and-set, retried on a
        concurrent write; raise ``missing`` when there is no such owner."""
        while True:
            found = await self._owner_doc(owner_id)
            if found is None:
                raise missing
            revision, doc = found
            changed = change(doc)
            try:
                await self._call(self._owners.update(f"owner.{owner_id}", orjson.dumps(changed), last=revision))
            except WrongLastSequence:
                continue
            return _owner_of(changed)

    async def invite_owner(self, account: str, email: str, invite_digest: str, expires_at: datetime) -> OwnerRecord:
        email = normalize_email(email)
        expires_at_s = to_unix_s(require_aware(expires_at, "expires_at"))
        account_id = (await self._account_record(account))["id"]
        email_key = f"email.{digest(email)}"

        def invite(doc: dict) -> dict:
            if doc["account_id"] != account_id:
                raise OwnerElsewhere(f"{email} already owns another account")
            return {**doc, "invite_digest": invite_digest, "invite_expires_at_s": expires_at_s}

        while True:
            indexed = await self._get(self._owners, email_key)
            if indexed is not None:
                owner_id = indexed[1].decode()
                return await self._change_owner(owner_id, invite, OwnerNotFound(f"no owner {owner_id!r}"))
            owner_id = new_owner_id()
            doc = {
                "owner_id": owner_id,
                "account_id": account_id,
                "email": email,
                "created_at_s": time.time(),
                "password_hash": None,
                "invite_digest": invite_digest,
                "invite_expires_at_s": expires_at_s,
                "session_epoch": 0,
            }
            # The record before its indexes: an index always leads to a record. Of two
            # invitations of one new email, the one whose index is created wins; the other
            # removes its record and updates the winner's.
            await self._call(self._owners.create(f"owner.{owner_id}", orjson.dumps(doc)))
            if not await self._create(self._owners, email_key, owner_id.encode()):
                await self._call(self._owners.delete(f"owner.{owner_id}"))
                continue
            await self._create(self._owners, f"acct.{account_id}.{owner_id}", owner_id.encode())
            return _owner_of(doc)

    async def get_owner(self, owner_id: str) -> OwnerRecord | None:
        found = await self._owner_doc(owner_id)
        return None if found is None else _owner_of(found[1])

    async def find_owner_by_email(self, email: str) -> OwnerRecord | None:
        try:
            folded = normalize_email(email)
        except ValueError:
            return None
        indexed = await self._get(self._owners, f"email.{digest(folded)}")
        return None if indexed is None else await self.get_owner(indexed[1].decode())

    async def list_owners(self, account: str) -> list[OwnerRecord]:
        account_id = (await self._account_record(account))["id"]
        watcher = await self._call(self._owners.watch(f"acct.{account_id}.*", ignore_deletes=True))
        owner_ids: list[str] = []
        try:
            # The watcher hands over the index entries as they are now, then None.
            while (entry := await self._call(watcher.updates(timeout=self._timeout_s * 2))) is not None:
                owner_ids.append(entry.value.decode())
        finally:
            try:
                await watcher.stop()
            except Exception:  # the consumer goes with a broken connection anyway
                pass
        found = await asyncio.gather(*(self.get_owner(owner_id) for owner_id in owner_ids))
        return sorted(filter(None, found), key=lambda owner: (owner.created_at, owner.owner_id))

    async def redeem_invite(self, owner_id: str, invite_digest: str, password_hash: str, now: datetime) -> OwnerRecord:
        now_s = now.timestamp()

        def redeem(doc: dict) -> dict:
            expires_at_s = doc["invite_expires_at_s"]
            if not same_digest(doc["invite_digest"], invite_digest) or expires_at_s is None or expires_at_s <= now_s:
                raise InviteNotValid("this invite link is unknown, used or expired")
            return {
                **doc,
                "password_hash": password_hash,
                "invite_digest": None,
                "invite_expires_at_s": None,
                "session_epoch": doc["session_epoch"] + 1,
            }

        return await self._change_owner(
            owner_id, redeem, InviteNotValid("this invite link is unknown, used or expired")
        )

    async def set_password(self, owner_id: str, password_hash: str) -> OwnerRecord:
        return await self._change_owner(
            owner_id,
            lambda doc: {**doc, "password_hash": password_hash, "session_epoch": doc["session_epoch"] + 1},
            OwnerNotFound(f"no owner {owner_id!r}"),
        )

    async def create_session(self, owner_id: str, secret_digest: str, now: datetime) -> SessionRecord:
        owner = await self.get_owner(owner_id)
        if owner is None:
            raise OwnerNotFound(f"no owner {owner_id!r}")
        doc = {
            "session_id": new_session_id(),
            "owner_id": owner_id,
            "secret_digest": secret_digest,
            "session_epoch": owner.session_epoch,
            "created_at_s": now.timestamp(),
            "last_seen_at_s": now.timestamp(),
        }
        await self._call(self._owners.create(f"session.{doc['session_id']}", orjson.dumps(doc)))
        return _session_of(doc)

    async def _session_doc(self, session_id: str) -> tuple[int, dict] | None:
        if not isinstance(session_id, str) or TOKEN_RE.fullmatch(session_id) is None:
            return None
        return await self._get_json(self._owners, f"session.{session_id}")

    async def get_session(self, session_id: str) -> SessionRecord | None:
        found = await self._session_doc(session_id)
        return None if found is None else _session_of(found[1])

    async def touch_session(self, session_id: str, now: datetime) -> None:
        while (found := await self._session_doc(session_id)) is not None:
            revision, doc = found
            if doc["last_seen_at_s"] >= now.timestamp():
                return
            try:
                await self._call(
                    self._owners.update(
                        f"session.{session_id}", orjson.dumps({**doc, "last_seen_at_s": now.timestamp()}), last=revision
                    )
                )
                return
            except WrongLastSequence:
                continue  # touched or ended meanwhile: read again

    async def end_session(self, session_id: str) -> None:
        if await self._session_doc(session_id) is not None:
            await self._call(self._owners.delete(f"session.{session_id}"))

    async def record_sign_in_failure(
        self, subject: str, now_s: float, window_s: float, max_failures: int, lockout_s: float
    ) -> SignInThrottle:
        key = f"throttle.{digest(subject)}"
        while True:
            found = await self._get_json(self._owners, key)
            current = SignInThrottle(subject) if found is None else SignInThrottle(**found[1])
            after = current.after_failure(now_s, window_s, max_failures, lockout_s)
            value = orjson.dumps(after.__dict__)
            try:
                if found is None:
                    await self._call(self._owners.create(key, value))
                else:
                    await self._call(self._owners.update(key, value, last=found[0]))
            except WrongLastSequence:
                continue  # another gateway counted a failure meanwhile: count on top of it
            return after

    async def get_sign_in_throttle(self, subject: str) -> SignInThrottle | None:
        found = await self._get_json(self._owners, f"throttle.{digest(subject)}")
        return None if found is None else SignInThrottle(**found[1])

    async def clear_sign_in_throttle(self, subject: str) -> None:
        if await self._get(self._owners, f"throttle.{digest(subject)}") is not None:
            await self._call(self._owners.delete(f"throttle.{digest(subject)}"))

    async def ledger_entries(self, account_id: str, since: datetime) -> list[LedgerEntry]:
        since_s = require_aware(since, "since").timestamp()
        await self._head(account_id, fresh=True)  # AccountNotFound for an unknown id
        entries: list[LedgerEntry] = []

        def keep(message: Msg) -> None:
            entry = orjson.loads(message.data)
            if entry["at_s"] >= since_s and entry["kind"] != "caps":  # a caps entry moves no credit
                note = ChargeNote(entry.get("endpoint", ""), entry.get("key_id", ""), entry.get("http_request_id", ""))
                entries.append(
                    LedgerEntry(from_unix_s(entry["at_s"]), entry["kind"], entry["credits"], entry["request_id"], note)
                )

        await self._scan(self._ledger_stream, self._ledger_prefix + account_id, keep, since_s - USAGE_CLOCK_MARGIN_S)
        return sorted(entries, key=lambda entry: (entry.at, entry.request_id))
