"""gateway/reference/operation_markdown.py: one Markdown page per operation at
``/docs/<path after /v1/>.md`` plus the introduction, each with what the operation does, its
parameters as a GitHub-flavoured Markdown table (GFM spec §4.10: a cell's ``|`` escaped), the
recorded call as curl with its real answer, and its error statuses; former page names (the
operation identifiers) mapped to the new ones for redirects."""

from __future__ import annotations

import json
import re

from gateway.endpoints import discover_endpoints
from gateway.reference.examples import EXAMPLES_URL, load_examples, with_examples
from gateway.reference.openapi import build_openapi
from gateway.reference.operation_markdown import (
    BASE_URL_VARIABLE,
    INTRODUCTION_PAGE,
    KEY_VARIABLE,
    former_page_names,
    operation_markdown,
    operation_pages,
)

DOCUMENT = with_examples(build_openapi(discover_endpoints(), version="test"), load_examples())
PAGES = operation_pages(DOCUMENT)
WEBHOOK_PAGES = {
    "webhooks",
    "webhooks/webhook_id",
    "webhooks/webhook_id/test",
    "webhooks/webhook_id/rotate-secret",
    "webhooks/webhook_id/deliveries",
}


def _table_rows(page: str, header: str) -> list[list[str]]:
    """Return the cells of the rows of the table whose header line is ``header``."""
    lines = page.splitlines()
    start = lines.index(header) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]])
    return rows


def test_there_is_one_page_per_operation_named_by_its_path_and_the_introduction():
    # /v1/batch and /v1/status are the gateway's own operations, not an RPC's.
    assert (
        set(PAGES)
        == {e.path.removeprefix("/v1/") for e in discover_endpoints()}
        | {"batch", "status", "usage", "account", "charts", "charts/chart_id", INTRODUCTION_PAGE}
        | WEBHOOK_PAGES
    )


def test_the_introduction_page_is_the_documents_description_under_its_title():
    assert PAGES[INTRODUCTION_PAGE].startswith(f"# {DOCUMENT['info']['title']} API: introduction\n\n")
    assert DOCUMENT["info"]["description"].strip() in PAGES[INTRODUCTION_PAGE]


def test_a_page_opens_with_the_summary_and_the_methods_and_path():
    for endpoint in discover_endpoints():
        page = PAGES[endpoint.path.removeprefix("/v1/")]
        methods = "POST" if endpoint.http.post_only else "GET or POST"
        assert page.startswith(f"# {endpoint.http.summary}\n\n`{methods} {endpoint.path}`\n"), endpoint.path


def test_the_parameter_table_has_one_row_per_parameter_with_its_required_mark():
    page = PAGES["positions"]
    rows = _table_rows(page, "| name | type | required | default | description |")
    parameters = DOCUMENT["paths"]["/v1/positions"]["get"]["parameters"]
    assert [row[0] for row in rows] == [f"`{p['name']}`" for p in parameters]
    assert all(len(row) == 5 for row in rows)
    assert [row[2] == "yes" for row in rows] == [p["required"] for p in parameters]


def test_the_example_is_the_recorded_call_as_curl_and_its_real_answer():
    page = PAGES["positions"]
    recorded = load_examples()["/v1/positions"]
    assert f'-H "Authorization: Bearer {KEY_VARIABLE}"' in page and f'"{BASE_URL_VARIABLE}/v1/positions?' in page
    answer = re.search(r"```json\n(.*?)\n```", page.split("## Example", 1)[1], re.DOTALL).group(1)
    assert json.loads(answer) == recorded.response


def test_a_post_only_operation_shows_its_body_schema_and_posts_the_recorded_body():
    page = PAGES["batch"]
    assert (
        page.startswith("# ")
        and "`POST /v1/batch`" in page
        and "## Body" in page
        and "-H 'Content-Type: application/json'" in page
        and "-d '" in page
    )


