"""How each operation reads in the reference: its description opens with one sentence saying
what it answers and a request to paste, in the local-time form (a clock time with ``place``
or ``tz``); GET and POST of one path are one entry of /docs' sidebar; and a long sentence
is said once per operation, its other parameters pointing to the one that says it.

Applied to the OpenAPI document after it is built from the protos (the opening sentence is
the rpc comment's first; the pastes are :data:`PASTES`), so /docs, the Markdown pages, the
MCP tools and the generated clients read the same text.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

# Where the pastes send requests and with which key: the reader's own, named as the Markdown
# pages' curl lines name them.
from gateway.reference.operation_markdown import BASE_URL_VARIABLE, KEY_VARIABLE

#: A birth as a certificate gives it: a clock time and a town (Paris, GeoNames 2988507),
#: never converted to UTC by the reader.
BIRTH = {"datetime": "1985-07-13T14:05", "place": "2988507"}
#: A moment as a clock in Paris shows it, for the operations that take no town.
PARIS_CLOCK = {"datetime": "1985-07-13T14:05", "tz": "Europe/Paris"}
PARIS = {"lat": "48.8534", "lon": "2.3488"}
SECOND_BIRTH = {"datetime_b": "1988-02-29T23:40", "place_b": "2643743"}  # London
TWO_BIRTHS = {"datetime_a": BIRTH["datetime"], "place_a": BIRTH["place"], **SECOND_BIRTH}

#: Each operation's request to paste, as its parameters (query-string forms); every one
#: names its moments by clock time with ``place`` or ``tz`` where the operation takes one.
PASTES: dict[str, dict[str, str]] = {
    "/v1/positions": {**PARIS_CLOCK, "bodies": "sun,moon"},
    "/v1/houses": {**PARIS_CLOCK, **PARIS},
    "/v1/chart": {**PARIS_CLOCK, **PARIS},
    "/v1/aspects": PARIS_CLOCK,
    "/v1/natal-chart": BIRTH,
    "/v1/natal-chart/sensitivity": {**BIRTH, "window_hours": "2", "at": "2026-07-13T12:00"},
    "/v1/chart-wheel": {**BIRTH, "format": "svg"},
    "/v1/synastry": TWO_BIRTHS,
    "/v1/draconic": BIRTH,
    "/v1/davison": TWO_BIRTHS,
    "/v1/progressed": {**BIRTH, "target_datetime": "2026-07-13T12:00"},
    "/v1/directions": {**BIRTH, "target_datetime": "2026-07-13T12:00"},
    "/v1/composite": TWO_BIRTHS,
    "/v1/dignities": PARIS_CLOCK,
    "/v1/patterns": {**PARIS_CLOCK, **PARIS},
    "/v1/lots": {**PARIS_CLOCK, **PARIS},
    "/v1/midpoints": PARIS_CLOCK,
    "/v1/void-of-course": PARIS_CLOCK,
    "/v1/solar-proximity": PARIS_CLOCK,
    "/v1/ayanamsha": {**PARIS_CLOCK, "system": "lahiri"},
    "/v1/places": {"q": "paris", "limit": "3"},
    # tz=auto: the zone of the coordinates, as it stood then (British Double Summer Time).
    "/v1/timezone": {"datetime": "1944-06-06T08:00", "tz": "auto", "lat": "51.5085", "lon": "-0.1257"},
    "/v1/delta-t": PARIS_CLOCK,
    "/v1/sidereal-time": {**PARIS_CLOCK, "lon": PARIS["lon"]},
    "/v1/planetary-hours": {**PARIS_CLOCK, **PARIS},
    "/v1/stars": {**PARIS_CLOCK, "star": "sirius"},
    "/v1/profections": {**BIRTH, "at": "2026-07-13T12:00"},
    "/v1/zodiacal-releasing": {**BIRTH, "at": "2026-07-13T12:00"},
    "/v1/firdaria": {**BIRTH, "at": "2026-07-13T12:00"},
    # The birth in Paris, the range on New York's clock.
    "/v1/transits": {
        **BIRTH,
        "start": "2026-01-01T00:00",
        "end": "2026-02-01T00:00",
        "range_tz": "America/New_York",
        "bodies": "mars,jupiter,saturn",
    },
    "/v1/returns": {**PARIS_CLOCK, **PARIS, "body": "sun", "search_start": "2026-01-01T00:00"},
    "/v1/ingresses": {"datetime": "2026-01-01T00:00", "tz": "Europe/Paris", "body": "venus", "sign": "aries"},
    # The total eclipse of 12 August 2026, seen from Madrid.
    "/v1/eclipses/solar": {"datetime": "2026-01-01T00:00", "tz": "Europe/Madrid", "lat": "40.4168", "lon": "-3.7038"},
    "/v1/eclipses/lunar": {"datetime": "2026-01-01T00:00", "tz": "Europe/Paris", **PARIS},
    "/v1/heliacal": {
        "datetime": "2026-01-01T00:00",
        "tz": "Europe/Paris",
        **PARIS,
        "body": "venus",
        "event": "morning_first",
    },
    "/v1/stations": {"start": "2026-01-01T00:00", "end": "2026-07-01T00:00", "tz": "Europe/Paris", "bodies": "mercury"},
    "/v1/lunations": {"start": "2026-03-01T00:00", "end": "2026-04-01T00:00", "tz": "Europe/Paris"},
    "/v1/void-of-course/periods": {"start": "2026-03-01T00:00", "end": "2026-03-15T00:00", "tz": "Europe/Paris"},
    "/v1/calendar": {"start": "2026-04-01T00:00", "end": "2026-04-10T00:00", "tz": "Europe/Paris"},
    "/v1/astrocartography": {**PARIS_CLOCK, "bodies": "sun,moon", "latitude_step": "10"},
    "/v1/parans": {**BIRTH, "bodies": "sun,moon,venus", "stars": "Regulus,Spica"},
    "/v1/batch": {
        "requests": [
            {"endpoint": "/v1/natal-chart", "params": BIRTH},
            {"endpoint": "/v1/positions", "params": {**PARIS_CLOCK, "bodies": "sun,moon"}},
        ]
    },  # type: ignore[dict-item]
    "/v1/usage": {"start": "2026-01-01", "end": "2026-01-31"},
    "/v1/account": {},
    "/v1/status": {},
    "/v1/forecast": {
        **BIRTH,
        "start": "2026-07-01T00:00",
        "end": "2026-08-01T00:00",
        "kinds": "transit,lunation,eclipse",
    },
    "/v1/vedic/chart": {**BIRTH, "vargas": "D9"},
    "/v1/vedic/dasha": {**BIRTH, "at": "2026-07-13T12:00", "levels": "3"},
    "/v1/vedic/panchang": {"datetime": "2026-07-13T12:00", "place": BIRTH["place"]},
    "/v1/vedic/match": TWO_BIRTHS,
    "/v1/vedic/ashtakavarga": BIRTH,
    "/v1/vedic/shadbala": BIRTH,
    # The certificate's birth, and another program's numbers for it: those of its clock time
    # read without summer time (13:05 UTC), printed to the arcminute.
    "/v1/explain-difference": {
        **BIRTH,
        "theirs": {"positions": {"sun": 111.0667, "moon": 59.35}, "asc": 209.0, "mc": 127.55},
    },  # type: ignore[dict-item]
}

#: A stored chart's id as the pastes show one (POST /v1/charts answers the real one).
CHART_ID = "chart_6614c4f6d1a2b9e3c1f08"
#: A webhook subscription's id as the pastes show one (POST /v1/webhooks answers the real one).
WEBHOOK_ID = "wh_6614c4f6d1a2b9e3c1f08"
#: The pastes of a resource's operations (x-resource: /v1/charts), each method its own:
#: (the URL's path, its query or body).
RESOURCE_PASTES: dict[tuple[str, str], tuple[str, dict[str, str]]] = {
    ("/v1/charts", "get"): ("/v1/charts", {"limit": "20"}),
    ("/v1/charts", "post"): ("/v1/charts", {"name": "Ada", **BIRTH}),
    ("/v1/charts/{chart_id}", "get"): (f"/v1/charts/{CHART_ID}", {}),
    ("/v1/charts/{chart_id}", "patch"): (f"/v1/charts/{CHART_ID}", {"name": "Ada L."}),
    ("/v1/charts/{chart_id}", "delete"): (f"/v1/charts/{CHART_ID}", {}),
    ("/v1/webhooks", "get"): ("/v1/webhooks", {}),
    ("/v1/webhooks", "post"): (
        "/v1/webhooks",
        {
            "url": "https://app.example/hooks/celestial",
            "events": ["transit", "lunation"],
            "chart": CHART_ID,
            "lead_minutes": 60,
        },
    ),
    ("/v1/webhooks/{webhook_id}", "get"): (f"/v1/webhooks/{WEBHOOK_ID}", {}),
    ("/v1/webhooks/{webhook_id}", "patch"): (f"/v1/webhooks/{WEBHOOK_ID}", {"state": "paused"}),
    ("/v1/webhooks/{webhook_id}", "delete"): (f"/v1/webhooks/{WEBHOOK_ID}", {}),
    ("/v1/webhooks/{webhook_id}/rotate-secret", "post"): (f"/v1/webhooks/{WEBHOOK_ID}/rotate-secret", {}),
    ("/v1/webhooks/{webhook_id}/test", "post"): (f"/v1/webhooks/{WEBHOOK_ID}/test", {}),
    ("/v1/webhooks/{webhook_id}/deliveries", "get"): (f"/v1/webhooks/{WEBHOOK_ID}/deliveries", {}),
}

#: A sentence longer than this many words is said once per operation (shorter ones, such
#: as "Comma-separated list." or "The moment of birth.", label a parameter and may repeat).
LONGEST_REPEATABLE = 6

#: The end of a sentence: a full stop followed by whitespace.
SENTENCE_END = re.compile(r"(?<=\.)\s+")


def opening_sentence(description: str) -> tuple[str, str]:
    """Return the description's first sentence and the rest: the text up to the first full
    stop followed by whitespace, with its lines joined."""
    paragraph, _, later = description.partition("\n\n")
    first, _, rest = " ".join(paragraph.split()).partition(". ")
    rest = "\n\n".join(part for part in (rest, later) if part)
    return (first if first.endswith(".") else first + "."), rest


#: The widest line of a paste, in characters: what /docs' description column shows unscrolled.
LINE_WIDTH = 60


def curl_lines(path: str, method: str, post_too: bool) -> str:
    """Return the shell lines asking ``path`` for its paste: a GET with its parameters as
    ``-G -d name=value`` (and, with ``post_too``, the same parameters POSTed as JSON), or the
    POST of a body; lines continued with backslashes, each at most about :data:`LINE_WIDTH`
    characters (a JSON body stays on one line); a resource's operation (``RESOURCE_PASTES``)
    by its own method and URL."""
    auth = f'-H "Authorization: Bearer {KEY_VARIABLE}"'
    if (path, method) in RESOURCE_PASTES:
        shown, params = RESOURCE_PASTES[path, method]
        url = f'"{BASE_URL_VARIABLE}{shown}"'
        if method in ("patch", "delete"):
            verb = [f"curl -s -X {method.upper()} {url}", auth]
            return _continued(
                verb + (["-H 'Content-Type: application/json'", f"-d '{json.dumps(params)}'"] if params else [])
            )
    else:
        params = PASTES[path]
        url = f'"{BASE_URL_VARIABLE}{path}"'
    post = [f"curl -s {url}", auth, "-H 'Content-Type: application/json'", f"-d '{json.dumps(params)}'"]
    if method == "post":
        return _continued(post)
    get = [f"curl -s{' -G' if params else ''} {url}", auth]
    line = ""
    for name, value in params.items():
        pair = f"-d {name}={value}"
        if line and len(line) + 1 + len(pair) > LINE_WIDTH:
            get.append(line)
            line = ""
        line = f"{line} {pair}".strip()
    if line:
        get.append(line)
    if not post_too:
        return _continued(get)
    return f"{_continued(get)}\n# or POST the same parameters as JSON:\n{_continued(post)}"


def _continued(lines: list[str]) -> str:
    """Return one shell command written over ``lines``: each but the last ends with a
    backslash, each but the first is indented."""
    return " \\\n  ".join(lines)


def pasted_requests(shell: str) -> list[tuple[str, str, dict]]:
    """Return the requests the shell lines of a paste send, as the shell reads them: each
    ``(method, path, parameters)``, a GET's ``-d`` pairs as its query parameters, a POST's
    (or a ``-X PATCH``'s) ``-d`` as its JSON body."""
    requests = []
    for command in shell.replace("\\\n", " ").splitlines():
        words = shlex.split(command, comments=True)
        if not words:
            continue
        url = next(word for word in words if word.startswith(BASE_URL_VARIABLE))
        data = [words[i + 1] for i, word in enumerate(words) if word == "-d"]
        path = url[len(BASE_URL_VARIABLE) :]
        if "-X" in words:
            method = words[words.index("-X") + 1]
            requests.append((method, path, json.loads(data[0]) if data else {}))
        elif "-G" in words or not data:
            requests.append(("GET", path, dict(pair.split("=", 1) for pair in data)))
        else:
            requests.append(("POST", path, json.loads(data[0])))
    return requests


def say_once(operation: dict[str, Any]) -> None:
    """Rewrite the parameter descriptions of ``operation`` so that a sentence of more than
    :data:`LONGEST_REPEATABLE` words is said only by the first parameter that has it; each
    later one says "As `<that parameter>`." in its place."""
    said: dict[str, str] = {}
    for name, holder in _described(operation):
        sentences = SENTENCE_END.split(" ".join(holder["description"].split()))
        kept: list[str] = []
        for sentence in sentences:
            if len(sentence.split()) <= LONGEST_REPEATABLE:
                kept.append(sentence)
                continue
            first = said.setdefault(sentence, name)
            reference = f"As `{first}`."
            if first == name:
                kept.append(sentence)
            elif reference not in kept:
                kept.append(reference)
        holder["description"] = " ".join(kept)


def _described(operation: dict[str, Any]):
    """Yield (name, schema) of each described parameter of ``operation``: its query
    parameters, or its JSON body's top-level members."""
    for parameter in operation.get("parameters", ()):
        if parameter["schema"].get("description"):
            yield parameter["name"], parameter["schema"]
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    for name, schema in body.get("properties", {}).items():
        if schema.get("description"):
            yield name, schema


def reference_text(document: dict[str, Any]) -> dict[str, Any]:
    """Return ``document`` with every operation's description opening with what it answers
    and its paste, each long parameter sentence said once per operation, and the POST of a
    path that has a GET hidden from /docs' sidebar (``x-scalar-ignore``): the GET entry shows
    the POST form in its paste, and the POST stays in the document for clients."""
    for path, operations in document["paths"].items():
        # A resource's GET and POST are operations of their own (list, create): both stay.
        post_too = "get" in operations and "post" in operations and not operations["post"].get("x-resource")
        for method, operation in operations.items():
            first, rest = opening_sentence(operation.get("description", operation.get("summary", "")))
            shell = curl_lines(path, method, post_too and method == "get")
            operation["description"] = f"{first}\n\n```sh\n{shell}\n```" + (f"\n\n{rest}" if rest else "")
            say_once(operation)
            if post_too and method == "post":
                operation["x-scalar-ignore"] = True
    return document
