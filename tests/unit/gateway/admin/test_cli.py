"""``celestial-admin`` against a store in a temporary data directory.

The commands run in process (:func:`tests.in_process_admin.run_admin`, the same ``main`` and
settings); the first test runs the real ``python -m gateway.admin.cli`` subprocess, so the
entry point, its exit status and its streams are proven once.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from gateway.auth import KeyAuthenticator
from shared.runtime.config import REPO_ROOT, load_settings
from store import SqliteStore, hash_key
from store.bounds import MAX_BALANCE, MAX_CONCURRENT, RATE_PER_MINUTE
from tests.in_process_admin import run_admin

KEY_LINE = re.compile(r"svc_live_[A-Za-z0-9_-]{32}\n")


@pytest.fixture
def data_dir(tmp_path) -> Path:
    return tmp_path / "data"  # not created: the command must create it


def cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_admin(args, load_settings({**os.environ, "CELESTIAL_DATA_DIR": str(data_dir)}))


def cli_process(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CELESTIAL_DATA_DIR": str(data_dir)}
    return subprocess.run(
        [sys.executable, "-m", "gateway.admin.cli", *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def ok(data_dir: Path, *args: str) -> str:
    done = cli(data_dir, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def with_store(data_dir: Path, scenario):
    """Return what ``scenario(store)`` returns, run against the CLI's own store file."""

    async def body():
        store = SqliteStore(data_dir / "celestial.sqlite3")
        try:
            return await scenario(store)
        finally:
            await store.close()

    return asyncio.run(body())


def fields(stdout: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in stdout.splitlines())


def test_key_create_prints_the_new_key_alone_on_one_stdout_line(processes, data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "10")
    done = cli_process(data_dir, "key", "create", "--account", "acme")
    assert done.returncode == 0, done.stderr
    assert KEY_LINE.fullmatch(done.stdout)
    assert "key_" in done.stderr and done.stdout.strip() not in done.stderr
    plain = done.stdout.strip()
    record = with_store(data_dir, lambda store: store.find_key_by_hash(hash_key(plain)))
    assert record is not None and record.state() == "active"


def test_a_key_from_the_cli_authenticates_against_the_same_store(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "10")
    plain = ok(data_dir, "key", "create", "--account", "acme", "--origin", "https://app.example.com").strip()

    async def scenario(store):
        return await KeyAuthenticator(store, store).authenticate({"X-API-Key": plain}, "https://app.example.com")

    account, record = with_store(data_dir, scenario)
    assert (account.name, record.allowed_origins) == ("acme", ("https://app.example.com",))


def test_account_create_makes_the_data_dir_and_prints_the_account(data_dir):
    out = fields(
        ok(
            data_dir,
            "account",
            "create",
            "acme",
            "--credits",
            "250",
            "--rate-per-minute",
            "60",
            "--max-concurrent",
            "5",
        )
    )
    assert (data_dir / "celestial.sqlite3").exists()
    assert out["id"].startswith("acct_")
    assert (out["name"], out["balance"], out["rate_per_minute"], out["max_concurrent"]) == ("acme", "250", "60", "5")


def test_account_show_reports_balance_limits_and_key_count(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "7")
    ok(data_dir, "key", "create", "--account", "acme")
    shown = json.loads(ok(data_dir, "account", "show", "acme", "--json"))
    assert (shown["balance"], shown["rate_per_minute"], shown["max_concurrent"]) == (7, 300, 50)
    assert (shown["keys"], shown["active_keys"]) == (1, 1)
    assert fields(ok(data_dir, "account", "show", "acme"))["balance"] == "7"


