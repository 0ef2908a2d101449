"""The IETF ``RateLimit`` field (draft-ietf-httpapi-ratelimit-headers-11, section 4) as a
client reads it: how long to wait when a quota is used up.

The field is a Structured Field List (RFC 9651) of service limits, e.g.
``"minute";r=0;t=37``: ``r`` is what is left of a policy's quota, ``t`` the seconds within
which no more than that may be used. This module reads the part of the syntax the draft uses
(string or token names; integer, decimal, string, token, boolean and byte-sequence
parameters) and treats anything else as a malformed field, which the draft has a client
ignore. It imports nothing but the standard library, so it can be read and tested on its own.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable

_TOKEN_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ*")
_TOKEN_CHARS = _TOKEN_START | frozenset("0123456789!#$%&'+-.^_`|~:/")
_KEY_START = frozenset("abcdefghijklmnopqrstuvwxyz*")
_KEY_CHARS = _KEY_START | frozenset("0123456789_-.")


class MalformedField(ValueError):
    """A ``RateLimit`` value that is not a Structured Field List of the draft's items."""


def parse_rate_limit(value: str) -> list[tuple[str, dict[str, object]]]:
    """Return the service limits of a ``RateLimit`` value: (policy name, parameters) in order.
    Raises MalformedField on a syntax the draft does not allow."""
    reader = _Reader(value)
    items: list[tuple[str, dict[str, object]]] = []
    reader.skip(" ")
    if reader.done():
        return items
    while True:
        name = reader.bare_item()
        if not isinstance(name, str):
            raise MalformedField(f"A policy is named by a string or a token, not {name!r}.")
        items.append((name, reader.parameters()))
        reader.skip(" \t")
        if reader.done():
            return items
        reader.expect(",")
        reader.skip(" \t")
        if reader.done():
            raise MalformedField("A list ends after a comma.")


def exhausted_window_s(values: Iterable[str]) -> float | None:
    """Return the seconds to wait before a quota has room again: the longest ``t`` of a
    service limit whose ``r`` is 0, in the ``RateLimit`` field lines ``values``; None when
    no quota is used up, or the field is malformed (draft-11: a client ignores it then)."""
    windows: list[float] = []
    for value in values:
        try:
            limits = parse_rate_limit(value)
        except MalformedField:
            return None
        for _, parameters in limits:
            remaining, window = parameters.get("r"), parameters.get("t")
            if remaining == 0 and isinstance(window, int) and not isinstance(window, bool) and window >= 0:
                windows.append(float(window))
    return max(windows) if windows else None


class _Reader:
    """A cursor over a field value, reading the Structured Field grammar's pieces."""

    def __init__(self, text: str):
        self.text = text
        self.at = 0

    def done(self) -> bool:
        return self.at >= len(self.text)

    def peek(self) -> str:
        return self.text[self.at] if not self.done() else ""

    def skip(self, characters: str) -> None:
        while not self.done() and self.text[self.at] in characters:
            self.at += 1

    def expect(self, character: str) -> None:
        if self.peek() != character:
            raise MalformedField(f"Expected {character!r} at {self.at} in {self.text!r}.")
        self.at += 1

    def parameters(self) -> dict[str, object]:
        parameters: dict[str, object] = {}
        while self.peek() == ";":
            self.at += 1
            self.skip(" ")
            key = self.key()
            if self.peek() == "=":
                self.at += 1
                parameters[key] = self.bare_item()
            else:
                parameters[key] = True
        return parameters

    def key(self) -> str:
        if self.peek() not in _KEY_START or self.done():
            raise MalformedField(f"A parameter's key must start with a lowercase letter or '*' in {self.text!r}.")
        start = self.at
        while not self.done() and self.text[self.at] in _KEY_CHARS:
            self.at += 1
        return self.text[start : self.at]

    def bare_item(self) -> object:
        first = self.peek()
        if first == '"':
            return self.string()
        if first == "-" or first.isdigit():
            return self.number()
        if first == "?":
            self.at += 1
            flag = self.peek()
            if flag not in ("0", "1"):
                raise MalformedField(f"A boolean is ?0 or ?1 in {self.text!r}.")
            self.at += 1
            return flag == "1"
        if first == ":":
            end = self.text.find(":", self.at + 1)
            if end < 0:
                raise MalformedField(f"A byte sequence is not closed in {self.text!r}.")
            raw, self.at = self.text[self.at + 1 : end], end + 1
            try:
                return base64.b64decode(raw, validate=True)
            except (binascii.Error, ValueError):
                raise MalformedField(f"A byte sequence is base64 in {self.text!r}.") from None
        if first and first in _TOKEN_START:
            start = self.at
            while not self.done() and self.text[self.at] in _TOKEN_CHARS:
                self.at += 1
            return self.text[start : self.at]
        raise MalformedField(f"No item at {self.at} in {self.text!r}.")

    def string(self) -> str:
        self.at += 1
        out = []
        while not self.done():
            character = self.text[self.at]
            self.at += 1
            if character == "\\":
                escaped = self.peek()
                if escaped not in ('"', "\\"):
                    raise MalformedField(f"Only a quote or a backslash is escaped in {self.text!r}.")
                out.append(escaped)
                self.at += 1
            elif character == '"':
                return "".join(out)
            elif not 0x20 <= ord(character) <= 0x7E:
                raise MalformedField(f"A string holds printable ASCII only in {self.text!r}.")
            else:
                out.append(character)
        raise MalformedField(f"A string is not closed in {self.text!r}.")

    def number(self) -> int | float:
        start = self.at
        if self.peek() == "-":
            self.at += 1
        while not self.done() and (self.text[self.at].isdigit() or self.text[self.at] == "."):
            self.at += 1
        text = self.text[start : self.at]
        digits = text.lstrip("-")
        if not digits or digits.count(".") > 1 or digits.startswith(".") or digits.endswith("."):
            raise MalformedField(f"Not a number: {text!r} in {self.text!r}.")
        if "." in digits:
            whole, fraction = digits.split(".")
            if len(whole) > 12 or len(fraction) > 3:
                raise MalformedField(f"A decimal has at most 12 and 3 digits: {text!r}.")
            return float(text)
        if len(digits) > 15:
            raise MalformedField(f"An integer has at most 15 digits: {text!r}.")
        return int(text)
