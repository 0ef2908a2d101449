"""/docs/guides: the README and every docs page served as HTML (no raw Markdown), under the
policy of /docs, each linked from the reference's introduction, every link and image answering."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from gateway.reference.routes import CONTENT_SECURITY_POLICY
from shared.runtime.config import REPO_ROOT

PAGES = sorted(path.stem for path in (REPO_ROOT / "docs").glob("*.md"))
ROUTES = ["/docs/guides"] + [f"/docs/guides/{page}" for page in PAGES]


class Page(HTMLParser):
    """The text a reader sees (outside code) and every link and image source of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.urls: list[str] = []
        self.ids: set[str] = set()
        self._in_code = 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self._in_code += tag in ("code", "pre")
        self.urls += [
            attributes[name] for name in ("href", "src") if attributes.get(name) and tag in ("a", "img", "link")
        ]
        if "id" in attributes:
            self.ids.add(attributes["id"])

    def handle_endtag(self, tag):
        self._in_code -= tag in ("code", "pre")

    def handle_data(self, data):
        if not self._in_code:
            self.text.append(data)


def read(client, route: str) -> Page:
    answer = client.get(route)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html"), route
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    page = Page()
    page.feed(answer.text)
    return page


@pytest.fixture(scope="module")
def anonymous(stack):
    with stack.client() as client:
        yield client


@pytest.mark.parametrize("route", ROUTES)
def test_each_guide_is_html_with_no_raw_markdown(anonymous, route):
    text = "".join(read(anonymous, route).text)
    for raw in ("**", "](", "```", "\n# ", "\n## ", "|---", "`"):
        assert raw not in text, f"{route} shows {raw!r}"


def test_every_link_and_image_of_every_guide_answers(anonymous):
    pages = {route: read(anonymous, route) for route in ROUTES}
    for route, page in pages.items():
        for url in page.urls:
            assert url, f"{route} has an empty link or image"
            if url.startswith(("http://", "https://", "data:")):
                continue
            path, _, fragment = (url if url.startswith("/") else f"{route}{url}").partition("#")
            assert anonymous.get(path).status_code == 200, f"{route} links {url}"
            if fragment and path in pages:
                assert fragment in pages[path].ids, f"{route} links {url}: no such heading"


def test_the_reference_introduction_links_every_guide(anonymous):
    introduction = anonymous.get("/v1/openapi.json").json()["info"]["description"]
    for route in ROUTES:
        assert f"]({route})" in introduction, route


def test_an_image_of_the_docs_is_served_and_other_files_are_not(anonymous):
    image = anonymous.get("/docs/guides/reference.png")
    assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    for missing in ("/docs/guides/astrocartography_map.py", "/docs/guides/nothing", "/docs/guides/..%2FLICENSE"):
        answer = anonymous.get(missing)
        assert answer.status_code == 404 and answer.json()["errors"][0]["code"] == "not_found", missing
