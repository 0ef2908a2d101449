"""The introduction of the API reference: the Markdown of the OpenAPI document's
``info.description``, which /docs renders above the operations and /llms.txt quotes.

It teaches what a developer needs before the first call (authentication, the first request,
the envelope and the errors, credits and limits, moments); each operation's own page carries
the rest. Links into the operations use :func:`operation_link`, so they follow the renderer's
anchors.
"""

from __future__ import annotations

from collections.abc import Sequence

from kernel.timescale import SUPPORTED_SPAN_TEXT


def operation_link(path: str, method: str = "get") -> str:
    """Return the /docs anchor of one operation, ``#<tag>/<METHOD><path>`` minus the tag:
    Scalar's anchor for an operation is ``#tag/<tag>/<METHOD><path>``, and the tag is the
    service name, which a path does not carry; the reference page's script resolves
    ``#op/<METHOD><path>`` to the operation's own anchor."""
    return f"#op/{method.upper()}{path}"


INTRODUCTION = f"""\
Celestial computes planetary positions, houses, charts and aspects, time-lord periods,
transit scans, eclipses, heliacal events and astrocartography lines, with the Swiss
Ephemeris, over HTTP and JSON. Times are local: send a clock time as written with its town
(`place`, an id from /v1/places) or its zone (`tz`), never converted to UTC yourself. Every
request is billed in credits.

Also here: [the OpenAPI document](/v1/openapi.json) (OpenAPI 3.1), [llms.txt](/llms.txt)
(a Markdown index for language models), and each operation in Markdown at
`/docs/<path>.md`, its API path after `/v1/` (for example
[natal-chart.md](/docs/natal-chart.md) for `/v1/natal-chart`).

## Authentication

Every `/v1` request needs an API key, in either header:

```http
Authorization: Bearer svc_live_...
X-API-Key: svc_live_...
```

When both are sent, `Authorization` wins. A missing, malformed, unknown, expired or revoked
key is `401 invalid_api_key`. An account's owner makes keys in the [dashboard](/dashboard/)
(the operator with `celestial-admin key create`); `make run` prints a development key. To try a call on this page,
paste your key into the **Authentication** box of any operation: it stays in this browser
and is sent only to this API.

A key may be restricted to browser origins: origins are compared exactly, as whole
strings. A browser-only key without an `Origin` header is `403 origin_required`, an origin
not listed `403 origin_not_allowed`. Revocation and origin changes reach every gateway within
about a second.

## The first request

Times are local: send the clock time as written, without an offset, with `place` (a town's
id from [/v1/places]({operation_link("/v1/places")}): its coordinates and its zone) or `tz`
(an IANA zone, `Europe/Paris`). Never convert it to UTC yourself: the API applies the zone's
whole history (daylight saving time, wartime, local mean time) and `meta.moment` says how it
read each time.

```sh
curl -s -H "Authorization: Bearer $KEY" \\
  'http://127.0.0.1:8080/v1/places?q=paris&limit=1'
curl -s -H "Authorization: Bearer $KEY" \\
  'http://127.0.0.1:8080/v1/natal-chart?datetime=1985-07-13T14:05&place=2988507'
curl -s -H "Authorization: Bearer $KEY" \\
  'http://127.0.0.1:8080/v1/positions?datetime=2024-03-20T13:00&tz=Europe/Paris&bodies=sun,moon'
```

`GET` takes the parameters in the query string; `POST` takes the same names in a JSON object
body, as native JSON values or in their query-string forms:

```sh
curl -s -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
  -d '{{"datetime": "2024-03-20T13:00", "tz": "Europe/Paris", "bodies": ["sun", "moon"]}}' \\
  http://127.0.0.1:8080/v1/positions
```

Every operation below shows a request and the answer it really gets (recorded from a running
stack, and replayed by the tests so it cannot drift). Start with
[positions]({operation_link("/v1/positions")}), [natal chart]({operation_link("/v1/natal-chart")}),
[transits]({operation_link("/v1/transits")}) or [batch]({operation_link("/v1/batch", "post")}).

Parameter rules that hold everywhere:

- Booleans are `true`/`false` or `1`/`0`.
- Numbers are written as JSON writes them: no `+`, `_`, whitespace, hexadecimal, `inf` or
  `nan`; ASCII digits only. An integer outside its range is `400 invalid_parameter` naming
  the parameter and the range.
- Lists are comma-separated (`bodies=sun,moon`) or JSON arrays in a body. A list given twice
  in a query string is concatenated; a scalar given twice is `400`, and so is a JSON object
  that names a member twice.
- An unknown parameter is `400 invalid_parameter` naming it and listing the accepted ones; a
  calculation flag an endpoint does not implement is refused the same way, never ignored.

## Moments

A moment is a clock time with its place: `datetime` without an offset, read in the zone of
`place` (a town's id from /v1/places, which also gives the coordinates) or of `tz` (an IANA
zone name; `auto` for the zone at `lat` and `lon`). The civil time there on that date is
taken from the tz database (local mean time, wartime, daylight saving time), and
`meta.moment` says how each moment was read:

```sh
curl -s -H "Authorization: Bearer $KEY" \
  'http://127.0.0.1:8080/v1/natal-chart?datetime=1943-01-15T09:20:00&tz=America/New_York&lat=40.71&lon=-74.0'
```

The two-person operations take `place_a`/`tz_a` and `place_b`/`tz_b`. Besides that form, a
moment may be an instant:

| parameter | form | example |
|---|---|---|
| `datetime` | ISO 8601 with an offset (`Z`, `+02:00`); without offset, `place` or `tz`, UTC | `2024-03-20T12:00:00Z` |
| `jd` | Julian Day, UT1 | `2460390.0` |

Sending both is `400 conflicting_parameters`, neither `400 missing_parameter`. A time the clocks skipped is
`400 nonexistent_local_time`; one they showed twice is `400 ambiguous_local_time` unless
`fold=0` or `fold=1` chooses. Moments run
from {SUPPORTED_SPAN_TEXT} (JD 625000.5 to 2816787.5). Operations with several moments use
suffixed names (`datetime_a`/`jd_a`, `start`/`start_jd`, `at`/`at_jd`, ...). Every instant in
an answer is `{{"jd": ..., "datetime": ...}}`: the UT1 Julian Day and the same instant as ISO
8601 UTC with milliseconds. Outside 1200-2999 CE the planets and the Moon use the Moshier
ephemeris with an `ephemeris_fallback` warning; asteroids there are `400 out_of_range`.

## The envelope

A success is `200` with:

```json
{{
  "data": "... the operation's result ...",
  "meta": {{
    "request_id": "908ebd25...",
    "credits_used": 1,
    "credits_remaining": 999999,
    "computation_ms": 3.8,
    "version": {{"api": "v1", "build": "0.1.0", "engine": "Swiss Ephemeris 2.10.03", "tz": "2026f"}}
  }},
  "warnings": ["present only when the engine degraded the result"]
}}
```

Every response carries `X-Request-Id` (yours, when you send a short printable one): quote it
when you report a problem.

## Errors

Every error has one shape, whatever its status:

```json
{{
  "errors": [
    {{
      "code": "body_not_found",
      "message": "Unknown body 'plutoo' in bodies. Valid names: sun, moon, mercury, ...",
      "suggestion": "Did you mean 'pluto'? Use a body name such as sun, moon, mean_node, chiron, or a group: planets, asteroids, all.",
      "param": "bodies"
    }}
  ],
  "meta": {{"request_id": "..."}}
}}
```

`code` is stable and machine-readable, `message` says what went wrong, `suggestion` what to
do next, and `param` names the parameter at fault when there is one.

| status | codes | what to do |
|---|---|---|
| 400 | `invalid_parameter`, `missing_parameter`, `conflicting_parameters`, `invalid_datetime`, `invalid_body`, `body_not_found`, `body_not_eligible`, `out_of_range` | Fix the request as the suggestion says; retrying it unchanged fails again. |
| 401 | `invalid_api_key` | Send a valid, active key. |
| 402 | `insufficient_credits`, `spend_cap_reached` | Top up the account, or wait for the spend cap's `resets_at` (or raise the cap); the request cost nothing. |
| 403 | `origin_not_allowed`, `origin_required` | Call from an allowed origin, or use a server-side key. |
| 413 | `payload_too_large` | Send a smaller body. |
| 429 | `rate_limit_exceeded`, `too_many_concurrent_requests` | Wait `Retry-After` seconds, then retry; send fewer requests at once. |
| 500 | `internal_error` | A bug: report the request id. |
| 503 | `service_unavailable` | Wait `Retry-After` seconds, then retry. |
| 504 | `deadline_exceeded` | Narrow a scan's range, or retry later. |

## Credits and limits

Each operation's cost is given on its page (and as `x-credits` in the OpenAPI document). Only
a `2xx` answer costs credits: every error is refunded. A balance that cannot cover the cost
is `402 insufficient_credits`; one that would pass a spend cap of the account or the key (per
UTC day or month, set by its owners) is `402 spend_cap_reached`, whose error names the cap,
what was spent and when it `resets_at`. A batch costs the sum of its successful sub-requests.

Per account (all its keys, on every gateway): requests per minute, in fixed windows aligned
to the minute (300 by default), and requests in flight at once (50 by default). Every
authenticated response carries:

| header | meaning |
|---|---|
| `X-RateLimit-Limit` | requests per minute |
| `X-RateLimit-Remaining` | requests left in this window |
| `X-RateLimit-Reset` | Unix seconds when the window ends |
| `RateLimit-Policy` | the same quota as the IETF draft-11 field: `"minute";q=300;w=60` |
| `RateLimit` | what is left and the seconds to the window's end (draft-11): `"minute";r=299;t=37` |

Over either limit is `429 rate_limit_exceeded` with `Retry-After`, whose body also carries the
RFC 9457 members of the draft's `quota-exceeded` problem type (`type`, `title`, `status`,
`detail`, `violated-policies`) beside `errors`; a batch counts as one
request. While the key and credit store is unreachable every request is
`503 service_unavailable` with `Retry-After`, and costs nothing. Each account has a fair share
of each service: its long scans in flight at once are bounded (a batch's counted), and
requests waiting for a busy service take turns across accounts. A request refused because the
account's own requests hold its share of a service (or its own requests queued ahead would make
it wait too long) is `429 too_many_concurrent_requests` with `Retry-After` (the expected wait):
its excess is its own, and other accounts are served meanwhile. A request that cannot start
because the service is full for every account is `503 service_unavailable` with
`Retry-After`. Neither costs anything. Retry `429` and `503` after
`Retry-After` seconds; never retry a `4xx` unchanged.

## Calculation flags

`sidereal` (an ayanamsha name or id), `equatorial`, `speed`, `no_nutation`, `j2000`,
`topocentric` and `heliocentric` change how positions are computed. Each operation lists the
flags it accepts; any other is refused. `speed=false` renders `speed` and `retrograde` as
`null`. Declinations are never rotated by a sidereal mode; with `j2000` or `no_nutation` they
follow that equator. `out_of_bounds` is true when the absolute declination exceeds the true
obliquity of date.
"""  # noqa: E501 (a Markdown table row and a line of JSON are one line each in the served page)


def introduction(guides: Sequence[tuple[str, str]] = ()) -> str:
    """Return the introduction's Markdown, ending with a link to each guide (``(title,
    route)``: one page per concept, beside this reference) when there are any."""
    if not guides:
        return INTRODUCTION
    links = "\n".join(f"- [{title}]({url})" for title, url in guides)
    return (
        f"{INTRODUCTION}\n## Guides\n\nOne page per concept, with examples to paste and each error's next step "
        f"(the [README](/docs/guides) is the front door):\n\n{links}\n"
    )
