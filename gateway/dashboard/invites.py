"""Invitations of account owners: a one-time link, valid 24 hours, on which the owner sets a
password (the operator's ``celestial-admin account invite`` and the admin API's
``POST /admin/v1/accounts/{account}/owners``; inviting again replaces the link, which is how
an owner who forgot the password gets back in)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from gateway.dashboard.tokens import join_token, new_secret
from store.interfaces import DashboardStore
from store.owner_records import OwnerRecord, digest_secret
from store.records import utc_now

#: How long an invite link works (issue 24: "valid 24 hours").
INVITE_VALID_FOR = timedelta(hours=24)
#: Where an invite link leads, below the gateway's address. The token travels in the query
#: string, which no log line records (the request log keeps only the path).
INVITE_PATH = "/dashboard/invite?token="


@dataclass(frozen=True)
class Invitation:
    """An invite just made: the owner, the link (shown once: the store keeps its digest) and
    when the link stops working."""

    owner: OwnerRecord
    link: str
    expires_at: datetime


async def invite_owner(store: DashboardStore, base_url: str, account: str, email: str) -> Invitation:
    """Return a new invitation of ``email`` as an owner of ``account`` (id or name); any earlier
    link of that owner stops working. Raises AccountNotFound, OwnerElsewhere, ValueError."""
    secret = new_secret()
    expires_at = utc_now() + INVITE_VALID_FOR
    owner = await store.invite_owner(account, email, digest_secret(secret), expires_at)
    link = f"{base_url.rstrip('/')}{INVITE_PATH}{join_token(owner.owner_id, secret)}"
    return Invitation(owner, link, expires_at)
