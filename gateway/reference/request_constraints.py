"""The rules across a request's parameters, as JSON Schema (issue 49, part 3): what validation
refuses of a request whose every parameter is valid on its own, said where a schema can say
it, so that every request the document admits is served.

Each rule comes from the request's descriptors, as validation reads them
(``shared/runtime/validation.py``, ``shared/runtime/request_model.py``):

- a one-of (``datetime`` or ``jd``): at most one member, exactly one when it is required;
- ``(field).sent_with`` (a latitude with its longitude): each needs the other;
- ``(field).excludes`` (``topocentric`` with ``heliocentric``): not both true;
- ``(field).required_with`` (``lat`` when ``topocentric=true``): required when that flag is true;
- ``(field).instead_of`` (a town's id for a birth's coordinates): not both, and one of them
  when the coordinates are required;
- a moment's ``tz``: refused when every moment it reads is a Julian Day;
- a moment's ``fold``: it needs the zone that reads the local time (``tz``, or a town);
- a stored chart (``chart=<id>``, ``(message).stored_charts``): it gives the birth, so the
  birth's own parameters are neither required nor allowed beside it.

A body's schema carries them (``allOf``). A query string's parameters are separate in OpenAPI,
which has no spelling for a rule across them: an operation's GET carries the same rules as
``x-query-constraints``, a schema over its query parameters as one object (read as JSON values),
which tests/reliability/test_fuzz_openapi.py applies before sending a GET it generates.

Rules a schema cannot say (a value's span, a combination a reader refuses) are listed in
:data:`BEYOND_THE_SCHEMA`.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from google.protobuf.descriptor import Descriptor

from celestial.v1 import options_pb2
from gateway.stored_charts import BIRTH_PARAMETERS
from shared.runtime.request_model import FieldSpec, message_spec

#: What validation or a reader refuses of a request the schema admits, because a schema
#: cannot say it: by name, the refusals it answers (400: an error code, or a code and the
#: parameter it names) and why. The document lists them
#: (``x-refused-beyond-the-schema``); the fuzz test (tests/reliability/test_fuzz_openapi.py)
#: accepts exactly these refusals of a request its schema admits (:func:`beyond_the_schema`).
BEYOND_THE_SCHEMA: dict[str, tuple[frozenset[str], str]] = {
    "vocabulary": (
        frozenset({"invalid_parameter", "invalid_datetime", "body_not_found", "invalid_heliacal_event"}),
        "A value of a vocabulary the schema gives as text (a body, a time zone, an ayanamsha, an aspect, a star, "
        "a country, a datetime): its parameter's description says which values it takes.",
    ),
    "span": (
        frozenset({"out_of_range", "range_too_long"}),
        "A moment outside the ephemeris span of the bodies asked for, or a range longer than its search allows: "
        "both depend on the bodies and kinds asked for.",
    ),
    "eligibility": (
        frozenset({"body_not_eligible"}),
        "A body a search does not take: the eligible bodies depend on the search.",
    ),
    "combination": (
        frozenset({"invalid_parameter", "conflicting_parameters tz", "/v1/chart-wheel missing_parameter"}),
        "What one kind of a request needs or refuses (chart-wheel's birth for kind=natal, its node for "
        "kind=draconic), or tz with Julian Days only when an optional moment (a transit scan's birth) is left out.",
    ),
    "idempotency": (
        frozenset({"idempotency_key_reuse"}),
        "An Idempotency-Key sent before with another request: a key is one request's.",
    ),
}


def beyond_the_schema(code: str, param: str = "", path: str = "") -> str | None:
    """Return the name of the rule beyond the schema a refusal with error ``code`` naming
    ``param`` of the operation at ``path`` may be, or None when a request the schema admits
    must never be refused so."""
    refusals = {code, f"{code} {param}", f"{path} {code}"}
    return next((name for name, (codes, _) in BEYOND_THE_SCHEMA.items() if refusals & codes), None)


def refused_beyond_the_schema() -> dict[str, str]:
    """Return what the document says of :data:`BEYOND_THE_SCHEMA`: each rule's description, by name."""
    return {name: text for name, (_, text) in BEYOND_THE_SCHEMA.items()}


#: The extension of a GET operation holding the rules across its query parameters.
QUERY_CONSTRAINTS = "x-query-constraints"


def with_constraints(schema: dict[str, Any], constraints: list[dict[str, Any]]) -> dict[str, Any]:
    """Return a body's ``schema`` with ``constraints`` (:func:`request_constraints`) as its ``allOf``."""
    return {**schema, "allOf": constraints} if constraints else schema


