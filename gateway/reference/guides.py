"""The guides: README.md and docs/*.md, rendered to HTML once at start-up and served under
/docs/guides (the README at /docs/guides itself, ``docs/<page>.md`` at /docs/guides/<page>),
with the images they show, under the Content-Security-Policy of /docs; and each page's Markdown
at the same URL with ``.md`` appended (/docs/guides.md, /docs/guides/<page>.md), its links
rewritten to the other pages' Markdown, which the HTML names as its ``rel="alternate"
type="text/markdown"`` (llms.txt v2).

Rendered on the server with markdown-it-py (CommonMark, with GitHub's tables), so a page
reads without JavaScript, offline and from this origin alone. The Markdown stays written for
the repository: a relative link to another page, to the README or to an image under docs/ is
rewritten to its route here; a link to any other file of the repository (which a gateway
does not serve) keeps its text and loses its link. Headings get GitHub's anchors, so
``reliability.md#frozen-and-killed-processes`` lands on the same heading in both places.
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.token import Token
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from gateway.errors import with_error_body
from gateway.reference.llms_text import link_elements, link_field
from shared.errors import NotFound

GUIDES_PATH = "/docs/guides"
STYLESHEET_PATH = "/docs/assets/guides.css"
README = "README.md"
DOCS = "docs"
IMAGE_SUFFIXES = {".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg"}
MARKDOWN_SUFFIX = ".md"
# An inline link or image of the Markdown: its opening (text and bracket), its target, its close.
_INLINE_LINK = re.compile(r"(!?\[[^\]]*\]\()([^)\s]+)(\))")
_FENCED = re.compile(r"(^ *```.*?^ *```[^\n]*$)", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Guide:
    """One page: its name in the route ("" for the README), its title (the first heading),
    its Markdown source's path in the repository, and its HTML."""

    name: str
    title: str
    source: str
    html: str
    markdown: str = ""

    @property
    def url(self) -> str:
        """Return the page's route."""
        return f"{GUIDES_PATH}/{self.name}" if self.name else GUIDES_PATH

    @property
    def markdown_url(self) -> str:
        """Return the route of the page's Markdown: its route with ``.md`` appended."""
        return self.url + MARKDOWN_SUFFIX


def github_anchor(text: str) -> str:
    """Return the anchor GitHub gives a heading of this text: lowercase, punctuation dropped
    but for ``-`` and ``_``, spaces as ``-``.

    >>> github_anchor("Design notes: the NATS store")
    'design-notes-the-nats-store'
    """
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def served_url(source: str, target: str, pages: set[str], images: set[str]) -> str | None:
    """Return where a link of the Markdown file ``source`` (a path in the repository) to
    ``target`` leads on the gateway: unchanged when absolute or an anchor, the route of a
    page or an image, or None for a file of the repository the gateway does not serve.

    >>> served_url("README.md", "docs/limits.md#when-a-429-comes", {"limits"}, set())
    '/docs/guides/limits#when-a-429-comes'
    >>> served_url("docs/batch.md", "../README.md", set(), set())
    '/docs/guides'
    >>> served_url("docs/batch.md", "../LICENSE", set(), set()) is None
    True
    """
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or target.startswith(("/", "#")):
        return target
    fragment = f"#{parts.fragment}" if parts.fragment else ""
    path = posixpath.normpath(posixpath.join(posixpath.dirname(source), parts.path))
    if path == README:
        return GUIDES_PATH + fragment
    folder, name = posixpath.split(path)
    stem, suffix = posixpath.splitext(name)
    if folder == DOCS and suffix == ".md" and stem in pages:
        return f"{GUIDES_PATH}/{stem}{fragment}"
    if folder == DOCS and name in images:
        return f"{GUIDES_PATH}/{name}"
    return None