def test_creating_an_account_twice_exits_2_with_a_message(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    done = cli(data_dir, "account", "create", "acme", "--credits", "1")
    assert done.returncode == 2
    assert "already exists" in done.stderr and done.stdout == ""


def test_account_top_up_adds_credits(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "10")
    assert ok(data_dir, "account", "top-up", "acme", "--credits", "15").strip() == "balance: 25"
    assert fields(ok(data_dir, "account", "show", "acme"))["balance"] == "25"


def test_key_list_shows_id_prefix_state_and_origins_but_never_a_key_or_hash(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    plain = ok(
        data_dir, "key", "create", "--account", "acme", "--origin", "https://a.example", "--browser-only"
    ).strip()
    table = ok(data_dir, "key", "list", "--account", "acme")
    listed = json.loads(ok(data_dir, "key", "list", "--account", "acme", "--json"))
    for output in (table, json.dumps(listed)):
        assert plain not in output and plain[9:] not in output
        assert hash_key(plain) not in output
        assert not re.search(r"[0-9a-f]{64}", output)
    (entry,) = listed
    assert entry["key_id"].startswith("key_") and entry["key_id"] in table
    assert entry["prefix"] == f"svc_live_{plain[9:13]}..." and entry["prefix"] in table
    assert (entry["state"], entry["allowed_origins"], entry["browser_only"]) == ("active", ["https://a.example"], True)
    assert "https://a.example" in table and "active" in table


def test_key_create_sets_expiry_and_an_expiry_without_offset_is_utc(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    ok(data_dir, "key", "create", "--account", "acme", "--expires", "2099-01-31T12:00:00")
    (entry,) = json.loads(ok(data_dir, "key", "list", "--account", "acme", "--json"))
    assert entry["expires_at"] == "2099-01-31T12:00:00.000Z"


def test_key_create_refuses_a_past_expiry_or_a_wildcard_origin_and_prints_no_key(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    for extra in (["--expires", "2000-01-01"], ["--origin", "https://*.example.com"], ["--expires", "soon"]):
        done = cli(data_dir, "key", "create", "--account", "acme", *extra)
        assert done.returncode == 2 and done.stdout == "" and done.stderr


def test_key_revoke_marks_the_key_revoked(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    plain = ok(data_dir, "key", "create", "--account", "acme").strip()
    (entry,) = json.loads(ok(data_dir, "key", "list", "--account", "acme", "--json"))
    assert fields(ok(data_dir, "key", "revoke", entry["key_id"]))["state"] == "revoked"
    (entry,) = json.loads(ok(data_dir, "key", "list", "--account", "acme", "--json"))
    assert entry["state"] == "revoked"
    record = with_store(data_dir, lambda store: store.find_key_by_hash(hash_key(plain)))
    assert record.state() == "revoked"


def test_key_origins_replaces_origins_and_toggles_browser_only_without_revoking(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    ok(data_dir, "key", "create", "--account", "acme", "--origin", "https://old.example")
    (entry,) = json.loads(ok(data_dir, "key", "list", "--account", "acme", "--json"))
    key_id = entry["key_id"]
    ok(data_dir, "key", "origins", key_id, "--origin", "https://a.example", "--origin", "https://b.example")
    ok(data_dir, "key", "origins", key_id, "--browser-only")  # origins kept
    (entry,) = json.loads(ok(data_dir, "key", "list", "--account", "acme", "--json"))
    assert (entry["allowed_origins"], entry["browser_only"], entry["state"]) == (
        ["https://a.example", "https://b.example"],
        True,
        "active",
    )
    ok(data_dir, "key", "origins", key_id, "--clear", "--no-browser-only")
    (entry,) = json.loads(ok(data_dir, "key", "list", "--account", "acme", "--json"))
    assert (entry["allowed_origins"], entry["browser_only"]) == ([], False)


def test_key_origins_without_a_change_or_with_both_clear_and_origin_is_a_usage_error(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    ok(data_dir, "key", "create", "--account", "acme")
    (entry,) = json.loads(ok(data_dir, "key", "list", "--account", "acme", "--json"))
    for extra in ([], ["--clear", "--origin", "https://a.example"]):
        done = cli(data_dir, "key", "origins", entry["key_id"], *extra)
        assert done.returncode == 2 and "error" in done.stderr


def only_key_id(data_dir: Path, account: str = "acme") -> str:
    (entry,) = json.loads(ok(data_dir, "key", "list", "--account", account, "--json"))
    return entry["key_id"]


def assert_no_secret(output: str, plain: str) -> None:
    assert plain not in output and plain[9:] not in output
    assert hash_key(plain) not in output
    assert not re.search(r"[0-9a-f]{64}", output)


def test_key_show_reports_state_and_settings_but_never_the_key_or_hash(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    plain = ok(
        data_dir, "key", "create", "--account", "acme", "--origin", "https://a.example", "--expires", "2099-01-01"
    ).strip()
    key_id = only_key_id(data_dir)
    text = ok(data_dir, "key", "show", key_id)
    shown = json.loads(ok(data_dir, "key", "show", key_id, "--json"))
    for output in (text, json.dumps(shown)):
        assert_no_secret(output, plain)
    assert shown["key_id"] == key_id and shown["account_id"].startswith("acct_")
    assert (shown["state"], shown["expires_at"], shown["allowed_origins"]) == (
        "active",
        "2099-01-01T00:00:00.000Z",
        ["https://a.example"],
    )
    assert fields(text)["state"] == "active"
    ok(data_dir, "key", "revoke", key_id)
    assert json.loads(ok(data_dir, "key", "show", key_id, "--json"))["state"] == "revoked"


def test_key_show_reports_an_expired_key_as_expired(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    soon = (datetime.now(UTC) + timedelta(seconds=2)).isoformat()
    ok(data_dir, "key", "create", "--account", "acme", "--expires", soon)
    key_id = only_key_id(data_dir)
    time.sleep(2.2)
    assert json.loads(ok(data_dir, "key", "show", key_id, "--json"))["state"] == "expired"


def test_key_rotate_prints_only_the_new_key_copies_its_settings_and_keeps_the_old_key_active(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    old_plain = ok(
        data_dir,
        "key",
        "create",
        "--account",
        "acme",
        "--origin",
        "https://a.example",
        "--origin",
        "https://b.example",
        "--browser-only",
        "--expires",
        "2099-06-30T12:00:00Z",
    ).strip()
    old_id = only_key_id(data_dir)
    done = cli(data_dir, "key", "rotate", old_id)
    assert done.returncode == 0, done.stderr
    assert KEY_LINE.fullmatch(done.stdout)
    new_plain = done.stdout.strip()
    assert new_plain != old_plain and new_plain not in done.stderr
    assert_no_secret(done.stderr, old_plain)
    old, new = json.loads(ok(data_dir, "key", "list", "--account", "acme", "--json"))
    assert old["key_id"] == old_id and new["key_id"] != old_id
    assert (old["state"], new["state"]) == ("active", "active")
    for setting in ("account_id", "allowed_origins", "browser_only", "expires_at"):
        assert new[setting] == old[setting], setting

    async def both_authenticate(store):
        authenticator = KeyAuthenticator(store, store, cache_seconds=0)
        return [
            (await authenticator.authenticate({"X-API-Key": plain}, "https://a.example"))[1].key_id
            for plain in (old_plain, new_plain)
        ]

    assert with_store(data_dir, both_authenticate) == [old_id, new["key_id"]]


def test_key_rotate_with_revoke_old_revokes_the_old_key_right_after(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    old_plain = ok(data_dir, "key", "create", "--account", "acme").strip()
    old_id = only_key_id(data_dir)
    new_plain = ok(data_dir, "key", "rotate", old_id, "--revoke-old").strip()
    assert KEY_LINE.fullmatch(new_plain + "\n")
    old_record, new_record = with_store(
        data_dir,
        lambda store: asyncio.gather(
            store.find_key_by_hash(hash_key(old_plain)), store.find_key_by_hash(hash_key(new_plain))
        ),
    )
    assert (old_record.state(), new_record.state()) == ("revoked", "active")


def test_key_rotate_refuses_a_revoked_key_and_prints_no_key(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    ok(data_dir, "key", "create", "--account", "acme")
    key_id = only_key_id(data_dir)
    ok(data_dir, "key", "revoke", key_id)
    done = cli(data_dir, "key", "rotate", key_id)
    assert done.returncode == 2 and done.stdout == "" and "revoked" in done.stderr
    assert len(json.loads(ok(data_dir, "key", "list", "--account", "acme", "--json"))) == 1


def test_key_origins_refuses_a_revoked_key(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    ok(data_dir, "key", "create", "--account", "acme")
    key_id = only_key_id(data_dir)
    ok(data_dir, "key", "revoke", key_id)
    done = cli(data_dir, "key", "origins", key_id, "--origin", "https://a.example")
    assert done.returncode == 2 and "revoked" in done.stderr


def test_account_limits_changes_the_limits_its_keys_share(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    out = fields(ok(data_dir, "account", "limits", "acme", "--rate-per-minute", "60", "--max-concurrent", "4"))
    assert (out["rate_per_minute"], out["max_concurrent"]) == ("60", "4")
    ok(data_dir, "account", "limits", "acme", "--max-concurrent", "9")  # the other limit is kept
    shown = json.loads(ok(data_dir, "account", "show", "acme", "--json"))
    assert (shown["rate_per_minute"], shown["max_concurrent"]) == (60, 9)


def test_account_limits_without_a_limit_is_a_usage_error(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    done = cli(data_dir, "account", "limits", "acme")
    assert done.returncode == 2 and "--rate-per-minute" in done.stderr and done.stdout == ""


def test_usage_reports_the_ledger_totals(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "20")

    async def spend(store):
        account = await store.get_account("acme")
        await store.reserve(account.id, 3, "req-1")
        await store.reserve(account.id, 2, "req-2")
        await store.refund(account.id, 2, "req-2")

    with_store(data_dir, spend)
    usage = json.loads(ok(data_dir, "usage", "acme", "--json"))
    assert (usage["requests"], usage["credits_used"], usage["credits_refunded"], usage["balance"]) == (2, 3, 2, 17)
    assert fields(ok(data_dir, "usage", "acme"))["credits_used"] == "3"
    later = json.loads(ok(data_dir, "usage", "acme", "--since", "2999-01-01", "--json"))
    assert later["credits_used"] == 0


@pytest.mark.parametrize(
    "args",
    [
        ("account", "show", "nobody"),
        ("account", "top-up", "nobody", "--credits", "5"),
        ("account", "limits", "nobody", "--rate-per-minute", "5"),
        ("key", "create", "--account", "nobody"),
        ("key", "list", "--account", "nobody"),
        ("key", "revoke", "key_missing"),
        ("key", "show", "key_missing"),
        ("key", "rotate", "key_missing"),
        ("key", "origins", "key_missing", "--clear"),
        ("usage", "nobody"),
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_anything_not_found_exits_2_with_a_message_on_stderr(data_dir, args):
    done = cli(data_dir, *args)
    assert done.returncode == 2
    assert "not" in done.stderr or "no " in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("account", "create", "acme"),  # --credits is required
        ("account", "create", "acme", "--credits", "-5"),
        ("account", "top-up", "acme", "--credits", "0"),
        ("account", "limits", "acme", "--rate-per-minute", "0"),
        ("key", "rotate"),  # the key id is required
        ("key", "bogus"),
    ],
    ids=lambda args: " ".join(args) or "nothing",
)
def test_a_usage_error_exits_2_with_a_message_on_stderr(data_dir, args):
    done = cli(data_dir, *args)
    assert done.returncode == 2
    assert "usage:" in done.stderr and done.stdout == ""


# --- ranges, grammars, and no key repeated -----------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("account", "create", "acme", "--credits", str(2**63)),
        ("account", "create", "acme", "--credits", str(MAX_BALANCE + 1)),
        ("account", "create", "acme", "--credits", "10.0"),
        ("account", "create", "acme", "--credits", "9" * 5000),
        ("account", "create", "acme", "--credits", "1", "--rate-per-minute", str(RATE_PER_MINUTE.maximum + 1)),
        ("account", "create", "acme", "--credits", "1", "--max-concurrent", str(MAX_CONCURRENT.maximum + 1)),
        ("account", "top-up", "acme", "--credits", str(2**63 - 1)),
        ("account", "limits", "acme", "--rate-per-minute", str(2**63)),
    ],
    ids=lambda args: " ".join(arg[:24] for arg in args),
)
def test_an_amount_or_limit_outside_its_range_exits_2_with_the_range_and_changes_nothing(data_dir, args):
    ok(data_dir, "account", "create", "other", "--credits", "5")
    done = cli(data_dir, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert "Traceback" not in done.stderr and ("between" in done.stderr or "not an integer" in done.stderr)
    assert cli(data_dir, "account", "show", "acme").returncode == 2  # not created
    assert fields(ok(data_dir, "account", "show", "other"))["balance"] == "5"


def test_a_top_up_past_the_balance_ceiling_exits_2_and_changes_nothing(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", str(MAX_BALANCE - 1))
    done = cli(data_dir, "account", "top-up", "acme", "--credits", "2")
    assert done.returncode == 2 and str(MAX_BALANCE) in done.stderr and "Traceback" not in done.stderr
    assert fields(ok(data_dir, "account", "show", "acme"))["balance"] == str(MAX_BALANCE - 1)
    assert ok(data_dir, "account", "top-up", "acme", "--credits", "1").strip() == f"balance: {MAX_BALANCE}"


@pytest.mark.parametrize("name", ["a/b", "a\x01b", "..", "x" * 65, "café", ".hidden"], ids=repr)
def test_an_account_name_outside_the_name_grammar_exits_2(data_dir, name):
    done = cli(data_dir, "account", "create", name, "--credits", "1")
    assert done.returncode == 2 and "1-64" in done.stderr and done.stdout == ""


@pytest.mark.parametrize(
    "origin", ["https://app.example:443", "http://[::1]:80", "ftp://app.example", "https://u@app.example"]
)
def test_an_origin_a_browser_never_sends_exits_2_and_prints_no_key(data_dir, origin):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    done = cli(data_dir, "key", "create", "--account", "acme", "--origin", origin)
    assert done.returncode == 2 and "not an origin" in done.stderr and done.stdout == ""
    assert json.loads(ok(data_dir, "key", "list", "--account", "acme", "--json")) == []


def test_no_error_line_repeats_a_key_given_in_place_of_a_key_id_a_name_or_a_value(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    plain = ok(data_dir, "key", "create", "--account", "acme").strip()
    for args in [
        ("key", "show", plain),
        ("key", "revoke", plain),
        ("key", "rotate", plain),
        ("key", "origins", plain, "--clear"),
        ("account", "show", plain),
        ("account", "create", plain, "--credits", "1"),
        ("account", "top-up", "acme", "--credits", plain),
        ("key", "create", "--account", "acme", "--origin", plain),
        ("key", "create", "--account", "acme", "--expires", plain),
        ("usage", "acme", "--since", plain),
        ("key", plain),
        ("account", "show", "acme", plain),
    ]:
        done = cli(data_dir, *args)
        assert done.returncode == 2, args
        assert plain not in done.stderr and plain[len("svc_live_") :] not in done.stderr, args
        assert plain[: len("svc_live_") + 8] not in done.stderr, args


def test_a_moment_outside_the_calendar_once_in_utc_exits_2(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "1")
    for args in (
        ("key", "create", "--account", "acme", "--expires", "9999-12-31T23:59:59-01:00"),
        ("usage", "acme", "--since", "0001-01-01T00:00:00+01:00"),
    ):
        done = cli(data_dir, *args)
        assert done.returncode == 2 and "ISO 8601" in done.stderr and "Traceback" not in done.stderr
