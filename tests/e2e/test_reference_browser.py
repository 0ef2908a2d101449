"""The API reference at /docs in a real browser (Debian's chromium driven by Playwright) on
the real stack: every operation of /v1/openapi.json rendered, no raw Markdown, defaults as
JSON values, no console error, nothing asked of another host, each operation opening on our
Python client's call (the TypeScript one second) whole in its code pane, the clients'
installation lines in the introduction, "Try it" answering with the reader's key, and a guide
of /docs/guides opened from the introduction.

Screenshots go to ``var/test-output/reference/`` (the README's comes from there).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from deploy.local_stack import Stack
from gateway.reference.code_samples import SAMPLE_WIDTH
from tests.e2e.browser import screenshot_folder

SCREENSHOTS = screenshot_folder("reference")
#: How long one operation may take to render once scrolled to (Scalar renders them lazily).
RENDER_TIMEOUT_MS = 15_000
#: A laptop's screen in CSS pixels (1440 wide): the code pane holds SAMPLE_WIDTH columns from
#: this width up.
VIEWPORT = {"width": 1440, "height": 1000}

#: What Markdown looks like when a renderer printed it instead of formatting it: emphasis
#: markers, backticks, link syntax, a heading's hashes or a table's rule at a line's start.
RAW_MARKDOWN = re.compile(r"\*\*\S|`|\]\(|^#{1,6} |^\|?\s*-{3,}\s*\|", re.MULTILINE)


# The text a reader sees outside code blocks (a shell line may hold backticks or start a
# comment with "#"), in the element the selector names.
TEXT_OUTSIDE_CODE = (
    "selector => { const main = document.querySelector(selector).cloneNode(true); "
    "main.querySelectorAll('pre').forEach(pre => pre.remove()); return main.innerText; }"
)


# Scrolls to each operation in turn and waits until Scalar has replaced its placeholder.
RENDER_EVERY_OPERATION = """
async ([anchors, timeoutMs]) => {
  const missing = [];
  for (const anchor of anchors) {
    const element = document.querySelector(`[id$="${CSS.escape(anchor)}"]`);
    if (!element) { missing.push(anchor); continue; }
    element.scrollIntoView();
    const started = performance.now();
    while (element.dataset.placeholder === 'true') {
      if (performance.now() - started > timeoutMs) { missing.push(anchor); break; }
      await new Promise(resolve => requestAnimationFrame(resolve));
    }
  }
  return missing;
}
"""


class Reader:
    """A browser tab on /docs that records console errors and every request to another host
    (refused before it leaves the browser)."""

    def __init__(self, browser, stack: Stack):
        self.context = browser.new_context(viewport=VIEWPORT)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.foreign: list[str] = []
        origin = urlsplit(stack.base_url)[:2]
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

        def only_this_origin(route):
            if urlsplit(route.request.url)[:2] == origin or route.request.url.startswith("data:"):
                route.continue_()
            else:
                self.foreign.append(route.request.url)
                route.abort()

        self.context.route("**/*", only_this_origin)
        self.page.goto(stack.base_url + "/docs")
        self.page.locator("[data-sidebar-id$='/GET/v1/positions']").wait_for()

    def operation(self, method: str, path: str):
        return self.page.locator(f"[id$='/{method.upper()}{path}']").first

    def close(self) -> None:
        self.context.close()


@pytest.fixture(scope="module")
def reader(chromium, stack):
    """One tab for the tests that only read (loading the reference takes seconds)."""
    opened = Reader(chromium, stack)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def document(stack: Stack) -> dict:
    with stack.client() as client:
        return client.get("/v1/openapi.json").json()


def shown(document: dict) -> list[tuple[str, str, dict]]:
    """Return (path, method, operation) of each operation /docs shows: all but the POST of a
    path that also has a GET (``x-scalar-ignore``: its GET entry shows the POST form)."""
    return [
        (path, method, operation)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if not operation.get("x-scalar-ignore")
    ]


def test_the_reference_renders_every_operation_as_formatted_text_with_no_console_error(reader, document):
    page = reader.page
    page.screenshot(path=str(SCREENSHOTS / "introduction.png"))
    anchors = [f"/{method.upper()}{path}" for path, method, _ in shown(document)]
    assert len(anchors) > 40

    missing = page.evaluate(RENDER_EVERY_OPERATION, [anchors, RENDER_TIMEOUT_MS])

    assert missing == []
    for path, method, operation in shown(document):
        assert operation["summary"] in reader.operation(method, path).inner_text()
    text = page.evaluate(TEXT_OUTSIDE_CODE, "body")
    assert RAW_MARKDOWN.findall(text) == []
    assert reader.errors == [] and reader.foreign == []


# The distinct operations the sidebar lists (each entry's id ends in /<METHOD>/<path>).
SIDEBAR_OPERATIONS = """
() => [...new Set([...document.querySelectorAll('[data-sidebar-id]')]
  .map(entry => entry.dataset.sidebarId)
  .filter(id => /\\/(GET|POST|PUT|PATCH|DELETE)\\/v1\\//.test(id)))]
"""


def test_the_sidebar_lists_each_operation_once_get_and_post_as_one(reader, document):
    entries = reader.page.evaluate(SIDEBAR_OPERATIONS)
    paths = [re.sub(r"^.*/(GET|POST|PATCH|DELETE)(?=/v1/)", "", entry) for entry in entries]
    # A computation's GET and POST are one entry; a resource's operations (x-resource: the
    # stored charts' list, create, read, change, delete) are an entry each.
    expected = [
        path
        for path, operations in document["paths"].items()
        for _ in (operations if any(op.get("x-resource") for op in operations.values()) else [None])
    ]
    assert sorted(paths) == sorted(expected)


def test_an_operation_opens_with_what_it_answers_and_a_request_to_paste_in_local_time(reader, document):
    operation = reader.operation("get", "/v1/natal-chart")
    operation.scroll_into_view_if_needed()
    operation.locator("pre").first.wait_for()
    text = operation.inner_text()
    opening = document["paths"]["/v1/natal-chart"]["get"]["description"].split("\n\n")[0]
    assert text.index(opening) < text.index("-d datetime=1985-07-13T14:05 -d place=2988507") < text.index("Conventions")
    operation.evaluate("element => element.scrollIntoView({block: 'start'})")
    reader.page.wait_for_timeout(300)
    reader.page.screenshot(path=str(SCREENSHOTS / "natal-chart.png"))


# How a code pane shows its sample: the columns of its longest line, the columns it has room
# for left of its right padding (measured with that line's own characters), whether it scrolls.
CODE_PANE = """
pre => {
  const pane = pre.parentElement;
  const lines = [...pre.querySelectorAll('.line')].map(line => [line, line.textContent.trimEnd().length]);
  const [longest, columns] = lines.reduce((a, b) => (b[1] > a[1] ? b : a));
  const range = document.createRange();
  range.selectNodeContents(longest);
  const box = range.getBoundingClientRect();
  const right = pane.getBoundingClientRect().left + pane.clientWidth - parseFloat(getComputedStyle(pane).paddingRight);
  return {columns, room: (right - box.left) / (box.width / columns), scrolls: pane.scrollWidth > pane.clientWidth};
}
"""


def code_pane(reader: Reader, method: str, path: str):
    """Return the request card of an operation (its client picker and code pane), rendered."""
    operation = reader.operation(method, path)
    operation.scroll_into_view_if_needed()
    card = operation.locator(".request-card").first
    card.locator("pre").first.wait_for()
    return card


def test_an_operation_opens_on_our_python_clients_call_with_the_typescript_one_second(reader, document):
    path, method, operation = shown(document)[0]
    card = code_pane(reader, method, path)
    python, typescript = operation["x-codeSamples"]

    assert card.locator("pre").first.inner_text().strip() == python["source"].strip()
    picker = card.locator("[data-testid='client-picker']")
    assert picker.inner_text().strip() == python["label"]
    picker.click()
    options = reader.page.get_by_role("option")
    options.first.wait_for()
    listed = [options.nth(i).inner_text().strip() for i in range(2)]
    # Closed, unfocused and not hovered: the later tests' pictures show the pane at rest.
    reader.page.keyboard.press("Escape")
    reader.page.evaluate("() => document.activeElement && document.activeElement.blur()")
    reader.page.mouse.move(0, 0)
    assert listed == [python["label"], typescript["label"]]


def test_the_widest_sample_shows_whole_in_its_code_pane(reader, document):
    def widest_line(entry: tuple[str, str, dict]) -> int:
        return max(len(line) for line in entry[2]["x-codeSamples"][0]["source"].splitlines())

    path, method, operation = max(shown(document), key=widest_line)
    pane = code_pane(reader, method, path).locator("pre").first.evaluate(CODE_PANE)

    assert pane["columns"] == widest_line((path, method, operation)) <= SAMPLE_WIDTH
    assert pane["room"] >= SAMPLE_WIDTH and not pane["scrolls"]


def test_the_introduction_shows_the_lines_installing_our_clients(reader, document):
    clients = reader.page.locator(".scalar-reference-intro-clients").first
    clients.scroll_into_view_if_needed()
    text = clients.inner_text()
    installation = document["info"]["x-scalar-sdk-installation"]
    assert [line["lang"] for line in installation] == ["Python", "TypeScript"]
    assert all(line["lang"] in text for line in installation) and installation[0]["source"] in text
    assert "Shell" not in text  # not the generic clients' list


def test_the_introduction_teaches_the_first_call_as_formatted_text(reader):
    introduction = reader.page.locator("[id$='description/introduction']").first.inner_text()
    for heading in ("Authentication", "The first request", "Moments", "The envelope", "Errors", "Credits and limits"):
        assert reader.page.get_by_role("heading", name=heading).first.is_visible()
    assert RAW_MARKDOWN.findall(reader.page.evaluate(TEXT_OUTSIDE_CODE, "body")) == []
    assert "Authorization: Bearer" in reader.page.inner_text("body") and introduction


def test_defaults_show_as_json_values(reader):
    operation = reader.operation("get", "/v1/positions")
    operation.scroll_into_view_if_needed()
    labels = operation.locator("[aria-label^='Copy default value: ']")
    labels.first.wait_for(state="attached")
    defaults = [
        label.removeprefix("Copy default value: ")
        for label in (labels.nth(i).get_attribute("aria-label") for i in range(labels.count()))
    ]
    assert "true" in defaults and "false" in defaults and "planets" in defaults
    # The README's picture: the operation from its title, beside its recorded example.
    operation.evaluate("element => element.scrollIntoView({block: 'start'})")
    reader.page.wait_for_timeout(300)
    reader.page.screenshot(path=str(SCREENSHOTS / "positions.png"))
    assert not {"True", "False", "None"} & set(defaults)


def test_an_introduction_link_leads_to_its_operation(reader):
    reader.page.get_by_role("link", name="natal chart").first.click()
    reader.page.wait_for_function("() => location.hash.endsWith('/GET/v1/natal-chart')")
    assert reader.operation("get", "/v1/natal-chart").is_visible()


def test_a_guide_linked_from_the_introduction_opens_rendered_from_this_origin(reader, stack: Stack):
    page = reader.context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(stack.base_url + "/docs")
    # Followed by its address rather than clicked: where a renderer opens a link (this tab or
    # another) is its own choice, not what this test is about.
    link = page.locator("a[href='/docs/guides/errors']").first
    link.wait_for(state="attached")
    page.goto(stack.base_url + link.get_attribute("href"))

    assert page.get_by_role("heading", level=1).inner_text() == "Errors"
    assert RAW_MARKDOWN.findall(page.evaluate(TEXT_OUTSIDE_CODE, "main")) == []
    page.goto(stack.base_url + "/docs/guides/dashboard")
    pictures = page.locator("main img")
    assert pictures.count() == 2 and all(pictures.nth(i).evaluate("image => image.naturalWidth > 0") for i in range(2))
    page.screenshot(path=str(SCREENSHOTS / "guide-dashboard.png"))
    assert errors == [] and reader.foreign == []
    page.close()


def test_try_it_answers_with_the_readers_own_key(chromium, stack: Stack):
    _, key = stack.new_key(credits=100)
    reader = Reader(chromium, stack)
    page = reader.page
    page.get_by_placeholder("Token").first.fill(key)
    operation = reader.operation("get", "/v1/positions")
    operation.scroll_into_view_if_needed()
    operation.get_by_role("button", name="Test Request").first.click()
    dialog = page.get_by_role("dialog")
    row = dialog.locator("tr").filter(
        has=page.get_by_role("combobox", name="Key").filter(has_text=re.compile(r"^datetime$"))
    )
    value = row.get_by_role("combobox", name="Value")
    value.click()
    page.keyboard.press("Control+A")
    value.press_sequentially("2024-03-20T12:00:00Z")

    with page.expect_response(lambda response: urlsplit(response.url).path == "/v1/positions") as answer:
        dialog.get_by_role("button", name="Send").first.click()

    assert answer.value.status == 200 and answer.value.json()["meta"]["credits_used"] == 1
    assert answer.value.request.headers["authorization"] == f"Bearer {key}"
    dialog.get_by_text("200 OK").first.wait_for()
    page.screenshot(path=str(SCREENSHOTS / "try-it.png"))
    assert reader.errors == [] and reader.foreign == []
    reader.close()
