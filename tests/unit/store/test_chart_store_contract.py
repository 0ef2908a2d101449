"""The contract of stored charts (issue 40, part 1), run against every store (SQLite, NATS):
a chart is kept, read, changed, listed and deleted under its own account only, within the
account's limit, and deleting it forgets it at once."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from store.chart_records import ChartLimitReached, StoredChart, new_chart_id
from store.interfaces import StoredCharts
from tests.unit.store.test_store_contract import factory, with_store  # noqa: F401 (factory is the fixture)

BIRTH = {"datetime": "1985-07-13T14:05:00", "tz": "Europe/Paris", "lat": "45.75", "lon": "4.85"}


def a_chart(account_id: str, name: str = "Ada", **settings: str) -> StoredChart:
    return StoredChart(new_chart_id(), account_id, name, dict(BIRTH), settings, dict(BIRTH))


@with_store
async def test_each_store_keeps_stored_charts(store):
    assert isinstance(store, StoredCharts)


@with_store
async def test_a_chart_is_read_back_as_it_was_kept(store):
    account = await store.create_account("acme", 10)
    chart = await store.create_chart(a_chart(account.id, house_system="whole_sign"), limit=10)
    found = await store.get_chart(account.id, chart.chart_id)
    assert (found.name, found.birth, found.settings) == ("Ada", BIRTH, {"house_system": "whole_sign"})
    assert abs((found.created_at - chart.created_at).total_seconds()) < 1e-3


@with_store
async def test_another_accounts_chart_is_not_found(store):
    acme = await store.create_account("acme", 10)
    other = await store.create_account("other", 10)
    chart = await store.create_chart(a_chart(acme.id), limit=10)
    assert await store.get_chart(other.id, chart.chart_id) is None
    assert await store.replace_chart(replace(chart, account_id=other.id, name="stolen")) is None
    assert await store.delete_chart(other.id, chart.chart_id) is False
    assert (await store.get_chart(acme.id, chart.chart_id)).name == "Ada"
    assert await store.list_charts(other.id, None, 10) == []


@with_store
async def test_an_id_of_any_other_shape_names_no_chart(store):
    account = await store.create_account("acme", 10)
    for text in ("", "chart_", "../x", "chart_zz", "a" * 300, "acct.*"):
        assert await store.get_chart(account.id, text) is None
        assert await store.delete_chart(account.id, text) is False


@with_store
async def test_a_replaced_chart_keeps_its_id_and_creation(store):
    account = await store.create_account("acme", 10)
    chart = await store.create_chart(a_chart(account.id), limit=10)
    changed = replace(chart, name="Ada Lovelace", settings={"bodies": "all"})
    assert await store.replace_chart(changed) == changed
    found = await store.get_chart(account.id, chart.chart_id)
    assert (found.name, found.settings, found.chart_id) == ("Ada Lovelace", {"bodies": "all"}, chart.chart_id)


@with_store
async def test_a_deleted_chart_is_gone_at_once(store):
    account = await store.create_account("acme", 10)
    chart = await store.create_chart(a_chart(account.id), limit=10)
    assert await store.delete_chart(account.id, chart.chart_id) is True
    assert await store.get_chart(account.id, chart.chart_id) is None
    assert await store.delete_chart(account.id, chart.chart_id) is False
    assert await store.replace_chart(chart) is None
    assert await store.list_charts(account.id, None, 10) == []


@with_store
async def test_charts_are_listed_in_the_order_they_were_made_page_by_page(store):
    account = await store.create_account("acme", 10)
    made = [await store.create_chart(a_chart(account.id, f"n{i}"), limit=10) for i in range(5)]
    first = await store.list_charts(account.id, None, 2)
    second = await store.list_charts(account.id, first[-1].chart_id, 2)
    third = await store.list_charts(account.id, second[-1].chart_id, 2)
    assert [c.name for c in first + second + third] == [c.name for c in made]
    assert await store.list_charts(account.id, third[-1].chart_id, 2) == []


@with_store
async def test_an_account_keeps_no_more_charts_than_its_limit(store):
    account = await store.create_account("acme", 10)
    other = await store.create_account("other", 10)
    for _ in range(3):
        await store.create_chart(a_chart(account.id), limit=3)
    with pytest.raises(ChartLimitReached) as raised:
        await store.create_chart(a_chart(account.id), limit=3)
    assert raised.value.limit == 3
    await store.create_chart(a_chart(other.id), limit=3)  # the limit is the account's own
    first = (await store.list_charts(account.id, None, 1))[0]
    await store.delete_chart(account.id, first.chart_id)
    await store.create_chart(a_chart(account.id), limit=3)  # a deletion makes room


#: The cap race of issue 48: 40 creations at once for one account under a cap of 10, spread over
#: four stores as over four gateways (on NATS each its own connection, so only the server orders them).
CAP = 10
CREATIONS = 40
GATEWAYS = 4


def test_concurrent_creations_through_many_stores_make_exactly_the_limit(factory):
    async def body() -> tuple[list, int]:
        stores = [await factory.open() for _ in range(GATEWAYS)]
        try:
            account = await stores[0].create_account("acme", 10)
            outcomes = await asyncio.gather(
                *(stores[n % GATEWAYS].create_chart(a_chart(account.id, f"n{n}"), limit=CAP) for n in range(CREATIONS)),
                return_exceptions=True,
            )
            return outcomes, len(await stores[1].list_charts(account.id, None, CREATIONS))
        finally:
            for store in stores:
                await store.close()

    outcomes, kept = asyncio.run(body())
    made = [outcome for outcome in outcomes if isinstance(outcome, StoredChart)]
    refused = [outcome for outcome in outcomes if isinstance(outcome, ChartLimitReached)]
    assert (len(made), len(refused), kept) == (CAP, CREATIONS - CAP, CAP), outcomes
