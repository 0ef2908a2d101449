"""``make examples``: record, from a running stack, one request per operation and the answer
it really gets, into ``gateway/reference/docs_assets/examples/`` (see ``gateway/reference/examples.py``).

An operation's request is the one already recorded, when there is one (edit a file's
``request`` and run this again to change an example); a new operation's is made from its
descriptors: every required parameter, and the first member of every required one-of, with
the value :data:`SAMPLE_VALUES` gives its name, else its first allowed choice.

An operation whose answer has formats (``format``: ``/v1/chart-wheel``'s svg, png and json,
``/v1/calendar``'s json and ics) gets one more example per media type its default request does
not answer, named after its format: the default request with that ``format``, or the request
already recorded under that name.

The account's operations (``AccountService``: usage, the account, stored charts, webhooks) are
recorded as one life, in :data:`ACCOUNT_LIFE`'s order, on an account of their own: a chart
stored, read, renamed, listed and exported, a subscription made on it (to a local receiver,
which the stack's development mode lets a webhook reach on the loopback), read, paused,
listed, its secret rotated, a test delivery sent and the deliveries read, then both deleted;
then usage and the account. Each path parameter is the id the creation answered, so their
requests are :data:`ACCOUNT_LIFE`'s (edit it to change them), not the recorded ones.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from deploy.local_stack import start_stack, stop_stack
from deploy.webhook_receiver import Receiver
from gateway.batch import BATCH_PATH
from gateway.endpoints import account_operations, discover_endpoints
from gateway.reference.examples import (
    BODY_METHODS,
    EXAMPLE_NAME,
    JSON_MEDIA_TYPE,
    Document,
    Example,
    example_path,
    load_examples,
    write_example,
)
from gateway.reference.operation_text import BIRTH
from gateway.reference.status_openapi import STATUS_PATH
from shared.runtime.reply_rendering import text_media_type
from shared.runtime.request_model import message_spec

#: The value an example sends for a parameter of this name, in every operation that needs one:
#: a birth in London and another in Paris, a month of transits, the stars' brightest.
SAMPLE_VALUES: dict[str, str] = {
    "datetime": "1990-06-15T14:30:00Z",
    "lat": "51.5074",
    "lon": "-0.1278",
    "datetime_a": "1990-06-15T14:30:00Z",
    "lat_a": "51.5074",
    "lon_a": "-0.1278",
    "datetime_b": "1992-11-03T08:15:00Z",
    "lat_b": "48.8566",
    "lon_b": "2.3522",
    "target_datetime": "2024-06-15T00:00:00Z",
    "start": "2024-03-01T00:00:00Z",
    "end": "2024-04-01T00:00:00Z",
    "search_start": "2024-01-01T00:00:00Z",
    "system": "lahiri",
    "star": "sirius",
    "body": "venus",
    "sign": "aries",
}

#: The batch's example: two sub-requests, each another operation's recorded request.
BATCH_SUB_OPERATIONS = ("/v1/positions", "/v1/aspects")


#: The receiver's URL in ACCOUNT_LIFE's requests, replaced by the local receiver's own.
RECEIVER_URL = "{receiver}"


@dataclass(frozen=True)
class Step:
    """One call of the account's life: its method, path template and request (the query's
    parameters or the JSON body; ``{chart_id}`` in a value is the stored chart's id), and
    the format-like others recorded under a name in its example's ``more``."""

    method: str
    path: str
    request: dict[str, Any] = field(default_factory=dict)
    more: dict[str, dict[str, Any]] = field(default_factory=dict)


