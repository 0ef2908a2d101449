"""gateway/request_state.py: what the gateway learns about a request, one typed value kept in
the ASGI scope and read by attribute."""

from __future__ import annotations

from gateway.request_state import SCOPE_KEY, RequestState, request_state
from store.records import KeyRecord, utc_now


def a_key(mode: str) -> KeyRecord:
    return KeyRecord("key_1", "acct_1", "h", "svc_x...", utc_now(), mode=mode)


def test_only_a_request_authenticated_with_a_test_key_is_in_test_mode():
    test, live, anonymous = RequestState("r1"), RequestState("r2"), RequestState("r3")
    test.authenticated(a_key("test"))
    live.authenticated(a_key("live"))
    assert test.test_mode and not live.test_mode
    assert not anonymous.test_mode  # not authenticated (yet)


def test_authentication_records_the_account_the_key_and_its_mode():
    state = RequestState("r1")
    state.authenticated(a_key("live"))
    assert (state.account_id, state.key_id, state.key_mode) == ("acct_1", "key_1", "live")


def test_the_charge_ids_are_those_of_the_charges_made_and_none_without_any():
    state = RequestState("r1")
    assert state.charge_ids is None
    state.charges += [("c1", 2), ("c2", 1)]
    assert state.charge_ids == ["c1", "c2"]


def test_the_state_is_the_one_the_scope_keeps_and_one_is_made_where_none_was():
    kept = RequestState("r1")
    assert request_state({SCOPE_KEY: kept}) is kept
    scope: dict = {}
    made = request_state(scope)
    assert made.request_id == "" and request_state(scope) is made
