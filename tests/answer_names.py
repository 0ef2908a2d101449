"""One name per concept in the answers (issue 49, part 1): the rules of docs/conventions.md
"Names in answers" as data, and :func:`drift`, which walks an OpenAPI document (every response
schema and every recorded example) and lists each place where a concept appears under a name or
a spelling other than its one.

The tables here are the rules' one source: :data:`CONCEPTS` (each concept's name and the
synonyms it must not appear under), :data:`SPEC_EXCEPTIONS` (the places where
``spec/interface.md`` or ``spec/decisions.md`` fixes another name or spelling, each with its
section; docs/conventions.md lists the same rows, and a test holds the two together).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kernel.aspects import ASPECT_NAMES
from kernel.bodies import BODY_TABLE
from kernel.zodiac import SIGN_KEYS


@dataclass(frozen=True)
class Concept:
    """A concept an answer names: its one member name and the synonyms it must not take.

    ``when_values`` narrows a synonym that is also an honest name of something else (``name``
    is a lot's or a place's name): the member is this concept's synonym only when its recorded
    values are of that kind (``"body"``: body ids)."""

    name: str
    canonical: str
    synonyms: tuple[str, ...]
    when_values: str = ""


#: Each concept, its name in answers and the names it must not take (docs/conventions.md,
#: "Names in answers").
CONCEPTS: tuple[Concept, ...] = (
    Concept("a body's id", "body", ("name", "planet", "graha", "body_name", "object"), when_values="body"),
    Concept("a degree within the sign", "sign_degree", ("degree", "degree_in_sign", "sign_deg", "sign_degrees")),
    Concept("a distance (with its unit)", "distance_au", ("distance", "dist")),
    Concept("a house array", "cusps", ("house_cusps", "cusp_longitudes", "houses_cusps")),
    Concept("a time stamp", "<verb>_at", ("timestamp", "created", "updated", "time_stamp", "created_on")),
    # An event's members (part E makes one Event schema: id, kind, instant, end).
    Concept("an event's id", "id", ("uid", "event_uid")),
    Concept("an event's instant", "instant", ("start",), when_values="event"),
)


@dataclass(frozen=True)
class Exception_:
    """A place where a spec fixes another name or spelling: schema, member, what it allows
    (``"name"``: the synonym as a member name; ``"capitalized"``: capitalized sign values;
    ``"flat instant"``: an instant as separate ``jd``/``datetime`` members; ``"13 slots"``: a
    house array of 13 slots), and the spec section that fixes it."""

    schema: str
    member: str
    allows: str
    source: str


#: The spec's exceptions: the only places an answer may name a concept otherwise.
SPEC_EXCEPTIONS: tuple[Exception_, ...] = (
    Exception_("EclipticPosition", "sign", "capitalized", "interface.md, Ecliptic position record"),
    Exception_("EclipticPosition", "distance", "name", "interface.md, Ecliptic position record"),
    Exception_("EquatorialPosition", "distance", "name", "interface.md, Equatorial position record"),
    Exception_("DerivedPoint", "sign", "capitalized", "interface.md, Derived point record"),
    Exception_("DerivedPoint", "name", "name", "interface.md, Derived point record"),
    Exception_("ChartHouses", "cusps", "13 slots", "interface.md, Houses object"),
    Exception_("ChartMetadata", "datetime", "flat instant", "interface.md, Chart object (metadata)"),
    Exception_("Ingress", "datetime", "flat instant", "interface.md, Ingress record"),
    Exception_("Heliacal", "event_datetime", "flat instant", "interface.md, Heliacal record"),
    Exception_("StoredChartBirth", "datetime", "flat instant", "interface.md, GET/POST /v1/natal-chart"),
)

#: The schemas whose enumerated values an external standard spells (not the spec, not us):
#: GeoJSON's ``type`` members ("FeatureCollection", "Feature", "LineString"), RFC 7946 section 1.4.
EXTERNAL_SPELLINGS: dict[str, str] = {
    "GeoJsonFeatureCollection": "RFC 7946 (GeoJSON), section 1.4",
    "GeoJsonFeature": "RFC 7946 (GeoJSON), section 1.4",
    "GeoJsonGeometry": "RFC 7946 (GeoJSON), section 1.4",
    "ParanLatitudeCollection": "RFC 7946 (GeoJSON), section 1.4",
    "ParanLatitudeFeature": "RFC 7946 (GeoJSON), section 1.4",
}
#: A time stamp's name: what happened, ``<verb>_at``; ``as_of`` says when usage's figures were read.
TIME_STAMP_NAME = re.compile(r"[a-z]+(_[a-z]+)*_at|as_of")
#: An enumerated value as answers spell it.
SNAKE_CASE = re.compile(r"[a-z0-9]+(_[a-z0-9]+)*")

#: The event synonyms part E (one Event schema for the forecast, the calendar and the webhook
#: payload) removes: the integrator deletes this set once E is merged, and the test then holds
#: the calendar's events to ``id`` and ``instant`` as well.
#: The schemas that are events (their ``start`` is the event's instant, not a period's start).
EVENT_SCHEMAS = frozenset({"TimelineEvent"})

BODY_IDS = frozenset(row.name for row in BODY_TABLE) | {"lagna", "rahu", "ketu"}
SIGN_NAMES = {key: key.capitalize() for key in SIGN_KEYS}
#: The ids of the vocabularies an answer names by value (bodies, signs, aspects), lowercase.
VOCABULARY_IDS = BODY_IDS | frozenset(SIGN_KEYS) | frozenset(ASPECT_NAMES)
#: An instant or time stamp as every answer writes it: ISO 8601 UTC to the millisecond, ``Z``.
TIME_STAMP = re.compile(r"\d{4,}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
#: Text that is a UTC moment of some spelling (a ``Z`` or an offset): it must be TIME_STAMP.
UTC_MOMENT = re.compile(r"[+-]?\d{4,}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)")


@dataclass(frozen=True)
class Drift:
    """One concept under a name or spelling other than its one: where, and what."""

    schema: str
    member: str
    problem: str

    def __str__(self) -> str:
        return f"{self.schema}.{self.member}: {self.problem}"


def _allowed(schema: str, member: str, allows: str) -> bool:
    return any(e.schema == schema and e.member == member and e.allows == allows for e in SPEC_EXCEPTIONS)


def _ref_name(node: dict[str, Any]) -> str | None:
    ref = node.get("$ref")
    return ref.rsplit("/", 1)[-1] if isinstance(ref, str) else None


def _objects(document: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield (schema name, object schema) for every object schema of every response: each
    named component, and each inline object under its operation's path."""

    def inner(name: str, node: Any) -> Iterator[tuple[str, dict[str, Any]]]:
        if isinstance(node, dict):
            if isinstance(node.get("properties"), dict):
                yield name, node
                for member, sub in node["properties"].items():
                    yield from inner(f"{name}.{member}", sub)
            for key in ("items", "additionalProperties"):
                if isinstance(node.get(key), dict):
                    yield from inner(name, node[key])
            for key in ("oneOf", "anyOf", "allOf"):
                for sub in node.get(key, ()):
                    yield from inner(name, sub)

    for name, schema in document.get("components", {}).get("schemas", {}).items():
        yield from inner(name, schema)
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            for status, answer in (operation.get("responses") or {}).items():
                for content in (answer.get("content") or {}).values():
                    schema = content.get("schema") or {}
                    if _ref_name(schema) is None:
                        yield from inner(f"{method.upper()} {path} {status}", schema)


