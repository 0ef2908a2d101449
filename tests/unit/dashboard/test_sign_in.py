"""gateway/dashboard/sign_in.py: signing an owner in, with the throttles OWASP's Authentication
Cheat Sheet ("Account lockout") asks for: failures counted per email and per network address
within a window, a lock-out at the limit that refuses even the right password, one generic
answer for a wrong password and an unknown email, and the operator's unlock."""

from __future__ import annotations

from gateway.dashboard.passwords import hash_password
from gateway.dashboard.sign_in import (
    ADDRESS_MAX_FAILURES,
    EMAIL_MAX_FAILURES,
    GENERIC_FAILURE,
    LOCKED_OUT,
    address_subject,
    email_subject,
    sign_in,
    unlock,
)
from store.owner_records import SignInThrottle
from store.records import utc_now

PASSWORD = "orbits of the seven sisters"
ADDRESS = "203.0.113.7"


async def _owner(store, email: str = "ada@example.com") -> None:
    """Give the store an account with an owner of ``email`` whose password is PASSWORD."""
    account = await store.create_account(f"acct-{email.split('@')[0]}", 10)
    owner = await store.invite_owner(account.id, email, "d" * 64, utc_now())
    await store.set_password(owner.owner_id, await hash_password(PASSWORD))


def test_a_throttle_counts_failures_in_a_window_and_locks_at_the_limit():
    throttle = SignInThrottle("email:a@example.com")
    for second in range(4):
        throttle = throttle.after_failure(1000.0 + second, window_s=60, max_failures=5, lockout_s=300)
    assert (throttle.failures, throttle.locked(1004.0)) == (4, False)
    locked = throttle.after_failure(1004.0, 60, 5, 300)
    assert locked.locked(1004.0) and locked.locked_until_s == 1304.0 and not locked.locked(1304.0)
    fresh = throttle.after_failure(1061.0, 60, 5, 300)  # the window is over: counting starts again
    assert (fresh.failures, fresh.window_start_s) == (1, 1061.0)
    still = locked.after_failure(1200.0, 60, 5, 300)  # a failure while locked does not extend it
    assert still.locked_until_s == 1304.0


def test_the_right_password_signs_the_owner_in(with_store):
    async def scenario(store):
        await _owner(store)
        return await sign_in(store, " Ada@Example.com ", PASSWORD, ADDRESS)

    outcome = with_store(scenario)
    assert outcome.owner is not None and outcome.owner.email == "ada@example.com" and outcome.message is None


def test_a_wrong_password_and_an_unknown_email_get_the_same_generic_answer(with_store):
    async def scenario(store):
        await _owner(store)
        wrong = await sign_in(store, "ada@example.com", "not the password", ADDRESS)
        unknown = await sign_in(store, "nobody@example.com", PASSWORD, ADDRESS)
        return wrong, unknown

    wrong, unknown = with_store(scenario)
    assert wrong.owner is None and unknown.owner is None
    assert wrong.message == unknown.message == GENERIC_FAILURE


def test_the_email_is_locked_at_its_limit_and_then_refuses_even_the_right_password(with_store):
    async def scenario(store):
        await _owner(store)
        answers = [await sign_in(store, "ada@example.com", "wrong", ADDRESS) for _ in range(EMAIL_MAX_FAILURES)]
        right = await sign_in(store, "ada@example.com", PASSWORD, "198.51.100.1")  # from elsewhere too
        return answers, right

    answers, right = with_store(scenario)
    assert [a.message for a in answers] == [GENERIC_FAILURE] * (EMAIL_MAX_FAILURES - 1) + [LOCKED_OUT]
    assert right.owner is None and right.message == LOCKED_OUT


def test_one_address_trying_many_emails_is_locked_at_the_address_limit(with_store):
    async def scenario(store):
        await _owner(store)
        for n in range(ADDRESS_MAX_FAILURES):
            await sign_in(store, f"guess{n}@example.com", "wrong", ADDRESS)
        here = await sign_in(store, "ada@example.com", PASSWORD, ADDRESS)
        elsewhere = await sign_in(store, "ada@example.com", PASSWORD, "198.51.100.1")
        return here, elsewhere

    here, elsewhere = with_store(scenario)
    assert (here.owner, here.message) == (None, LOCKED_OUT)
    assert elsewhere.owner is not None


def test_a_success_forgets_the_emails_earlier_failures(with_store):
    async def scenario(store):
        await _owner(store)
        for _ in range(EMAIL_MAX_FAILURES - 1):
            await sign_in(store, "ada@example.com", "wrong", ADDRESS)
        await sign_in(store, "ada@example.com", PASSWORD, ADDRESS)
        # Were the failures still counted, this one would be the fifth and lock the email.
        after = await sign_in(store, "ada@example.com", "wrong", ADDRESS)
        return after, await store.get_sign_in_throttle(email_subject("ada@example.com"))

    after, throttle = with_store(scenario)
    assert after.message == GENERIC_FAILURE and throttle.failures == 1


def test_the_operators_unlock_lifts_the_email_and_the_address(with_store):
    async def scenario(store):
        await _owner(store)
        for _ in range(EMAIL_MAX_FAILURES):
            await sign_in(store, "ada@example.com", "wrong", ADDRESS)
        lifted = await unlock(store, email="ADA@example.com", address=ADDRESS)
        return lifted, await sign_in(store, "ada@example.com", PASSWORD, ADDRESS)

    lifted, outcome = with_store(scenario)
    assert lifted == ["email:ada@example.com", "address:" + ADDRESS]
    assert outcome.owner is not None


def test_subjects_fold_an_email_as_stored_and_keep_other_text_lowercased():
    assert email_subject(" Ada@Example.COM ") == "email:ada@example.com"
    assert email_subject(" Not An Email ") == "email:not an email"
    assert address_subject("2001:db8::1") == "address:2001:db8::1"
