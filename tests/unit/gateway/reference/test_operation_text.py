"""gateway/reference/operation_text.py: every operation's description opens with one sentence
saying what it answers and a request to paste in the local-time form; GET and POST of a path
are one entry of /docs' sidebar; no long parameter sentence repeats on one operation; and
every moment parameter says first how a clock time is read (``place`` or ``tz``)."""

from __future__ import annotations

import re

from celestial.v1 import options_pb2
from gateway.endpoints import discover_endpoints
from gateway.reference.openapi import build_openapi
from gateway.reference.operation_text import (
    LONGEST_REPEATABLE,
    PASTES,
    RESOURCE_PASTES,
    SENTENCE_END,
    opening_sentence,
    pasted_requests,
    say_once,
)
from shared.runtime.request_model import message_spec

DOCUMENT = build_openapi(discover_endpoints(), version="test")
OPERATIONS = [
    (path, method, operation) for path, methods in DOCUMENT["paths"].items() for method, operation in methods.items()
]
#: The longest opening sentence: one line of a reader's screen or two.
OPENING_WORDS = 30
FENCED_SHELL = re.compile(r"```sh\n(.*?)\n```", re.DOTALL)
LOCAL_TIME_PARAMETERS = ("place", "tz", "range_tz")


def parameter_names(operations: dict) -> set[str]:
    names = {p["name"] for p in operations.get("get", {}).get("parameters", ())}
    body = (
        operations.get("post", {})
        .get("requestBody", {})
        .get("content", {})
        .get("application/json", {})
        .get("schema", {})
    )
    return names | set(body.get("properties", ()))


def pasted_parameters(description: str) -> dict[str, str]:
    """Return the parameters the first request of a description's paste sends."""
    return pasted_requests(FENCED_SHELL.search(description).group(1))[0][2]


def test_every_operation_opens_with_one_sentence_saying_what_it_answers():
    for path, method, operation in OPERATIONS:
        opening = operation["description"].split("\n\n")[0]
        assert "\n" not in opening and opening.endswith("."), (path, method, opening)
        assert SENTENCE_END.search(opening) is None, (path, method, opening)
        assert len(opening.split()) <= OPENING_WORDS, (path, method, opening)


def test_the_opening_is_followed_by_a_request_to_paste_for_its_own_path():
    for path, method, operation in OPERATIONS:
        second = operation["description"].split("\n\n")[1]
        shell = FENCED_SHELL.fullmatch(second)
        assert shell, (path, method, second)
        assert shell.group(1).startswith("curl -s") and '-H "Authorization: Bearer $CELESTIAL_API_KEY"' in shell.group(
            1
        )
        # A path template's parameter is pasted as a value (/v1/charts/{chart_id}: an example id).
        template = re.compile(re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(path)))
        assert all(template.fullmatch(sent_path) for _, sent_path, _ in pasted_requests(shell.group(1))), (path, method)


def test_every_paste_names_only_parameters_its_operation_takes():
    for path, operations in DOCUMENT["paths"].items():
        if any(operation.get("x-resource") for operation in operations.values()):
            for method, operation in operations.items():
                _, sent = RESOURCE_PASTES[path, method]
                assert set(sent) <= parameter_names({method: operation}) | set(body_members(operation)), (path, method)
            continue
        assert set(PASTES[path]) <= parameter_names(operations) | {"requests"}, path
    assert set(PASTES) | {path for path, _ in RESOURCE_PASTES} == set(DOCUMENT["paths"])


def body_members(operation: dict) -> set[str]:
    """Return the members a resource operation's body takes (a stored chart's: its name and
    the birth and settings of /v1/natal-chart, each named)."""
    schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    return set(schema.get("properties", {}))


def test_a_paste_gives_its_moments_as_clock_times_with_place_or_tz_wherever_the_operation_takes_them():
    # A resource's operations (a stored chart's body takes place and tz) paste their own bodies.
    local = [
        path
        for path, operations in DOCUMENT["paths"].items()
        if {"place", "tz"} & parameter_names(operations)
        and not any(operation.get("x-resource") for operation in operations.values())
    ]
    assert len(local) >= 34
    for path in local:
        # A POST-only operation (/v1/explain-difference) pastes its body: its own description.
        only = DOCUMENT["paths"][path].get("get") or DOCUMENT["paths"][path]["post"]
        sent = {k: v for k, v in pasted_parameters(only["description"]).items() if isinstance(v, str)}
        assert set(LOCAL_TIME_PARAMETERS) & set(sent), path
        for name, value in sent.items():
            if re.match(r"\d{4}-\d\d-\d\dT", value):
                assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?", value), (
                    f"{path}: {name}={value} is not a clock time"
                )


