"""gateway/dashboard/invites.py: an owner's invitation is a one-time link to
``/dashboard/invite?token=<owner id>.<secret>`` that works for 24 hours (issue 24); the store
keeps only the secret's SHA-256 digest, and inviting again replaces the link."""

from __future__ import annotations

import re
from datetime import timedelta

from gateway.dashboard.invites import INVITE_VALID_FOR, invite_owner
from gateway.dashboard.tokens import split_token
from store.records import utc_now


def _token_of(link: str) -> str:
    return link.split("token=", 1)[1]


def test_an_invite_link_names_the_owner_and_a_secret_under_the_gateways_address(with_store):
    async def scenario(store):
        account = await store.create_account("invited", 1)
        return await invite_owner(store, "https://api.example.com/", account.id, "Ada@Example.com")

    invitation = with_store(scenario)
    assert re.fullmatch(
        r"https://api\.example\.com/dashboard/invite\?token=own_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}", invitation.link
    )
    assert invitation.owner.email == "ada@example.com"
    assert _token_of(invitation.link).startswith(invitation.owner.owner_id + ".")


def test_the_store_keeps_only_the_digest_of_the_links_secret(with_store):
    async def scenario(store):
        account = await store.create_account("digest", 1)
        invitation = await invite_owner(store, "http://gw", account.id, "bo@example.com")
        return invitation, await store.get_owner(invitation.owner.owner_id)

    invitation, stored = with_store(scenario)
    _, digest = split_token(_token_of(invitation.link))
    secret = _token_of(invitation.link).split(".", 1)[1]
    assert stored.invite_digest == digest and secret not in stored.invite_digest


def test_an_invite_expires_24_hours_after_it_is_made(with_store):
    async def scenario(store):
        account = await store.create_account("expiry", 1)
        before = utc_now()
        invitation = await invite_owner(store, "http://gw", account.id, "cy@example.com")
        return before, invitation, utc_now()

    before, invitation, after = with_store(scenario)
    assert INVITE_VALID_FOR == timedelta(hours=24)
    assert before + timedelta(hours=24) <= invitation.expires_at <= after + timedelta(hours=24)
    assert invitation.owner.invite_expires_at == invitation.expires_at


def test_inviting_again_replaces_the_earlier_link(with_store):
    async def scenario(store):
        account = await store.create_account("again", 1)
        first = await invite_owner(store, "http://gw", account.id, "di@example.com")
        second = await invite_owner(store, "http://gw", account.id, "di@example.com")
        return first, second, await store.get_owner(second.owner.owner_id)

    first, second, stored = with_store(scenario)
    assert first.owner.owner_id == second.owner.owner_id and first.link != second.link
    assert stored.invite_digest == split_token(_token_of(second.link))[1]
    assert stored.invite_digest != split_token(_token_of(first.link))[1]
