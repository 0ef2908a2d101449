"""gateway/dashboard/try_it.py: the key the "Try it" curl line uses is the newest active key
that is not browser-only (a terminal sends no Origin header, so a browser-only key is refused
403 origin_required: docs and interface.md), or a sentence saying why there is none."""

from __future__ import annotations

from gateway.dashboard.try_it import terminal_key


def _view(key_id: str, browser_only: bool) -> dict:
    return {"key_id": key_id, "browser_only": browser_only}


def test_the_newest_key_usable_from_a_terminal_is_chosen():
    active = [_view("key_old", False), _view("key_mid", False), _view("key_new", True)]
    assert terminal_key(active) == (active[1], None)


def test_when_every_key_is_browser_only_none_is_chosen_and_the_reason_names_origin_required():
    chosen, reason = terminal_key([_view("key_a", True), _view("key_b", True)])
    assert chosen is None and "403 origin_required" in reason and "Origin" in reason


def test_an_account_without_active_keys_gets_neither_a_key_nor_a_reason():
    assert terminal_key([]) == (None, None)
