"""The dashboard's pure rules: passwords, sign-in throttles, tokens, usage figures and charts."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime

from gateway.dashboard.charts import bar_chart_svg
from gateway.dashboard.passwords import (
    PASSWORD_MIN_CHARS,
    common_passwords,
    hash_password,
    password_problem,
    verify_password,
)
from gateway.dashboard.tokens import join_token, new_secret, split_token
from gateway.dashboard.usage import UNNOTED_ENDPOINT, USAGE_DAYS, usage_figures, usage_window_start
from store.owner_records import SignInThrottle, digest_secret, normalize_email
from store.records import ChargeNote, LedgerEntry


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


def test_tokens_split_into_the_record_id_and_the_digest_of_their_secret():
    secret = new_secret()
    assert split_token(join_token("ses_0123456789abcdef", secret)) == ("ses_0123456789abcdef", digest_secret(secret))
    for bad in (None, "", "ses_0123456789abcdef", f"key_0123456789abcdef.{secret}", f"ses_0123456789abcdef.{secret}x"):
        assert split_token(bad) is None


def test_emails_are_folded_and_checked():
    assert normalize_email(" Ada@Example.COM ") == "ada@example.com"
    for bad in ("ada", "ada@", "@example.com", "a b@example.com", "ada@example", "a@b@example.com"):
        try:
            normalize_email(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_usage_figures_count_debits_less_refunds_per_utc_day_and_list_the_newest_requests():
    today = date(2026, 3, 31)
    at = lambda day, hour: datetime(2026, 3, day, hour, tzinfo=UTC)  # noqa: E731
    entries = [
        LedgerEntry(at(1, 0), "debit", 9, "too-old"),  # 31 days ago: outside the window
        LedgerEntry(at(2, 0), "topup", 100, "open"),
        LedgerEntry(at(2, 1), "debit", 2, "a", ChargeNote("/v1/positions", "key_1", "req-a")),
        LedgerEntry(at(31, 1), "debit", 5, "b", ChargeNote("/v1/transits", "key_2", "req-b")),
        LedgerEntry(at(31, 2), "refund", 5, "b"),
        LedgerEntry(at(31, 3), "debit", 1, "c"),  # from before the ledger kept notes
    ]
    assert usage_window_start(today) == datetime(2026, 3, 2, tzinfo=UTC)
    figures = usage_figures(entries, today)
    assert len(figures.days) == USAGE_DAYS and figures.days[0] == date(2026, 3, 2)
    assert (figures.credits_per_day[0], figures.credits_per_day[-1]) == (2, 1)
    assert (figures.requests_per_day[0], figures.requests_per_day[-1]) == (1, 2)
    assert (figures.requests, figures.credits_used) == (3, 3)
    assert [(r.charge_id, r.request_id, r.endpoint, r.credits, r.refunded) for r in figures.recent][:3] == [
        ("c", "", "", 1, False), ("b", "req-b", "/v1/transits", 0, True), ("a", "req-a", "/v1/positions", 2, False),
    ]


def test_usage_figures_count_requests_per_endpoint_and_each_keys_last_use():
    today = date(2026, 3, 31)
    at = lambda day, hour: datetime(2026, 3, day, hour, tzinfo=UTC)  # noqa: E731
    entries = [
        LedgerEntry(at(1, 0), "debit", 1, "old", ChargeNote("/v1/houses", "key_1", "r0")),  # outside the window: not counted
        LedgerEntry(at(3, 0), "debit", 1, "a", ChargeNote("/v1/positions", "key_1", "r1")),
        LedgerEntry(at(4, 0), "debit", 1, "b", ChargeNote("/v1/positions", "key_2", "r2")),
        LedgerEntry(at(5, 0), "debit", 5, "c", ChargeNote("/v1/transits", "key_1", "r3")),
        LedgerEntry(at(6, 0), "debit", 1, "d"),
    ]
    figures = usage_figures(entries, today)
    assert figures.requests_per_endpoint == [("/v1/positions", 2), (UNNOTED_ENDPOINT, 1), ("/v1/transits", 1)]
    assert figures.last_used == {"key_1": at(5, 0), "key_2": at(4, 0)}


def test_a_chart_has_one_bar_per_value_and_escapes_its_text():
    svg = bar_chart_svg(["<d1>", "d2"], [0, 4], "credits & more")
    assert svg.count("<rect") == 2 and "credits &amp; more" in svg and "&lt;d1&gt;" in svg
    assert 'role="img"' in svg


def test_every_file_the_dashboard_reads_ships_in_the_package():
    """A non-editable install (the container image's ``pip install .``) carries only the
    package data pyproject.toml names: every template, static file and data file must match."""
    import fnmatch
    import tomllib

    from shared.runtime.config import REPO_ROOT

    patterns = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["gateway.dashboard"]
    folder = REPO_ROOT / "gateway" / "dashboard"
    data = [p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")]
    assert data and all(any(fnmatch.fnmatch(name, pattern) for pattern in patterns) for name in data), data