#: The account's life, in order: each account operation once (the creations first, so the
#: others name what they made; the deletions last), with stable, readable values.
ACCOUNT_LIFE: tuple[Step, ...] = (
    Step("POST", "/v1/charts", {"name": "Ada", **BIRTH}),
    Step("GET", "/v1/charts/{chart_id}"),
    Step("PATCH", "/v1/charts/{chart_id}", {"name": "Ada L."}),
    Step("GET", "/v1/charts", {"limit": "20"}, more={"export": {"export": "true"}}),
    Step(
        "POST",
        "/v1/webhooks",
        {"url": RECEIVER_URL, "events": ["lunation"], "chart": "{chart_id}", "lead_minutes": 60},
    ),
    Step("GET", "/v1/webhooks/{webhook_id}"),
    Step("PATCH", "/v1/webhooks/{webhook_id}", {"state": "paused"}),
    Step("GET", "/v1/webhooks"),
    Step("POST", "/v1/webhooks/{webhook_id}/rotate-secret"),
    Step("POST", "/v1/webhooks/{webhook_id}/test"),
    Step("GET", "/v1/webhooks/{webhook_id}/deliveries"),
    Step("DELETE", "/v1/webhooks/{webhook_id}"),
    Step("DELETE", "/v1/charts/{chart_id}"),
    Step("GET", "/v1/usage"),
    Step("GET", "/v1/account"),
)
#: The account the life is recorded on (what GET /v1/account answers).
ACCOUNT_NAME = "ada-example"
#: What the account computes before its life, so that its usage has a figure to show.
ACCOUNT_WARM_UP = "/v1/positions"
#: The ids a creation answers, by the path parameter that names them afterwards.
CREATED_IDS = {"/v1/charts": "chart_id", "/v1/webhooks": "webhook_id"}


#: The port the recording's receiver listens on when it is free, so that the webhook's url
#: reads the same from one recording to the next.
RECEIVER_PORT = 8765


def _receiver() -> Receiver:
    """Return the recording's receiver: on :data:`RECEIVER_PORT`, or a free port if it is taken."""
    try:
        return Receiver(port=RECEIVER_PORT)
    except OSError:
        return Receiver()


def paths_with_several_operations() -> set[str]:
    """Return the paths serving more than one account operation: their examples are keyed by
    method and path."""
    paths = [operation.path for operation in account_operations()]
    return {path for path in paths if paths.count(path) > 1}


def _filled(value: Any, ids: dict[str, str]) -> Any:
    """Return ``value`` with ``{chart_id}`` and the like replaced by the ids made so far."""
    if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
        return ids.get(value[1:-1], value)
    if isinstance(value, list):
        return [_filled(item, ids) for item in value]
    return value


def record_account_life(client, receiver_url: str) -> dict[str, Example]:
    """Return the examples of the account's operations, by key: :data:`ACCOUNT_LIFE` called in
    order through ``client``, each path parameter the id its creation answered."""
    several = paths_with_several_operations()
    ids = {"receiver": receiver_url}
    recorded = {}
    for step in ACCOUNT_LIFE:
        path_parameters = {name: ids[name] for name in CREATED_IDS.values() if "{" + name + "}" in step.path}
        url = step.path.format(**path_parameters)
        calls = []
        for name, request in {EXAMPLE_NAME: step.request, **step.more}.items():
            request = {member: _filled(value, ids) for member, value in request.items()}
            if step.method in BODY_METHODS:
                answer = client.request(step.method, url, json=request)
            else:
                answer = client.request(step.method, url, params=request)
            calls.append(
                replace(
                    recorded_answer(step.path, step.method, request, answer, name),
                    by_method=step.path in several,
                    path_parameters=path_parameters,
                )
            )
        example = replace(calls[0], more=tuple(calls[1:]))
        if step.method == "POST" and step.path in CREATED_IDS and example.status == 200:
            ids[CREATED_IDS[step.path]] = example.response["data"]["id"]
        recorded[example.key] = example
    return recorded


def starter_request(path: str) -> dict[str, str]:
    """Return the query parameters of a first example of the operation at ``path``."""
    endpoint = next(e for e in discover_endpoints() if e.path == path)
    spec = message_spec(endpoint.request_cls.DESCRIPTOR)
    names = [name for name, field in spec.fields.items() if field.rule.required]
    for members in spec.required_oneofs.values():
        names.append(next((m for m in members if m in SAMPLE_VALUES), members[0]))
    request = {}
    for name in names:
        choices = list(spec.fields[name].rule.choices)
        if name in SAMPLE_VALUES:
            request[name] = SAMPLE_VALUES[name]
        elif choices:
            request[name] = choices[0]
        else:
            raise SystemExit(
                f"{path} needs {name!r}: add it to SAMPLE_VALUES, or write the request into {example_path(path)}"
            )
    return request


def answer_formats(path: str) -> dict[str, str]:
    """Return the formats of the operation at ``path``'s answer, each ``format`` value's media
    type (``{"svg": "image/svg+xml", "png": "image/png", "json": "application/json"}``): the
    members of its union ``data``; none for an operation without ``format``."""
    endpoint = next(e for e in discover_endpoints() if e.path == path)
    choices = message_spec(endpoint.request_cls.DESCRIPTOR).fields.get("format")
    data = endpoint.response_cls.DESCRIPTOR.fields_by_name["data"].message_type
    if choices is None or data is None:
        return {}
    members = {fd.name: text_media_type(fd) or JSON_MEDIA_TYPE for fd in data.fields}
    return {name: members[name] for name in choices.rule.choices if name in members}