def markdown_url(source: str, target: str, pages: set[str], images: set[str]) -> str | None:
    """Return where a link of ``source`` to ``target`` leads from the Markdown of the pages:
    :func:`served_url`, with a page's route made its Markdown's (``.md`` appended).

    >>> markdown_url("README.md", "docs/limits.md#when-a-429-comes", {"limits"}, set())
    '/docs/guides/limits.md#when-a-429-comes'
    >>> markdown_url("docs/charts.md", "dashboard-keys.png", set(), {"dashboard-keys.png"})
    '/docs/guides/dashboard-keys.png'
    """
    url = served_url(source, target, pages, images)
    if url is None or not url.startswith(GUIDES_PATH) or posixpath.basename(urlsplit(url).path) in images:
        return url
    route, hash_mark, fragment = url.partition("#")
    return route + MARKDOWN_SUFFIX + hash_mark + fragment


def markdown_text(markdown_source: str, source: str, pages: set[str], images: set[str]) -> str:
    """Return a page's Markdown as served: each relative link and image outside code blocks
    sent to its route (:func:`markdown_url`); one to a file the gateway does not serve keeps its
    text and loses its link."""

    def rewritten(match: re.Match) -> str:
        opening, target, close = match.groups()
        url = markdown_url(source, target, pages, images)
        return opening[opening.startswith("!") + 1 : -2] if url is None else f"{opening}{url}{close}"

    # The fenced code blocks (every other part of the split) stay as they are.
    parts = _FENCED.split(markdown_source)
    return "".join(part if index % 2 else _INLINE_LINK.sub(rewritten, part) for index, part in enumerate(parts))


def _renderer() -> MarkdownIt:
    """Return the Markdown renderer of the guides: CommonMark with GitHub's tables, and raw
    HTML in the Markdown shown as text (the pages carry no markup of their own)."""
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _plain_text(inline: Token) -> str:
    """Return the text of an inline token as a reader sees it (no backticks, no emphasis)."""
    return "".join(child.content for child in inline.children or () if child.type in ("text", "code_inline"))


def _rewrite(tokens: list[Token], source: str, pages: set[str], images: set[str]) -> None:
    """Give headings their anchors and send every link and image to its route, in place."""
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            token.attrSet("id", github_anchor(_plain_text(tokens[index + 1])))
        for child in token.children or ():
            if child.type == "image":
                url = served_url(source, child.attrGet("src") or "", pages, images)
                if url is None:
                    # A picture the gateway does not serve: its alternative text stays.
                    child.type, child.tag, child.attrs, child.children = "text", "", {}, None
                else:
                    child.attrSet("src", url)
            elif child.type == "link_open":
                url = served_url(source, child.attrGet("href") or "", pages, images)
                if url is None:
                    # A file of the repository: its text stays, as text.
                    child.type, child.tag, child.attrs = "span_open", "span", {}
                else:
                    child.attrSet("href", url)
        if token.children:
            _close_unlinked(token.children)


def _close_unlinked(children: list[Token]) -> None:
    """Turn the closing tag of each link made a span back into a span's."""
    opened: list[str] = []
    for child in children:
        if child.type in ("link_open", "span_open"):
            opened.append(child.type)
        elif child.type == "link_close" and opened.pop() == "span_open":
            child.type, child.tag = "span_close", "span"


def render_guide(markdown_text: str, source: str, pages: set[str], images: set[str]) -> tuple[str, str]:
    """Return the title (the first heading's text) and the HTML body of one page."""
    md = _renderer()
    tokens = md.parse(markdown_text)
    _rewrite(tokens, source, pages, images)
    titles = [_plain_text(tokens[i + 1]) for i, t in enumerate(tokens) if t.type == "heading_open"]
    return (titles[0] if titles else source), md.renderer.render(tokens, md.options, {})


