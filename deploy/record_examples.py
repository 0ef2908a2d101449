"""``make examples``: record, from a running stack, one request per operation and the answer
it really gets, into ``gateway/reference/docs_assets/examples/`` (see ``gateway/reference/examples.py``).

An operation's request is the one already recorded, when there is one (edit a file's
``request`` and run this again to change an example); a new operation's is made from its
descriptors: every required parameter, and the first member of every required one-of, with
the value :data:`SAMPLE_VALUES` gives its name, else its first allowed choice.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from deploy.local_stack import start_stack, stop_stack
from gateway.batch import BATCH_PATH
from gateway.endpoints import discover_endpoints
from gateway.reference.examples import Example, example_path, example_record, load_examples
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
            raise SystemExit(f"{path} needs {name!r}: add it to SAMPLE_VALUES, or write the request into {example_path(path)}")
    return request


def batch_request(examples: dict[str, Example]) -> dict[str, Any]:
    """Return the body of the batch's example, built from other operations' requests."""
    return {"requests": [{"endpoint": path, "params": examples[path].request} for path in BATCH_SUB_OPERATIONS]}


def record(base_url_client, paths: list[str], examples: dict[str, Example]) -> dict[str, Example]:
    """Return the examples of ``paths``, each the answer ``base_url_client`` got now."""
    recorded = dict(examples)
    for path in paths:
        if path == BATCH_PATH:
            continue
        request = examples[path].request if path in examples else starter_request(path)
        answer = base_url_client.get(path, params=request)
        recorded[path] = Example(path, "GET", request, answer.status_code, answer.json())
    if BATCH_PATH in paths:
        body = examples[BATCH_PATH].request if BATCH_PATH in examples else batch_request(recorded)
        answer = base_url_client.post(BATCH_PATH, json=body)
        recorded[BATCH_PATH] = Example(BATCH_PATH, "POST", body, answer.status_code, answer.json())
    return recorded


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("operations", nargs="*", help="paths to record (default: every operation)")
    args = parser.parse_args(argv)
    examples = load_examples()
    paths = args.operations or [e.path for e in discover_endpoints()] + [BATCH_PATH]
    with tempfile.TemporaryDirectory() as tmp:
        stack = start_stack(Path(tmp))
        try:
            _, key = stack.new_key(credits=1_000_000)
            with stack.client(key) as client:
                recorded = record(client, paths, examples)
        finally:
            stop_stack(stack)
    failed = []
    for path in paths:
        example = recorded[path]
        example_path(path).write_bytes(example_record(example))
        print(f"{example.status} {example.summary}", file=sys.stderr)
        if example.status != 200:
            failed.append(path)
    if failed:
        print(f"not 200, fix their requests: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