def test_the_errors_table_lists_every_status_but_200():
    path = "/v1/transits"
    rows = _table_rows(PAGES["transits"], "| status | meaning |")
    expected = [status for status in DOCUMENT["paths"][path]["get"]["responses"] if status != "200"]
    assert [row[0] for row in rows] == expected


def test_a_cell_is_one_line_with_its_pipes_escaped():
    document = json.loads(json.dumps(DOCUMENT))
    parameter = document["paths"]["/v1/positions"]["get"]["parameters"][0]
    parameter["schema"]["description"] = "one | two\nthree"
    row = next(
        line
        for line in operation_markdown(document, "/v1/positions").splitlines()
        if line.startswith(f"| `{parameter['name']}`")
    )
    assert "one \\| two three" in row


def test_former_page_names_map_each_identifier_that_differs_to_its_path_page():
    former = former_page_names(DOCUMENT)
    assert former["natal_chart"] == "natal-chart" and former["eclipses_solar"] == "eclipses/solar"
    assert "positions" not in former and all(old != new for old, new in former.items())


def test_a_page_shows_its_operations_example_picture_under_the_request_that_made_it():
    page = PAGES["chart-wheel"]
    wheel = load_examples()["/v1/chart-wheel"]
    picture = page.index(f"]({EXAMPLES_URL}/chart_wheel.svg)")
    assert page.index(f"`{wheel.summary}`") < page.index("![") < picture < page.index("## Parameters")


def test_each_example_of_an_operation_has_its_own_call_the_default_first():
    page = PAGES["chart-wheel"]
    section = page.split("## Example", 1)[1]
    names = [call.name for call in load_examples()["/v1/chart-wheel"].every]
    headings = re.findall(r"^### (.*)$", section, re.MULTILINE)
    assert len(headings) == len(names) and headings[0].startswith("The default request")
    assert [heading.split("`")[1] for heading in headings[1:]] == names[1:]


def test_a_document_example_is_curl_saving_its_file_and_a_link_to_the_recorded_file():
    section = PAGES["chart-wheel"].split("## Example", 1)[1]
    for file in ("chart_wheel.svg", "chart_wheel.png"):
        assert f"-o {file} " in section and f"[{file}]({EXAMPLES_URL}/{file})" in section


def test_a_text_document_example_is_shown_in_full():
    ics = next(call for call in load_examples()["/v1/calendar"].every if call.media_type == "text/calendar")
    shown = re.search(r"```text\n(.*?)\n```", PAGES["calendar"], re.DOTALL).group(1)
    assert shown.splitlines() == ics.document.content.decode().splitlines()


def test_a_description_keeps_its_request_to_paste_line_by_line_and_joins_its_prose():
    page = operation_markdown(DOCUMENT, "/v1/natal-chart")
    shell = re.search(r"```sh\n(.*?)\n```", page, re.DOTALL).group(1)
    assert shell.splitlines()[0].startswith("curl -s -G ") and shell.count("\n") >= 3
    assert "Conventions: `houses.cusps` has 13 slots, slot 0" in page


def test_an_account_resources_page_shows_each_operations_recorded_calls_with_its_method_and_ids():
    examples = load_examples()
    page = PAGES["charts/chart_id"].split("## Example", 1)[1]
    chart_id = examples["GET /v1/charts/{chart_id}"].path_parameters["chart_id"]
    headings = re.findall(r"^### `(.+)`$", page, re.MULTILINE)
    assert headings == [f"{method} /v1/charts/{chart_id}" for method in ("GET", "PATCH", "DELETE")]
    patch = examples["PATCH /v1/charts/{chart_id}"]
    assert f'curl -s -X PATCH -H "Authorization: Bearer {KEY_VARIABLE}"' in page
    assert f"-d '{json.dumps(patch.request)}'" in page and f'"{BASE_URL_VARIABLE}/v1/charts/{chart_id}"' in page
    listing = PAGES["charts"].split("## Example", 1)[1]
    assert re.findall(r"^### `(.+)`$", listing, re.MULTILINE) == [
        "GET /v1/charts?limit=20",
        "GET /v1/charts?export=true",
        "POST /v1/charts",
    ]
