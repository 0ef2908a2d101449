"""``celestial-admin``: manage accounts, keys and credits in the configured store (the NATS
JetStream store when CELESTIAL_NATS_URL is set, else the embedded SQLite file).

Every step of a key's life cycle (spec, "States and transitions") is a command: ``key
create``, ``key origins`` (update origins without revoking), ``key rotate`` (a successor with
the same settings), ``key revoke``, and ``key show`` to see the state a key is in.

``key create`` and ``key rotate`` print the new key alone on stdout (one line), so
``KEY=$(celestial-admin key create --account dev)`` works; everything else they say goes to
stderr. The key is shown that once: the store keeps only its hash. No command ever prints a
key hash.

The operations and views are those of the admin HTTP API too (``gateway/admin/operations.py``),
so both interfaces show the same fields and rotate the same way.

``account cap ACCOUNT --daily N --monthly N`` (or ``--clear``) sets the account's spend caps in
credits per UTC day and month, ``key cap KEY_ID ...`` a key's; each prints the account's caps.

``account invite ACCOUNT EMAIL`` makes EMAIL an owner of the account's dashboard (or invites
it again) and prints the one-time link, valid 24 hours, as its last line; ``owner unlock``
lifts a sign-in lock-out.

Exit status: 0 on success, 2 on a usage error or anything not found or refused (with a
message on stderr), 1 when the store stays locked by other writers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from gateway.admin.operations import (
    account_summary,
    account_view,
    find_account,
    find_key,
    key_view,
    owner_view,
    rotate_key,
    usage_summary,
)
from gateway.admin.spend_caps import DAILY_CAP, KEEP, MONTHLY_CAP, change_account_cap, change_key_cap, spend_view
from gateway.dashboard.invites import invite_owner
from gateway.dashboard.sign_in import unlock
from gateway.utc_text import utc_moment
from shared.runtime.config import Settings, load_settings
from store.bounds import CREDITS, MAX_CONCURRENT, OPENING_BALANCE, RATE_PER_MINUTE, Bound
from store.choice import open_configured_store
from store.errors import StoreBusy, StoreError
from store.interfaces import Store
from store.key_format import exception_message, quoted, redact_keys, shown_prefix
from store.records import Account

PROG = "celestial-admin"


class UsageError(Exception):
    """A command line that parses but cannot be carried out (exit 2)."""


def _parse_moment(text: str) -> datetime:
    try:
        return utc_moment(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not an ISO 8601 date or time: {quoted(text)} (e.g. 2030-01-31T00:00:00Z)"
        ) from None


def _integer_in(bound: Bound):
    """Return the argparse type of an integer option within ``bound`` (the store's own range)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:  # no integer, or more digits than int() converts
            raise argparse.ArgumentTypeError(f"not an integer: {quoted(text)}") from None
        try:
            return bound.check(value)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(exception_message(exc)) from None

    parse.__name__ = bound.name  # argparse names the type in some messages
    return parse


class _Parser(argparse.ArgumentParser):
    """An argument parser whose error messages never repeat a key given in the wrong place."""

    def error(self, message: str):
        super().error(redact_keys(message))


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the whole command."""
    parser = _Parser(prog=PROG, description="Manage Celestial accounts, API keys and credits.")
    topics = parser.add_subparsers(dest="topic", required=True, metavar="{account,key,owner,usage}")

    account = topics.add_parser("account", help="create, show, top up accounts and set their limits")
    account_cmds = account.add_subparsers(dest="command", required=True)
    create = account_cmds.add_parser("create", help="create an account with an opening balance")
    create.add_argument("name")
    create.add_argument("--credits", type=_integer_in(OPENING_BALANCE), required=True, help="opening balance")
    create.add_argument(
        "--rate-per-minute",
        type=_integer_in(RATE_PER_MINUTE),
        default=Account.rate_per_minute,
        help=f"requests per minute ({Account.rate_per_minute})",
    )
    create.add_argument(
        "--max-concurrent",
        type=_integer_in(MAX_CONCURRENT),
        default=Account.max_concurrent,
        help=f"concurrent requests ({Account.max_concurrent})",
    )
    show = account_cmds.add_parser("show", help="show an account's balance and limits")
    show.add_argument("name", help="account name or id")
    show.add_argument("--json", action="store_true", help="print JSON")
    top_up = account_cmds.add_parser("top-up", help="add credits to an account")
    top_up.add_argument("name", help="account name or id")
    top_up.add_argument("--credits", type=_integer_in(CREDITS), required=True)
    limits = account_cmds.add_parser("limits", help="change an account's rate limits (all its keys share them)")
    limits.add_argument("name", help="account name or id")
    limits.add_argument("--rate-per-minute", type=_integer_in(RATE_PER_MINUTE), help="requests per minute")
    limits.add_argument("--max-concurrent", type=_integer_in(MAX_CONCURRENT), help="concurrent requests")
    _add_cap_parser(account_cmds, "the account's (every key's spend counts against it)", "name", "account name or id")
    invite = account_cmds.add_parser(
        "invite",
        help="invite an owner to the account's dashboard (again, if they forgot the password); prints the link",
    )
    invite.add_argument("name", help="account name or id")
    invite.add_argument("email", help="the owner's email")

    owner = topics.add_parser("owner", help="list dashboard owners and lift sign-in lock-outs")
    owner_cmds = owner.add_subparsers(dest="command", required=True)
    owner_list = owner_cmds.add_parser("list", help="list an account's dashboard owners")
    owner_list.add_argument("name", help="account name or id")
    owner_list.add_argument("--json", action="store_true", help="print JSON")
    owner_unlock = owner_cmds.add_parser("unlock", help="lift the sign-in lock-out of an email and/or an address")
    owner_unlock.add_argument("--email", help="the owner's email")
    owner_unlock.add_argument("--address", help="the network address that was locked out")

    key = topics.add_parser("key", help="create, show, list, rotate, revoke keys and set their origins")
    key_cmds = key.add_subparsers(dest="command", required=True)
    key_create = key_cmds.add_parser("create", help="create a key; prints the key alone on stdout")
    key_create.add_argument("--account", required=True, help="account name or id")
    key_create.add_argument("--expires", type=_parse_moment, help="expiry, ISO 8601 (UTC when no offset)")
    key_create.add_argument(
        "--origin", action="append", default=[], metavar="URL", help="allowed origin, exact (repeatable)"
    )
    key_create.add_argument("--browser-only", action="store_true", help="refuse requests without an Origin header")
    key_create.add_argument("--name", default="", help="what the key is for (shown in listings and the dashboard)")
    key_create.add_argument(
        "--test",
        action="store_true",
        help="a test key (svc_test_): real answers, no credits, the account's small test limits",
    )
    key_list = key_cmds.add_parser("list", help="list an account's keys (never the keys themselves)")
    key_list.add_argument("--account", required=True, help="account name or id")
    key_list.add_argument("--json", action="store_true", help="print JSON")
    key_show = key_cmds.add_parser("show", help="show one key's state and settings (never the key itself)")
    key_show.add_argument("key_id")
    key_show.add_argument("--json", action="store_true", help="print JSON")
    revoke = key_cmds.add_parser("revoke", help="revoke a key at once")
    revoke.add_argument("key_id")
    rotate = key_cmds.add_parser(
        "rotate", help="create a successor with the same origins, browser-only flag and expiry; prints the new key"
    )
    rotate.add_argument("key_id", help="the key to replace (it must be active)")
    rotate.add_argument(
        "--revoke-old", action="store_true", help="revoke the old key right away (default: keep it until you revoke it)"
    )
    origins = key_cmds.add_parser("origins", help="replace a key's allowed origins")
    origins.add_argument("key_id")
    origins.add_argument("--origin", action="append", default=[], metavar="URL", help="allowed origin (repeatable)")
    origins.add_argument("--clear", action="store_true", help="remove every allowed origin")
    origins.add_argument(
        "--browser-only", action=argparse.BooleanOptionalAction, default=None, help="set or clear browser-only"
    )

    _add_cap_parser(key_cmds, "one key's", "key_id", "the key")

    usage = topics.add_parser("usage", help="credits used by an account, from the ledger")
    usage.add_argument("name", help="account name or id")
    usage.add_argument("--since", type=_parse_moment, help="count from this moment, ISO 8601")
    usage.add_argument("--json", action="store_true", help="print JSON")
    return parser


def _add_cap_parser(commands, whose: str, target: str, target_help: str) -> None:
    cap = commands.add_parser("cap", help=f"set or clear {whose} spend caps, in credits per UTC day and month")
    cap.add_argument(target, help=target_help)
    cap.add_argument("--daily", type=_integer_in(DAILY_CAP), help="most credits per UTC day (0: none may be spent)")
    cap.add_argument("--monthly", type=_integer_in(MONTHLY_CAP), help="most credits per UTC month")
    cap.add_argument("--clear", action="store_true", help="remove both caps")
    cap.add_argument("--json", action="store_true", help="print JSON")


def _cap_changes(args: argparse.Namespace) -> dict[str, Any]:
    """Return the changes of a ``cap`` command: both cleared, or the periods given."""
    given = args.daily is not None or args.monthly is not None
    if args.clear == given:
        raise UsageError("give --daily N, --monthly N (or both), or --clear")
    if args.clear:
        return {"daily": None, "monthly": None}
    return {
        "daily": KEEP if args.daily is None else args.daily,
        "monthly": KEEP if args.monthly is None else args.monthly,
    }


def _print_spend_caps(view: dict[str, Any]) -> None:
    for scope, caps in [("account", view["account"])] + [(f"key {key['key_id']}", key) for key in view["keys"]]:
        for period in ("daily", "monthly"):
            figures = caps[period]
            cap = "none" if figures["cap"] is None else figures["cap"]
            print(f"{scope} {period}: cap {cap}, spent {figures['spent']}, resets at {figures['resets_at']}")


# --- rendering -------------------------------------------------------------------------------


def _print_fields(view: dict[str, Any]) -> None:
    for field, value in view.items():
        if isinstance(value, list):
            value = ", ".join(value) or "-"
        print(f"{field}: {'-' if value is None else value}")


def _print_key_table(views: list[dict[str, Any]]) -> None:
    columns = ("key_id", "name", "prefix", "mode", "state", "expires_at", "browser_only", "allowed_origins")
    rows = [
        [
            str(view["key_id"]),
            view["name"] or "-",
            str(view["prefix"]),
            str(view["mode"]),
            str(view["state"]),
            view["expires_at"] or "-",
            "yes" if view["browser_only"] else "no",
            ",".join(view["allowed_origins"]) or "any",
        ]
        for view in views
    ]
    widths = [max(len(column), *(len(row[i]) for row in rows)) for i, column in enumerate(columns)]
    print("  ".join(column.ljust(width) for column, width in zip(columns, widths)).rstrip())
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())


def _emit(view: Any, as_json: bool, render) -> None:
    if as_json:
        print(json.dumps(view))
    else:
        render(view)


# --- commands --------------------------------------------------------------------------------


async def run(args: argparse.Namespace, store: Store, settings: Settings | None = None) -> None:
    """Carry out one parsed command against ``store`` (``settings`` give the gateway's
    address for invite links; default: read from the environment)."""
    match (args.topic, getattr(args, "command", None)):
        case ("account", "create"):
            account = await store.create_account(args.name, args.credits, args.rate_per_minute, args.max_concurrent)
            _print_fields(account_view(account))
        case ("account", "show"):
            _emit(await account_summary(store, args.name), args.json, _print_fields)
        case ("account", "top-up"):
            account = await find_account(store, args.name)
            balance = await store.top_up(account.id, args.credits, reason="celestial-admin top-up")
            print(f"balance: {balance}")
        case ("account", "limits"):
            if args.rate_per_minute is None and args.max_concurrent is None:
                raise UsageError("give --rate-per-minute N, --max-concurrent M, or both")
            account = await store.set_limits(
                args.name, rate_per_minute=args.rate_per_minute, max_concurrent=args.max_concurrent
            )
            _print_fields(account_view(account))
        case ("key", "create"):
            account = await find_account(store, args.account)
            plain, record = await store.create_key(
                account.id,
                expires_at=args.expires,
                allowed_origins=args.origin,
                browser_only=args.browser_only,
                name=args.name,
                mode="test" if args.test else "live",
            )
            print(plain)
            print(
                f"created {'test ' if args.test else ''}key {record.key_id} "
                f"({shown_prefix(record.mode, record.prefix_hint)}) for account {account.name}; it is shown only this "
                "once",
                file=sys.stderr,
            )
        case ("key", "list"):
            views = [key_view(record) for record in await store.list_keys(args.account)]
            _emit(views, args.json, _print_key_table)
        case ("key", "show"):
            _emit(key_view(await find_key(store, args.key_id)), args.json, _print_fields)
        case ("key", "revoke"):
            record = await store.revoke_key(args.key_id)
            _print_fields(key_view(record))
        case ("key", "rotate"):
            plain, record = await rotate_key(store, args.key_id)
            # Printed before revoking the old key: should the revocation fail, the new key
            # (already valid) is not lost with it.
            print(plain, flush=True)
            print(
                f"created key {record.key_id} ({shown_prefix(record.mode, record.prefix_hint)}) replacing "
                f"{args.key_id}; it is shown only this once",
                file=sys.stderr,
            )
            if args.revoke_old:
                await store.revoke_key(args.key_id)
                print(f"revoked key {args.key_id}", file=sys.stderr)
            else:
                print(
                    f"key {args.key_id} stays active: switch the integration, then `{PROG} key revoke {args.key_id}`",
                    file=sys.stderr,
                )
        case ("key", "origins"):
            if args.clear and args.origin:
                raise UsageError("give either --clear or --origin, not both")
            if not (args.clear or args.origin or args.browser_only is not None):
                raise UsageError("give --origin URL (repeatable), --clear, or --browser-only/--no-browser-only")
            current = await find_key(store, args.key_id)
            wanted = () if args.clear else (args.origin or current.allowed_origins)
            record = await store.update_origins(args.key_id, wanted, browser_only=args.browser_only)
            _print_fields(key_view(record))
        case ("account", "cap"):
            _emit(
                spend_view(await change_account_cap(store, args.name, **_cap_changes(args))),
                args.json,
                _print_spend_caps,
            )
        case ("key", "cap"):
            _emit(
                spend_view(await change_key_cap(store, args.key_id, **_cap_changes(args))), args.json, _print_spend_caps
            )
        case ("account", "invite"):
            invitation = await invite_owner(store, (settings or load_settings()).base_url, args.name, args.email)
            print(
                f"invited {invitation.owner.email} to the dashboard of account {args.name};"
                f" the link works once, until {owner_view(invitation.owner)['invite_expires_at']}:",
                file=sys.stderr,
            )
            print(invitation.link)
        case ("owner", "list"):
            views = [owner_view(owner) for owner in await store.list_owners(args.name)]
            _emit(views, args.json, lambda rows: [_print_fields(row) for row in rows])
        case ("owner", "unlock"):
            if not (args.email or args.address):
                raise UsageError("give --email EMAIL, --address ADDRESS, or both")
            for subject in await unlock(store, args.email, args.address):
                print(f"lifted the sign-in lock-out of {subject}")
        case ("usage", _):
            _emit(await usage_summary(store, args.name, args.since), args.json, _print_fields)
        case _:  # pragma: no cover - argparse makes every command required
            raise UsageError("unknown command")


def main(argv: Sequence[str] | None = None, settings: Settings | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``) against the store of
    ``settings`` (default: read from the environment); return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)  # exits 2 with a message on a usage error
    settings = settings or load_settings()

    async def _main() -> None:
        store = await open_configured_store(settings)
        try:
            await run(args, store, settings)
        finally:
            await store.close()

    try:
        asyncio.run(_main())
    except StoreBusy as exc:
        print(f"{PROG}: error: {exc}; retry", file=sys.stderr)
        return 1
    except (UsageError, StoreError, LookupError, ValueError) as exc:
        # Not found, already exists, not active, a bad origin or expiry: all the caller's to fix.
        print(f"{PROG}: error: {redact_keys(exception_message(exc))}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
