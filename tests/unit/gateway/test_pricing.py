"""gateway/pricing.py: the price list follows the endpoints it is given (their descriptors'
credits and conditional credits), in their order, and states limits and test keys."""

from __future__ import annotations

from types import SimpleNamespace

from gateway.key_modes import TEST_MAX_CONCURRENT, TEST_RATE_PER_MINUTE
from gateway.pricing import default_limits, endpoint_prices, price_list
from store.records import Account


def _endpoint(path: str, credits: int, *conditions: tuple[str, str, int], post_only: bool = False):
    rules = [SimpleNamespace(field=f, equals=e, credits=c) for f, e, c in conditions]
    http = SimpleNamespace(
        credits=credits, conditional_credits=rules, post_only=post_only, summary=f"summary of {path}"
    )
    return SimpleNamespace(path=path, http=http)


def test_each_endpoint_is_priced_as_its_descriptor_says_in_the_given_order():
    prices = endpoint_prices([_endpoint("/v1/b", 5), _endpoint("/v1/a", 0)])
    assert [(p["path"], p["credits"]) for p in prices] == [("/v1/b", 5), ("/v1/a", 0)]


def test_a_conditional_cost_is_listed_with_its_parameter_and_value():
    (price,) = endpoint_prices([_endpoint("/v1/stars", 1, ("star", "all", 5))])
    assert price["conditional_credits"] == [{"parameter": "star", "equals": "all", "credits": 5}]


def test_a_post_only_endpoint_is_listed_with_post_alone():
    (price,) = endpoint_prices([_endpoint("/v1/x", 1, post_only=True)])
    assert price["methods"] == ["POST"]


def test_the_limits_are_a_new_accounts():
    fresh = Account(id="acc", name="fresh", balance=0)
    assert default_limits() == {"rate_per_minute": fresh.rate_per_minute, "max_concurrent": fresh.max_concurrent}


def test_test_keys_are_stated_as_free_under_their_own_limits():
    test_keys = price_list([])["test_keys"]
    assert (test_keys["available"], test_keys["credits"]) == (True, 0)
    assert test_keys["limits"] == {"rate_per_minute": TEST_RATE_PER_MINUTE, "max_concurrent": TEST_MAX_CONCURRENT}
