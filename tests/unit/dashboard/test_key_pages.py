"""gateway/dashboard/key_pages.py: an owner sees and changes only its own account's keys (the
keys' whole life runs in tests/api/test_dashboard*_api.py and in a browser in tests/e2e)."""

from __future__ import annotations

import re

from tests.dashboard_client import csrf_of, signed_in_owner

PASSWORD = "correct horse battery staple orbit"


def test_an_owner_cannot_see_or_touch_another_accounts_key(pages_stack):
    _, ada = signed_in_owner(pages_stack, PASSWORD)
    _, bo = signed_in_owner(pages_stack, PASSWORD)
    created = ada.submit("/dashboard/keys", "/dashboard/keys", {"name": "ada's"})
    key_id = re.search(r"/dashboard/keys/(key_[0-9a-f]+)/revoke", created.text).group(1)
    assert "No such key" in bo.page(f"/dashboard/keys/{key_id}/revoke", 404)
    answer = bo.http.post(f"/dashboard/keys/{key_id}/revoke", data={"csrf_token": csrf_of(bo.page("/dashboard/keys"))})
    assert answer.status_code == 404
    assert ada.page(f"/dashboard/keys/{key_id}/revoke")  # still Ada's, still there to revoke