def recorded_answer(path: str, method: str, request: dict[str, Any], answer, name: str) -> Example:
    """Return the example of ``answer``, an httpx response to ``request``: its JSON, or the
    document it is (its Content-Type without parameters, its bytes)."""
    media_type = answer.headers.get("content-type", "").split(";")[0].strip()
    if media_type == JSON_MEDIA_TYPE:
        return Example(path, method, request, answer.status_code, answer.json(), name=name)
    return Example(path, method, request, answer.status_code, document=Document(media_type, answer.content), name=name)


def batch_request(examples: dict[str, Example]) -> dict[str, Any]:
    """Return the body of the batch's example, built from other operations' requests."""
    return {"requests": [{"endpoint": path, "params": examples[path].request} for path in BATCH_SUB_OPERATIONS]}


def record(base_url_client, paths: list[str], examples: dict[str, Example]) -> dict[str, Example]:
    """Return the examples of ``paths``, each the answer ``base_url_client`` got now."""
    recorded = dict(examples)
    for path in paths:
        if path in (BATCH_PATH, STATUS_PATH):
            continue
        request = examples[path].request if path in examples else starter_request(path)
        if next(e for e in discover_endpoints() if e.path == path).http.post_only:
            # A POST-only operation (/v1/explain-difference) takes its request as a JSON body.
            answer = base_url_client.post(path, json=request)
            recorded[path] = recorded_answer(path, "POST", request, answer, EXAMPLE_NAME)
            continue
        default = recorded_answer(path, "GET", request, base_url_client.get(path, params=request), EXAMPLE_NAME)
        kept = {other.name: other.request for other in examples[path].more} if path in examples else {}
        more = []
        for name, media_type in answer_formats(path).items():
            if media_type != default.media_type:
                other = kept.get(name, {**request, "format": name})
                more.append(recorded_answer(path, "GET", other, base_url_client.get(path, params=other), name))
        recorded[path] = replace(default, more=tuple(more))
    if BATCH_PATH in paths:
        body = examples[BATCH_PATH].request if BATCH_PATH in examples else batch_request(recorded)
        answer = base_url_client.post(BATCH_PATH, json=body)
        recorded[BATCH_PATH] = recorded_answer(BATCH_PATH, "POST", body, answer, EXAMPLE_NAME)
    if STATUS_PATH in paths:
        # Last: the figures of every request above that the gateway has flushed to its store.
        answer = base_url_client.get(STATUS_PATH)
        recorded[STATUS_PATH] = recorded_answer(STATUS_PATH, "GET", {}, answer, EXAMPLE_NAME)
    return recorded


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "operations", nargs="*", help="paths to record (default: every operation; 'account' for the account's life)"
    )
    args = parser.parse_args(argv)
    examples = load_examples()
    paths = args.operations or [e.path for e in discover_endpoints()] + [BATCH_PATH, STATUS_PATH, "account"]
    with tempfile.TemporaryDirectory() as tmp:
        stack = start_stack(Path(tmp))
        try:
            _, key = stack.new_key(credits=1_000_000)
            with stack.client(key) as client:
                recorded = record(client, [path for path in paths if path != "account"], examples)
            if "account" in paths:
                # An account of its own, so that its usage and balance show this life alone.
                stack.admin("account", "create", ACCOUNT_NAME, "--credits", "1000")
                key = stack.admin("key", "create", "--account", ACCOUNT_NAME, "--name", "example").stdout.strip()
                with stack.client(key) as client, _receiver() as receiver:
                    client.get(ACCOUNT_WARM_UP, params=examples[ACCOUNT_WARM_UP].request)
                    life = record_account_life(client, receiver.url)
                recorded.update(life)
                paths = [path for path in paths if path != "account"] + list(life)
        finally:
            stop_stack(stack)
    failed = []
    for path in paths:
        write_example(recorded[path])
        for example in recorded[path].every:
            print(f"{example.status} {example.media_type} {example.summary}", file=sys.stderr)
            if example.status != 200:
                failed.append(example.summary)
    if failed:
        print(f"not 200, fix their requests: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