def _examples(document: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], Any]]:
    """Yield (operation, its answer's schema, a recorded answer) for every JSON example."""
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            for status, answer in (operation.get("responses") or {}).items():
                for media_type, content in (answer.get("content") or {}).items():
                    if "json" not in media_type:
                        continue
                    values = [content["example"]] if "example" in content else []
                    values += [e["value"] for e in (content.get("examples") or {}).values() if "value" in e]
                    for value in values:
                        yield f"{method.upper()} {path} {status}", content.get("schema") or {}, value
                    if path.endswith("/batch") and status == "200":
                        yield from _batch_results(document, operation, values)


def _batch_results(
    document: dict[str, Any], operation: dict[str, Any], answers: list[Any]
) -> Iterator[tuple[str, dict[str, Any], Any]]:
    """Yield each recorded batch result's ``data`` with its own endpoint's answer schema (the
    batch's schema leaves it open): the recorded request names the endpoint of each."""
    requests = [
        e["value"]["requests"]
        for content in operation.get("requestBody", {}).get("content", {}).values()
        for e in (content.get("examples") or {}).values()
        if "requests" in e.get("value", {})
    ]
    for asked, answer in zip(requests, answers, strict=False):
        for result in answer["data"]["results"]:
            path = asked[result["index"]]["endpoint"]
            answers_of = document["paths"][path].get("get") or document["paths"][path]["post"]
            schema = answers_of["responses"][str(result["status"])]["content"]["application/json"]["schema"]
            yield f"POST /v1/batch {path}", schema, {k: v for k, v in result.items() if k in ("data", "warnings")}