def _partner(spec_fields: dict[str, FieldSpec], field: FieldSpec, field_name: str) -> str | None:
    """Return the HTTP name of the field ``field_name`` of ``field``'s own message, or None."""
    return next(
        (f.name for f in spec_fields.values() if f.path == field.path and f.field_name == field_name),
        None,
    )


def _fold_needs_a_zone(fields: dict[str, FieldSpec], fold: FieldSpec) -> dict[str, Any]:
    """Return the rule of a moment's ``fold``: it chooses between two readings of a local time,
    so it needs the zone that reads it, the moment's ``tz`` or a town beside it (``place``)."""
    zones = [
        f.name for f in fields.values() if f.field_name == "tz" and (fold.path in f.shared_paths or f.path == fold.path)
    ]
    towns = {f.alternative_name for f in fields.values() if f.alternative_name and f.path[:-1] == fold.path[:-1]}
    either = [{"required": [name]} for name in [*zones, *sorted(towns)]]
    return {"if": {"required": [fold.name]}, "then": {"anyOf": either} if either else False}


def _no_zone_for_julian_days(fields: dict[str, FieldSpec], zone: FieldSpec) -> list[dict[str, Any]]:
    """Return the rule of a moment's ``tz``: a Julian Day is UT1, which no zone changes, so a
    zone is refused when every moment it reads is given as a Julian Day."""
    paths = zone.shared_paths or (zone.path,)
    days = [f.name for f in fields.values() if f.field_name == "jd" and f.path in paths]
    return [{"not": {"required": [zone.name, *days]}}] if len(days) == len(paths) else []


def _exactly_one(members: tuple[str, ...]) -> dict[str, Any]:
    # A member sent as null is left out (a body open to another request's members types none).
    return {"oneOf": [{"required": [member], "properties": {member: {"not": {"type": "null"}}}} for member in members]}


def _at_most_one(members: tuple[str, ...]) -> list[dict[str, Any]]:
    return [{"not": {"required": [a, b]}} for a, b in combinations(members, 2)]


def request_constraints(descriptor: Descriptor, *, charts: bool = True) -> list[dict[str, Any]]:
    """Return the rules across the parameters of the request message ``descriptor`` as JSON
    Schemas, each over the request's parameters as one object (a body, or a query string's
    values); with ``charts``, those of the stored charts it takes in place of a birth."""
    spec = message_spec(descriptor)
    fields = spec.fields
    named = descriptor.GetOptions().Extensions[options_pb2.message].stored_charts if charts else ()
    charts_by_name = {name: name[len("chart") :] for name in named}
    given_by_chart = {f"{birth}{suffix}": name for name, suffix in charts_by_name.items() for birth in BIRTH_PARAMETERS}

    def unless_chart(members, rule: dict[str, Any]) -> dict[str, Any]:
        # A rule about a birth's parameters holds when no stored chart gives that birth.
        chart = next((given_by_chart[m] for m in members if m in given_by_chart), None)
        return rule if chart is None else {"anyOf": [{"required": [chart]}, rule]}

    constraints: list[dict[str, Any]] = []
    for key, members in spec.oneofs.items():
        members = tuple(m for m in members if m in fields)
        if key in spec.required_oneofs:
            constraints.append(unless_chart(members, _exactly_one(members)))
        else:
            constraints.extend(_at_most_one(members))
    dependent: dict[str, list[str]] = {}
    for name, field in fields.items():
        rule = field.rule
        if rule.sent_with:
            partner = _partner(fields, field, rule.sent_with)
            if partner:
                dependent.setdefault(name, []).append(partner)
        if rule.excludes:
            other = _partner(fields, field, rule.excludes)
            if other:
                constraints.append(
                    {"not": {"required": [name, other], "properties": {name: {"const": True}, other: {"const": True}}}}
                )
        if rule.required_with and rule.required_with in fields and not field.alternative:
            then = unless_chart((name,), {"required": [name]})
            constraints.append(
                {
                    "if": {"required": [rule.required_with], "properties": {rule.required_with: {"const": True}}},
                    "then": then,
                }
            )
        if field.field_name == "fold":
            constraints.append(_fold_needs_a_zone(fields, field))
        if field.field_name == "tz":
            constraints.extend(_no_zone_for_julian_days(fields, field))
        if field.alternative_name and not rule.default:
            constraints.append({"not": {"required": [field.alternative_name, name]}})
            if rule.required:
                either = {"anyOf": [{"required": [name]}, {"required": [field.alternative_name]}]}
                constraints.append(unless_chart((name,), either))
    if dependent:
        constraints.append({"dependentRequired": dependent})
    for chart, suffix in charts_by_name.items():
        birth = [f"{b}{suffix}" for b in BIRTH_PARAMETERS if f"{b}{suffix}" in fields]
        constraints.extend({"not": {"required": [chart, name]}} for name in birth)
    return constraints
