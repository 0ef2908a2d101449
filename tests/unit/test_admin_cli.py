"""``celestial-admin`` run as a real subprocess against a store in a temporary data directory."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from shared.config import REPO_ROOT

from gateway.auth import KeyAuthenticator
from gateway.store import SqliteStore, hash_key

KEY_LINE = re.compile(r"svc_live_[A-Za-z0-9_-]{32}\n")


@pytest.fixture
def data_dir(tmp_path) -> Path:
    return tmp_path / "data"  # not created: the command must create it


def cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CELESTIAL_DATA_DIR": str(data_dir)}
    return subprocess.run(
        [sys.executable, "-m", "gateway.admin_cli", *args],
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


def test_key_create_prints_the_new_key_alone_on_one_stdout_line(data_dir):
    ok(data_dir, "account", "create", "acme", "--credits", "10")
    done = cli(data_dir, "key", "create", "--account", "acme")
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
        return await KeyAuthenticator(store).authenticate({"X-API-Key": plain}, "https://app.example.com")

    account, record = with_store(data_dir, scenario)
    assert (account.name, record.allowed_origins) == ("acme", ("https://app.example.com",))


def test_account_create_makes_the_data_dir_and_prints_the_account(data_dir):
    out = fields(
        ok(data_dir, "account", "create", "acme", "--credits", "250", "--rate-per-minute", "60", "--max-concurrent", "5")
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
    plain = ok(data_dir, "key", "create", "--account", "acme", "--origin", "https://a.example", "--browser-only").strip()
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
    assert entry["expires_at"] == "2099-01-31T12:00:00Z"


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
        ("key", "create", "--account", "nobody"),
        ("key", "list", "--account", "nobody"),
        ("key", "revoke", "key_missing"),
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
        ("key", "bogus"),
    ],
    ids=lambda args: " ".join(args) or "nothing",
)
def test_a_usage_error_exits_2_with_a_message_on_stderr(data_dir, args):
    done = cli(data_dir, *args)
    assert done.returncode == 2
    assert "usage:" in done.stderr and done.stdout == ""
