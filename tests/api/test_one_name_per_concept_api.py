"""Issue 49, part 1: the account resources (stored charts, webhooks and their deliveries, usage,
the account) name each concept one way and spell each value one way in their live answers too,
as their recorded examples do (tests/unit/gateway/reference/test_one_name_per_concept.py;
docs/conventions.md, "Names in answers"): every time stamp ISO 8601 UTC to the millisecond with a
``Z``, as instants are."""

from __future__ import annotations

from gateway.reference.openapi_schemas import response_schema
from tests.answer_names import TIME_STAMP, value_drift
from tests.api.test_account_resources_api import every_account_operation_answered


def test_every_account_operations_answer_spells_each_value_one_way(stack):
    document, answered = every_account_operation_answered(stack)
    answers = [
        (f"{method} {template}", response_schema(document, template, method.lower(), "200"), answer.json())
        for (method, template), answer in answered.items()
    ]
    assert [str(found) for found in value_drift(document, answers)] == []
    stamps = [
        answer.json()["data"][member]
        for (method, template), answer in answered.items()
        if method == "POST" and template in ("/v1/charts", "/v1/webhooks")
        for member in ("created_at", "updated_at")
    ]
    assert len(stamps) == 4 and all(TIME_STAMP.fullmatch(stamp) for stamp in stamps), stamps
