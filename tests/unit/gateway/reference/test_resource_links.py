"""A resource's creation links to the operations of the resource it creates, by its id."""

from __future__ import annotations

from gateway.endpoints import discover_endpoints
from gateway.reference.openapi import build_openapi
from gateway.reference.resource_links import CREATED_ID, with_resource_links

DOCUMENT = build_openapi(discover_endpoints(), version="test")


def test_a_stored_charts_creation_links_to_reading_changing_and_deleting_it_by_its_id():
    links = DOCUMENT["paths"]["/v1/charts"]["post"]["responses"]["200"]["links"]
    assert set(links) == {"get_stored_chart", "update_stored_chart", "delete_stored_chart"}
    assert {link["parameters"]["chart_id"] for link in links.values()} == {CREATED_ID}


def test_a_subscriptions_creation_links_to_every_operation_of_the_subscription():
    links = DOCUMENT["paths"]["/v1/webhooks"]["post"]["responses"]["200"]["links"]
    under = {
        operation["operationId"]
        for path, operations in DOCUMENT["paths"].items()
        if path.startswith("/v1/webhooks/{webhook_id}")
        for operation in operations.values()
    }
    assert set(links) == under and len(under) == 6


def test_every_link_names_an_operation_of_the_document():
    operation_ids = {op["operationId"] for ops in DOCUMENT["paths"].values() for op in ops.values()}
    for operations in DOCUMENT["paths"].values():
        for operation in operations.values():
            for link in operation["responses"].get("200", {}).get("links", {}).values():
                assert link["operationId"] in operation_ids


def test_a_computation_offered_as_post_links_nowhere():
    paths = {
        "/v1/things": {"post": {"operationId": "make", "responses": {"200": {}}}},
        "/v1/things/{id}": {"get": {"operationId": "read", "responses": {"200": {}}}},
    }
    assert with_resource_links(paths) == paths
    paths["/v1/things"]["post"]["x-resource"] = True
    assert with_resource_links(paths)["/v1/things"]["post"]["responses"]["200"]["links"]["read"]["parameters"] == {
        "id": CREATED_ID
    }
