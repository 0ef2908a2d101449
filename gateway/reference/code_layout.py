"""Source code laid out within a width, as a formatter would (black's, prettier's): a bracketed
list is written on one line when it fits, else one item a line, indented one step, each
followed by a comma. /docs' code samples are laid out so (:mod:`gateway.reference.code_samples`)
so that the reference's code pane shows them without a horizontal scroll.

A piece of code is a tree of three kinds: :class:`Text` (never broken), :class:`Brackets` (a
list that may break) and :class:`Joined` (pieces written one after another).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Text:
    """Code written as it is, never broken (a name, a literal, an operator)."""

    text: str


@dataclass(frozen=True)
class Brackets:
    """``items`` between ``opening`` and ``closing``, separated by ", " on one line.

    ``padded`` writes a space inside the brackets on one line (``{ a: 1 }``); ``hugging``
    writes a single bracketed item against the brackets when they break
    (``f({`` ... ``})`` rather than ``f(`` / ``{`` ... ``},`` / ``)``).
    """

    opening: str
    items: tuple[Code, ...]
    closing: str
    padded: bool = False
    hugging: bool = False


@dataclass(frozen=True)
class Joined:
    """``parts`` written one after another (``name=`` then a value)."""

    parts: tuple[Code, ...]


Code = Text | Brackets | Joined


def one_line(code: Code) -> str:
    """Return ``code`` written on one line."""
    if isinstance(code, Text):
        return code.text
    if isinstance(code, Joined):
        return "".join(one_line(part) for part in code.parts)
    if not code.items:
        return code.opening + code.closing
    pad = " " if code.padded else ""
    return f"{code.opening}{pad}{', '.join(one_line(item) for item in code.items)}{pad}{code.closing}"


def laid_out(code: Code, width: int, step: int, indent: int = 0, column: int | None = None, after: int = 0) -> str:
    """Return ``code`` laid out so that each line holds at most ``width`` characters where a
    bracket can be broken: written from ``column`` (``indent`` by default) on a line indented
    ``indent`` spaces, with ``after`` characters still to follow it on its last line, nested
    lists indented ``step`` spaces more than their opening line."""
    start = indent if column is None else column
    flat = one_line(code)
    if isinstance(code, Text) or start + len(flat) + after <= width:
        return flat
    if isinstance(code, Joined):
        written = ""
        for number, part in enumerate(code.parts):
            rest = sum(len(one_line(later)) for later in code.parts[number + 1 :]) + after
            written += laid_out(part, width, step, indent, _column(written, start), rest)
        return written
    if code.hugging and len(code.items) == 1 and isinstance(code.items[0], Brackets):
        inner = laid_out(code.items[0], width, step, indent, start + len(code.opening), len(code.closing) + after)
        return code.opening + inner + code.closing
    inside = indent + step
    lines = "".join(" " * inside + laid_out(item, width, step, inside, inside, 1) + ",\n" for item in code.items)
    return f"{code.opening}\n{lines}{' ' * indent}{code.closing}"


def _column(written: str, start: int) -> int:
    """Return the column after ``written`` when it was begun at column ``start``."""
    return start + len(written) if "\n" not in written else len(written.rsplit("\n", 1)[1])
