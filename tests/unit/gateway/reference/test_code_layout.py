"""gateway/reference/code_layout.py: code is written on one line when it fits the width, else
each bracketed list one item a line, indented one step, each followed by a comma."""

from __future__ import annotations

from gateway.reference.code_layout import Brackets, Joined, Text, laid_out, one_line

CALL = Joined((Text("f"), Brackets("(", (Text("alpha=1"), Text("beta=2")), ")")))


def test_code_that_fits_is_written_on_one_line():
    assert laid_out(CALL, width=len("f(alpha=1, beta=2)"), step=4) == "f(alpha=1, beta=2)"


def test_code_too_wide_takes_one_item_a_line_each_followed_by_a_comma():
    assert laid_out(CALL, width=10, step=4) == "f(\n    alpha=1,\n    beta=2,\n)"


def test_what_follows_on_the_last_line_counts_toward_the_width():
    assert "\n" in laid_out(CALL, width=len("f(alpha=1, beta=2)"), step=4, after=1)


def test_only_the_outer_list_breaks_when_its_items_then_fit():
    nested = Brackets("[", (Brackets("[", (Text("1"), Text("2")), "]"), Text("3")), "]")
    assert laid_out(nested, width=9, step=2) == "[\n  [1, 2],\n  3,\n]"


def test_a_padded_list_has_spaces_inside_its_brackets_on_one_line():
    members = Brackets("{", (Text("a: 1"),), "}", padded=True)
    assert one_line(members) == "{ a: 1 }" and one_line(Brackets("{", (), "}", padded=True)) == "{}"


def test_a_hugging_call_writes_its_single_list_against_its_brackets():
    call = Joined((Text("f"), Brackets("(", (Brackets("{", (Text("a: 1"), Text("b: 2")), "}"),), ")", hugging=True)))
    assert laid_out(call, width=8, step=2) == "f({\n  a: 1,\n  b: 2,\n})"


def test_nested_lists_indent_one_step_from_the_line_they_open_on():
    body = Joined(
        (Text("x = "), Brackets("{", (Joined((Text("k: "), Brackets("[", (Text("1"), Text("2")), "]"))),), "}"))
    )
    assert (
        laid_out(body, width=6, step=4, indent=4)
        == "x = {\n        k: [\n            1,\n            2,\n        ],\n    }"
    )