def test_get_and_post_of_one_path_are_one_sidebar_entry_the_get_showing_the_post_form():
    entries = [(path, method) for path, method, operation in OPERATIONS if not operation.get("x-scalar-ignore")]
    # A resource's operations (x-resource: list, create, read, change, delete) are one entry each.
    resource = sum(
        len(ops) - 1 for ops in DOCUMENT["paths"].values() if any(op.get("x-resource") for op in ops.values())
    )
    assert len(entries) == len(DOCUMENT["paths"]) + resource
    for operations in DOCUMENT["paths"].values():
        if "get" in operations and "post" in operations and not operations["post"].get("x-resource"):
            assert operations["post"]["x-scalar-ignore"] is True
            assert [
                method
                for method, _, _ in pasted_requests(FENCED_SHELL.search(operations["get"]["description"]).group(1))
            ] == ["GET", "POST"]
            # Still in the document: the generated clients call both.
            assert operations["post"]["operationId"].startswith("post_")


def test_no_parameter_sentence_of_more_than_six_words_repeats_on_one_operation():
    for path, method, operation in OPERATIONS:
        seen: dict[str, str] = {}
        described = [(p["name"], p["schema"].get("description", "")) for p in operation.get("parameters", ())]
        body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
        described += [(name, schema.get("description", "")) for name, schema in body.get("properties", {}).items()]
        for name, text in described:
            for sentence in SENTENCE_END.split(text):
                if len(sentence.split()) > LONGEST_REPEATABLE:
                    assert sentence not in seen, f"{path} {method}: {name} repeats {seen.get(sentence)}'s {sentence!r}"
                    seen[sentence] = name


def test_a_paste_is_read_back_as_the_shell_reads_it():
    shell = (
        'curl -s -G "$CELESTIAL_BASE_URL/v1/x" \\\n  -H "A: b" \\\n  -d a=1 -d b=c,d\n# or POST:\ncurl -s '
        '"$CELESTIAL_BASE_URL/v1/x" -d \'{"a": "1"}\''
    )
    assert pasted_requests(shell) == [("GET", "/v1/x", {"a": "1", "b": "c,d"}), ("POST", "/v1/x", {"a": "1"})]


def test_a_repeated_long_sentence_becomes_a_pointer_to_the_first_parameter_saying_it():
    long = "A sentence of well over six words said by both."
    operation = {
        "parameters": [
            {"name": "a", "schema": {"description": f"Short one. {long}"}},
            {"name": "b", "schema": {"description": f"Own words. {long} {long}"}},
        ]
    }
    say_once(operation)
    assert [p["schema"]["description"] for p in operation["parameters"]] == [f"Short one. {long}", "Own words. As `a`."]


def test_the_opening_sentence_is_the_first_full_stop_of_the_first_paragraph_with_its_lines_joined():
    assert opening_sentence("What it\nanswers. More\nof it.\n\nCosts 1 credit.") == (
        "What it answers.",
        "More of it.\n\nCosts 1 credit.",
    )
    assert opening_sentence("No stop") == ("No stop.", "")


def moment_parameters(endpoint) -> list[str]:
    spec = message_spec(endpoint.request_cls.DESCRIPTOR)
    return [name for name, field in spec.fields.items() if field.rule.vocabulary == options_pb2.VOCABULARY_DATETIME]


def test_every_moment_parameter_says_first_that_a_clock_time_is_read_in_place_or_tz():
    checked = 0
    for endpoint in discover_endpoints():
        operation = DOCUMENT["paths"][endpoint.path].get("get")
        if operation is None:
            continue
        path = endpoint.path
        descriptions = {p["name"]: p["schema"].get("description", "") for p in operation["parameters"]}
        for name in moment_parameters(endpoint):
            text = descriptions[name]
            pointer = re.search(r"As `(\w+)`", text)
            if pointer and not re.search(r"\b(place|tz)\b", text):
                text = descriptions[pointer.group(1)]
            zone = re.search(r"\b(place|tz|range_tz)\b", text)
            assert zone and zone.start() < text.find("UTC"), (path, name, text)
            checked += 1
    assert checked >= 60