def _branch(document: dict[str, Any], branches: list[dict[str, Any]], value: Any) -> dict[str, Any]:
    """Return the branch of a oneOf/anyOf whose declared members hold all of ``value``'s."""
    if isinstance(value, dict):
        for branch in branches:
            resolved = _resolve(document, branch)[1]
            if set(value) <= set(resolved.get("properties") or {}):
                return branch
    for branch in branches:
        if _resolve(document, branch)[1].get("type") not in ("null", None) or isinstance(value, dict | list):
            return branch
    return branches[0]


def _resolve(document: dict[str, Any], node: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    name = _ref_name(node)
    if name is None:
        return None, node
    return name, document["components"]["schemas"][name]


def values_with_schemas(
    document: dict[str, Any], schema: dict[str, Any], value: Any, where: str, member: str = ""
) -> Iterator[tuple[str, str, Any]]:
    """Yield (named schema holding it, member name, value) for every scalar and array inside
    ``value`` read against ``schema``: the schema is the nearest named one (a ``$ref``), or
    ``where`` inside an inline one."""
    name, node = _resolve(document, schema)
    where = name or where
    for key in ("oneOf", "anyOf"):
        if node.get(key):
            yield from values_with_schemas(document, _branch(document, node[key], value), value, where, member)
            return
    if isinstance(value, dict):
        properties = node.get("properties") or {}
        extra = node.get("additionalProperties")
        for key, sub in value.items():
            if name == "BatchResult" and key == "data":
                continue  # read with its own endpoint's schema (_batch_results)
            sub_schema = properties.get(key) or (extra if isinstance(extra, dict) else {})
            yield from values_with_schemas(document, sub_schema, sub, where, key)
    elif isinstance(value, list):
        yield where, member, value
        for item in value:
            yield from values_with_schemas(document, node.get("items") or {}, item, where, member)
    else:
        yield where, member, value


def schema_drift(document: dict[str, Any]) -> list[Drift]:
    """Return every member name of a response schema that is a concept's synonym, outside the
    spec's exceptions."""
    found: list[Drift] = []
    body_members = _members_holding(document, lambda v: isinstance(v, str) and v in BODY_IDS)
    instants = _instant_members(document)
    for schema, node in _objects(document):
        if schema == "Instant":
            continue
        for member in node["properties"]:
            for concept in CONCEPTS:
                if member not in concept.synonyms:
                    continue
                if concept.when_values == "body" and (schema, member) not in body_members:
                    continue
                if concept.when_values == "event" and schema not in EVENT_SCHEMAS:
                    continue
                if _allowed(schema, member, "name"):
                    continue
                found.append(Drift(schema, member, f"{concept.name} is named {concept.canonical!r}"))
            flat = _flat_instant(node, member)
            if flat and not _allowed(schema, member, "flat instant"):
                found.append(Drift(schema, member, f"an instant is one {{jd, datetime}} member, not {flat}"))
            spelled = _enumerated(node["properties"][member])
            wrong = [v for v in spelled if isinstance(v, str) and not SNAKE_CASE.fullmatch(v)]
            if wrong and schema not in EXTERNAL_SPELLINGS:
                found.append(Drift(schema, member, f"an enumerated value is lowercase snake_case: {wrong[:3]}"))
            if node["properties"][member].get("format") == "date-time":
                if member in instants:
                    found.append(
                        Drift(schema, member, f"{member!r} is an Instant elsewhere; a time stamp is <verb>_at")
                    )
                elif not TIME_STAMP_NAME.fullmatch(member):
                    found.append(Drift(schema, member, "a time stamp is named for what happened, <verb>_at"))
    return found


def _enumerated(node: dict[str, Any]) -> list[Any]:
    """Return the values a member's schema enumerates (``enum``, ``const``, also of its items)."""
    values = [*node.get("enum", ()), *([node["const"]] if "const" in node else [])]
    items = node.get("items")
    return values + (_enumerated(items) if isinstance(items, dict) else [])


def _instant_members(document: dict[str, Any]) -> set[str]:
    """Return the member names that hold an ``Instant`` in some response schema."""

    def is_instant(node: dict[str, Any]) -> bool:
        branches = [node, *node.get("oneOf", ()), *node.get("anyOf", ())]
        return any(_ref_name(branch) == "Instant" for branch in branches)

    return {member for _, node in _objects(document) for member, sub in node["properties"].items() if is_instant(sub)}


def _flat_instant(node: dict[str, Any], member: str) -> str:
    """Return how ``member`` splits an instant into members of its object ('' when it does
    not): ``datetime`` beside ``jd``, ``x_datetime`` beside ``x_jd``, ``datetime`` beside
    ``datetime_iso``."""
    members = node["properties"]
    if member == "datetime" and ("jd" in members or "datetime_iso" in members):
        return "jd and datetime members" if "jd" in members else "datetime (a Julian Day) and datetime_iso"
    if member.endswith("_datetime") and f"{member.removesuffix('_datetime')}_jd" in members:
        return f"{member.removesuffix('_datetime')}_jd and {member}"
    return ""


def _members_holding(document: dict[str, Any], test) -> set[tuple[str, str]]:
    """Return the (schema, member) pairs whose recorded values pass ``test``."""
    held: set[tuple[str, str]] = set()
    for operation, schema, answer in _examples(document):
        for where, member, value in values_with_schemas(document, schema, answer, operation):
            if test(value):
                held.add((where, member))
    return held


def value_drift(document: dict[str, Any], answers: list[tuple[str, dict[str, Any], Any]] | None = None) -> list[Drift]:
    """Return every value of the recorded examples (or of ``answers``: (operation, schema,
    answer) triples) spelled other than its concept's one spelling: a sign capitalized (outside
    the spec's exceptions), a body or an aspect not as its lowercase id, a UTC moment not ISO
    8601 with milliseconds and ``Z``, a house array of 13 slots where the spec does not fix 13."""
    found: dict[tuple[str, str, str], Drift] = {}
    for operation, schema, answer in answers if answers is not None else _examples(document):
        for where, member, value in values_with_schemas(document, schema, answer, operation):
            if isinstance(value, str):
                if value in SIGN_NAMES.values():
                    if not _allowed(where, member, "capitalized"):
                        drift = Drift(where, member, f"a sign is lowercase: {value!r} (in {operation})")
                        found.setdefault((where, member, "sign"), drift)
                elif value != value.lower() and value.lower() in VOCABULARY_IDS:
                    drift = Drift(where, member, f"a body or an aspect is its lowercase id: {value!r} (in {operation})")
                    found.setdefault((where, member, "id"), drift)
                if UTC_MOMENT.fullmatch(value) and not TIME_STAMP.fullmatch(value):
                    drift = Drift(where, member, f"a time stamp is ISO 8601 UTC with milliseconds and Z: {value!r}")
                    found.setdefault((where, member, "time"), drift)
            elif isinstance(value, list) and member == "cusps" and len(value) in (13, 37):
                if not _allowed(where, member, "13 slots"):
                    drift = Drift(where, member, f"a house array holds the cusps, house 1 first: {len(value)} slots")
                    found.setdefault((where, member, "cusps"), drift)
    return list(found.values())


def drift(document: dict[str, Any]) -> list[Drift]:
    """Return every concept of ``document``'s answers under a second name or spelling."""
    return schema_drift(document) + value_drift(document)