def load_guides(root: Path) -> tuple[dict[str, Guide], dict[str, Path]]:
    """Return the pages under ``root`` (README.md and docs/*.md) by name, the README first and
    the others in the order its "Read on" links them (then any it does not link), and the
    images of docs/ by file name; both empty where ``root`` has no README (an install without
    them)."""
    if not (root / README).is_file():
        return {}, {}
    readme = (root / README).read_text()
    pages = {path.stem for path in (root / DOCS).glob("*.md")}
    # The README's "Read on" section orders the pages by reader; the whole README when it has none.
    linked = [m.group(1) for m in re.finditer(r"\]\(docs/([\w-]+)\.md[)#]", readme.split("## Read on", 1)[-1])]
    order = [""] + list(dict.fromkeys(name for name in linked if name in pages)) + sorted(pages - set(linked))
    images = {path.name: path for path in sorted((root / DOCS).iterdir()) if path.suffix in IMAGE_SUFFIXES}
    guides = {}
    for name in order:
        source = f"{DOCS}/{name}.md" if name else README
        text = (root / source).read_text()
        title, body = render_guide(text, source, pages, set(images))
        guides[name] = Guide(name, title, source, body, markdown_text(text, source, pages, set(images)))
    return guides, images


def guide_page(guide: Guide, guides: dict[str, Guide]) -> str:
    """Return the whole HTML page of ``guide``, with a list of every page beside it."""
    esc = html.escape
    index = "".join(
        f"<li><a href='{esc(other.url)}'{' aria-current=page' if other is guide else ''}>{esc(other.title)}</a></li>"
        for other in guides.values()
    )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        "<link rel='icon' href='data:,'>"
        f"<link rel='stylesheet' href='{STYLESHEET_PATH}'>"
        # llms.txt v2: the index that covers this page and the page's Markdown, for an agent.
        f"{link_elements(guide.markdown_url)}"
        f"<title>{esc(guide.title)} - Celestial</title></head><body>"
        "<nav aria-label='Guides'><p><a href='/docs'>API reference</a></p>"
        f"<ul>{index}</ul></nav>"
        f"<main>{guide.html}</main>"
        "</body></html>"
    )


def guide_routes(guides: dict[str, Guide], images: dict[str, Path], content_security_policy: str) -> list[BaseRoute]:
    """Return the routes of ``guides`` and ``images`` (from :func:`load_guides`), every page
    written once, here."""
    pages = {name: guide_page(guide, guides).encode() for name, guide in guides.items()}
    markdown = {name: guide.markdown.encode() for name, guide in guides.items()}
    security = {"Content-Security-Policy": content_security_policy}

    def served(name: str) -> Response:
        if name.endswith(MARKDOWN_SUFFIX) and name.removesuffix(MARKDOWN_SUFFIX) in markdown:
            return Response(
                markdown[name.removesuffix(MARKDOWN_SUFFIX)],
                media_type="text/markdown; charset=utf-8",
                headers={"Link": link_field()},
            )
        if name not in pages:
            raise NotFound(f"No guide {name}.", suggestion=f"{GUIDES_PATH} lists every guide.")
        return HTMLResponse(pages[name], headers={**security, "Link": link_field(guides[name].markdown_url)})

    @with_error_body
    async def index(request: Request) -> Response:
        if "" not in pages:
            raise NotFound(
                "The guides are not installed beside this gateway.", suggestion="/docs is the API reference."
            )
        return served(MARKDOWN_SUFFIX if request.url.path.endswith(MARKDOWN_SUFFIX) else "")

    @with_error_body
    async def page(request: Request) -> Response:
        name = request.path_params["page"]
        if name in images:
            return FileResponse(images[name], media_type=IMAGE_SUFFIXES[images[name].suffix])
        return served(name)

    # The Markdown routes come before the reference's /docs/{page}.md (gateway/app.py).
    return [
        Route(GUIDES_PATH, index, methods=["GET"]),
        Route(GUIDES_PATH + MARKDOWN_SUFFIX, index, methods=["GET"]),
        Route(GUIDES_PATH + "/{page}", page, methods=["GET"]),
    ]


def guide_markdown_links(guides: dict[str, Guide]) -> list[tuple[str, str]]:
    """Return ``(title, URL of its Markdown)`` of every guide, the README first, in reading
    order, for /llms.txt."""
    return [(guide.title, guide.markdown_url) for guide in guides.values()]


def guide_links(guides: dict[str, Guide]) -> list[tuple[str, str]]:
    """Return ``(title, route)`` of every guide but the README, in reading order, for the
    reference's introduction."""
    return [(guide.title, guide.url) for guide in guides.values() if guide.name]
