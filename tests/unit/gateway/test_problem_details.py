"""gateway/problem_details.py: a limit's refusal names the IETF RateLimit draft's
``quota-exceeded`` problem type (RFC 9457 members) and the quotas that refused it; any other
error, an empty balance included, names none."""

from __future__ import annotations

import pytest

from gateway.problem_details import QUOTA_EXCEEDED_TITLE, asks_for_problem_json, problem_members, violated_policies
from shared.errors import (
    QUOTA_EXCEEDED_TYPE,
    InsufficientCredits,
    InvalidParameter,
    RateLimitExceeded,
    SpendCapReached,
)


def test_a_429_names_quota_exceeded_with_its_status_detail_and_policies():
    error = RateLimitExceeded("Used the minute's 300 requests.", violated_policies=("minute",))
    assert problem_members(error) == {
        "type": QUOTA_EXCEEDED_TYPE,
        "title": QUOTA_EXCEEDED_TITLE,
        "status": 429,
        "detail": "Used the minute's 300 requests.",
        "violated-policies": ["minute"],
    }


def test_a_spend_cap_names_its_cap_as_the_violated_policy():
    error = SpendCapReached("Over the cap.", cap={"scope": "key", "key_id": "k", "period": "monthly"})
    assert violated_policies(error) == ("key-monthly-spend",)
    assert problem_members(error)["status"] == 402


def test_a_limit_that_names_no_policy_leaves_the_member_out():
    assert "violated-policies" not in problem_members(RateLimitExceeded("Busy."))


def test_an_empty_balance_and_other_errors_name_no_problem_type():
    assert problem_members(InsufficientCredits("No credits.")) == {}
    assert problem_members(InvalidParameter("Bad.")) == {}


@pytest.mark.parametrize(
    ("accept", "asked"),
    [
        ("application/problem+json", True),
        ("application/json, application/problem+json;q=0.9", True),
        ("Application/Problem+JSON ; q=1", True),
        ("application/problem+json;q=0", False),
        ("application/json", False),
        ("*/*", False),
        (None, False),
    ],
)
def test_problem_json_is_answered_only_when_accept_asks_for_it(accept, asked):
    assert asks_for_problem_json(accept) is asked
