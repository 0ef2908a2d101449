"""gateway/dashboard/passwords.py: the rules a password must meet (length, not among the
common passwords of its source list, not the email) and its Argon2id hash, which verifies
its own password only (OWASP Password Storage Cheat Sheet: Argon2id)."""

from __future__ import annotations

import asyncio

from gateway.dashboard.passwords import (
    PASSWORD_MIN_CHARS,
    common_passwords,
    hash_password,
    password_problem,
    verify_password,
)


def test_the_common_password_list_is_the_thousand_of_its_source():
    listed = common_passwords()
    assert 990 <= len(listed) <= 1000  # a few entries differ only by case
    assert {"password", "qwertyuiop", "1234567890"} <= listed


def test_a_password_must_be_long_uncommon_and_not_the_email():
    assert "at least" in password_problem("x" * (PASSWORD_MIN_CHARS - 1))
    assert password_problem("Password1234!") is not None  # a common word dressed up
    assert password_problem("1234567890123") is not None
    assert password_problem("aaaaaaaaaaaaaaaa") is not None
    assert "email" in password_problem("adalovelace-rocks-1815", "adalovelace@example.com")
    assert password_problem("orbits of the seven sisters") is None


def test_a_password_hash_verifies_only_its_password_and_no_hash_verifies_nothing():
    hashed = asyncio.run(hash_password("orbits of the seven sisters"))
    assert hashed.startswith("$argon2id$")
    assert asyncio.run(verify_password(hashed, "orbits of the seven sisters"))
    assert not asyncio.run(verify_password(hashed, "orbits of the six sisters"))
    assert not asyncio.run(verify_password(None, "orbits of the seven sisters"))
    assert not asyncio.run(verify_password("not a hash", "x"))


def test_a_sign_in_never_queues_behind_the_default_thread_pool():
    from tests.unit.runtime.test_blocking import with_the_default_pool_held

    async def sign_in() -> bool:
        return await verify_password(await hash_password("orbits of the seven sisters"), "orbits of the seven sisters")

    assert with_the_default_pool_held(sign_in)
