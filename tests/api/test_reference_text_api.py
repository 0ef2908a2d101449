"""/llms.txt and /docs/<operation>.md: written from the OpenAPI document, every operation
linked and described, each page's example the recorded call, every link answering."""

from __future__ import annotations

import json
import re

import pytest

from gateway.operation_names import operation_name, page_name
from gateway.reference.examples import load_examples
from gateway.reference.operation_text import PASTES, pasted_requests

LINK = re.compile(r"\]\((/[^)\s]*)\)")
FENCED_JSON = re.compile(r"```json\n(.*?)\n```", re.DOTALL)


@pytest.fixture(scope="module")
def anonymous(stack):
    with stack.client() as client:
        yield client


@pytest.fixture(scope="module")
def document(anonymous) -> dict:
    return anonymous.get("/v1/openapi.json").json()


def test_llms_txt_is_a_markdown_index_linking_every_operations_page(anonymous, document):
    answer = anonymous.get("/llms.txt")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    text = answer.text
    assert text.startswith("# Celestial\n\n> ")
    links = LINK.findall(text)
    for path in document["paths"]:
        assert f"/docs/{page_name(path)}.md" in links, path
    assert "/docs/introduction.md" in links and "/v1/openapi.json" in links


@pytest.mark.parametrize("url", ["/docs", "/docs/positions.md", "/docs/introduction.md", "/docs/guides/limits.md"])
def test_every_reference_page_names_llms_txt_as_what_describes_it(anonymous, url):
    # llms.txt v2's discovery: an agent that lands on a page finds the index by a link relation.
    answer = anonymous.get(url)
    assert answer.status_code == 200 and answer.headers["link"] == '</llms.txt>; rel="describedby"'
    if answer.headers["content-type"].startswith("text/html"):
        assert "<link rel='describedby' href='/llms.txt'>" in answer.text.split("</head>", 1)[0]


@pytest.mark.parametrize(("url", "markdown"), [("/docs/guides", "/docs/guides.md"), ("/docs/guides/limits", None)])
def test_a_guide_names_its_markdown_served_at_its_url_with_md_appended(anonymous, url, markdown):
    markdown = markdown or f"{url}.md"
    answer = anonymous.get(url)
    relations = f'</llms.txt>; rel="describedby", <{markdown}>; rel="alternate"; type="text/markdown"'
    assert answer.headers["link"] == relations
    assert f"<link rel='alternate' href='{markdown}' type='text/markdown'>" in answer.text.split("</head>", 1)[0]
    text = anonymous.get(markdown)
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/markdown")
    assert text.text.startswith("# ")


def test_llms_txt_lists_every_guides_markdown(anonymous):
    links = LINK.findall(anonymous.get("/llms.txt").text.split("## Guides", 1)[1].split("## Optional", 1)[0])
    assert links[0] == "/docs/guides.md" and "/docs/guides/limits.md" in links and len(links) > 20


def test_every_link_of_every_guides_markdown_answers(anonymous):
    pages = [link for link in LINK.findall(anonymous.get("/docs/guides.md").text) if link.endswith(".md")]
    assert len(pages) > 20
    for page in ["/docs/guides.md", *pages]:
        for link in LINK.findall(anonymous.get(page).text):
            assert anonymous.get(link.split("#", 1)[0]).status_code == 200, (page, link)


def test_every_link_of_llms_txt_and_of_the_introduction_answers(anonymous, document):
    links = set(LINK.findall(anonymous.get("/llms.txt").text)) | set(LINK.findall(document["info"]["description"]))
    assert len(links) > len(document["paths"])
    for link in sorted(links):
        assert anonymous.get(link, follow_redirects=True).status_code == 200, link


def _recorded_answers(document: dict, path: str) -> list:
    """Return the JSON answers recorded for the operations of ``path``, in the document's order
    of its methods (one operation's, or each of an account resource's in turn)."""
    examples = [example for example in load_examples().values() if example.operation == path]
    first = {id(e): next(i for i, m in enumerate(document["paths"][path]) if e.illustrates(m)) for e in examples}
    return [
        call.response
        for example in sorted(examples, key=lambda example: first[id(example)])
        for call in example.every
        if call.document is None
    ]


@pytest.mark.parametrize("path", sorted({example.operation for example in load_examples().values()}))
def test_an_operations_markdown_page_lists_its_parameters_and_its_recorded_call(anonymous, document, path):
    answer = anonymous.get(f"/docs/{page_name(path)}.md")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/markdown")
    page = answer.text
    operations = document["paths"][path]
    main = operations.get("get") or operations["post"]
    assert page.startswith(f"# {main['summary']}\n") and path in page
    for parameter in operations.get("get", {}).get("parameters", ()):
        assert f"| `{parameter['name']}` |" in page
    assert page.count("```") % 2 == 0
    shown = [json.loads(block) for block in FENCED_JSON.findall(page.split("## Example", 1)[1])]
    assert shown == _recorded_answers(document, path)
    assert "$CELESTIAL_BASE_URL" + path.split("{")[0] in page  # a path parameter shows the id it was sent
    assert not re.search(r"`(True|False|None)`", page)


@pytest.mark.parametrize(
    "path", [path for path, example in load_examples().items() if any(call.document for call in example.every)]
)
def test_every_link_of_a_page_with_document_examples_answers(anonymous, path):
    links = LINK.findall(anonymous.get(f"/docs/{page_name(path)}.md").text)
    assert links
    for link in links:
        assert anonymous.get(link).status_code == 200, link


def test_an_operations_page_is_named_after_its_api_path_and_its_former_name_redirects(anonymous, document):
    # Issue 36: /docs/natal-chart.md was 404 (the page was /docs/natal_chart.md).
    moved = 0
    for path in document["paths"]:
        # A path template's braces are left out: /v1/charts/{chart_id} is /docs/charts/chart_id.md.
        page = anonymous.get(f"/docs/{page_name(path)}.md")
        assert page.status_code == 200 and page.text.startswith("# "), path
        former = anonymous.get(f"/docs/{operation_name(path)}.md", follow_redirects=False)
        if operation_name(path) != page_name(path):
            moved += 1
            assert (former.status_code, former.headers["location"]) == (301, f"/docs/{page_name(path)}.md"), path
    assert moved >= 10  # natal-chart, eclipses/solar, void-of-course/periods ...
    assert (
        anonymous.get("/docs/natal-chart.md").text == anonymous.get("/docs/natal_chart.md", follow_redirects=True).text
    )


def test_an_unknown_page_is_404_with_the_error_body(anonymous):
    answer = anonymous.get("/docs/no_such_operation.md")
    assert answer.status_code == 404
    assert answer.json()["errors"][0]["code"] == "not_found"


@pytest.mark.parametrize("path", list(PASTES))
def test_every_operations_request_to_paste_is_answered_in_both_forms(api, document, path):
    """The curl lines an operation's description opens with, read as the shell reads them and
    sent: the GET with its query and, where the path takes both, the same parameters POSTed."""
    operations = document["paths"][path]
    shell = operations.get("get", operations.get("post"))["description"].split("```sh\n")[1].split("\n```")[0]
    sent = pasted_requests(shell)
    assert [method.lower() for method, _, _ in sent] == list(operations)
    for method, sent_path, params in sent:
        assert sent_path == path and params == PASTES[path]
        answer = api.get(path, params=params) if method == "GET" else api.post(path, json=params)
        assert answer.status_code == 200, (method, path, answer.text[:300])
