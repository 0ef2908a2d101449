"""The rules across a request's parameters, as JSON Schema (issue 49, part 3): what validation
refuses of a request whose every parameter is valid on its own, said where a schema can say
it, so that every request the document admits is served.

Each rule comes from the request's descriptors, as validation reads them
(``shared/runtime/validation.py``, ``shared/runtime/request_model.py``):

- a one-of (``datetime`` or ``jd``): at most one member, exactly one when it is required;
- ``(field).sent_with`` (a latitude with its longitude): each needs the other;
- ``(field).excludes`` (``topocentric`` with ``heliocentric``): not both true;
- ``(field).required_with`` (``lat`` when ``topocentric=true``): required when that flag is true;
- ``(field).required_when`` (a place when ``lots`` are sent, or ``stellium_scope=house``): the
  flattened value's parameters required on that condition;
- ``(field).instead_of`` (a town's id for a birth's coordinates): not both, and one of them
  when the coordinates are required;
- a moment's ``tz``: refused with a Julian Day (a zone one moment reads);
- ``(message).either`` (a time lord's ``at``, or ``start`` and ``end``): exactly one alternative;
- a stored chart (``chart=<id>``, ``(message).stored_charts``): it gives the birth, so the
  birth's required parameters are required only without it, and neither they nor its other
  parameters are allowed beside it.

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
        frozenset(
            {
                "invalid_parameter",
                "conflicting_parameters tz",
                "/v1/chart-wheel missing_parameter",
                "/v1/chart-wheel conflicting_parameters",
            }
        ),
        "What one kind of a request needs or refuses (chart-wheel's birth for kind=natal, its node for "
        "kind=draconic), a zone shared by several moments all sent as Julian Days, or chart-wheel's moments "
        "sent both ways (datetime and jd): it has more such rules than the generators of requests expand.",
    ),
    "zone": (
        frozenset({"missing_parameter tz", "missing_parameter tz_a", "missing_parameter tz_b"}),
        "fold without the zone that reads its local time (tz, or a town's): said as a rule across parameters, it "
        "makes a request with several moments (chart-wheel's) too intricate for the generators of requests.",
    ),
    "polar": (
        frozenset({"polar_day_or_night"}),
        "A place and date where the Sun does not both rise and set (a polar day or night, beyond about 66° from "
        "the equator near a solstice): it has no sunrise or sunset to divide into planetary hours, and which dates "
        "those are depends on the latitude and the season, which a schema cannot say.",
    ),
    "stored_birth": (
        frozenset({"/v1/charts/{chart_id} missing_parameter", "/v1/charts/{chart_id} conflicting_parameters"}),
        "A stored chart's PATCH that leaves its birth incomplete or contradictory (a null removing lon but not "
        "lat): what a PATCH may send depends on what the chart already holds.",
    ),
    "before_birth": (
        frozenset({"before_birth"}),
        "A time lord's or a dasha's at before the birth it reads (both moments valid on their own): the order of "
        "two moments, each of which may be a local time read in its zone, is beyond what a schema can compare.",
    ),
    "their_numbers": (
        frozenset({"/v1/explain-difference missing_parameter"}),
        "explain-difference's theirs with no number in it ({} or empty members): any subset of its members "
        "may be sent, but at least one number, which the document's generated requests do not know.",
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


#: The most parameters one request's schema makes others depend on: past about this many,
#: schemathesis (4.32) gives up generating its requests ("does not support this part"), so a
#: request with more (chart-wheel's six moments) keeps the first and lists the others' refusals
#: beyond the schema.
MAX_DEPENDENT_SCHEMAS = 8

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


def _no_zone_for_julian_days(fields: dict[str, FieldSpec], zone: FieldSpec) -> list[dict[str, Any]]:
    """Return what a moment's ``tz``, when sent, requires: a Julian Day is UT1, which no zone
    changes, so the one moment it reads is not given as a Julian Day. A zone shared by several
    moments is refused only when all are Julian Days: a rule beyond the schema
    (:data:`BEYOND_THE_SCHEMA`), as the generators of requests cannot expand it."""
    paths = zone.shared_paths or (zone.path,)
    days = [f.name for f in fields.values() if f.field_name == "jd" and f.path in paths]
    return [{"properties": {days[0]: False}}] if len(paths) == 1 and len(days) == 1 else []


def _exactly_one(members: tuple[str, ...]) -> dict[str, Any]:
    # A member sent as null is refused (no request schema types null), never read as left out.
    return {"oneOf": [{"required": [member], "properties": {member: {"not": {"type": "null"}}}} for member in members]}


def _alternatives(descriptor: Descriptor, fields: dict[str, FieldSpec]) -> list[dict[str, Any]]:
    """Return the rules of the request's ``(message).either`` options (its own, or a flattened
    message's): exactly one alternative sent, all of its fields, and none of the others'. A
    field that is a flattened moment is sent as its datetime or its jd (its one-of's members)."""
    holders: dict[tuple[str, ...], Descriptor] = {(): descriptor}
    for field in fields.values():
        for depth, holder in enumerate(field.holders, start=1):
            holders.setdefault(field.path[:depth], holder.message_type)
    rules = []
    for path, message in holders.items():
        either = message.GetOptions().Extensions[options_pb2.message].either
        if not either:
            continue

        def members(name: str, path: tuple[str, ...] = path) -> list[str]:
            inner = [f.name for f in fields.values() if f.path == (*path, name) and f.oneof is not None]
            return inner or [f.name for f in fields.values() if f.path == path and f.field_name == name]

        groups = [[members(name) for name in alternative.split()] for alternative in either]
        every = {member for group in groups for names in group for member in names}
        options = []
        for group in groups:
            own = {member for names in group for member in names}
            sent = [{"anyOf": [{"required": [m]} for m in names]} for names in group]
            options.append({"allOf": sent, "properties": dict.fromkeys(sorted(every - own), False)})
        rules.append({"oneOf": options})
    return rules


def _required_when(fields: dict[str, FieldSpec]) -> list[tuple[str, str | None, list[str]]]:
    """Return, for each flattened value a request needs only on a condition
    (``(field).required_when``), the parameter it depends on, the value that parameter must
    have (None: when it is sent at all) and the value's parameters without a default."""
    found: dict[tuple[str, ...], tuple[str, str | None, list[str]]] = {}
    for field in fields.values():
        if not field.holders or field.rule.default:
            continue
        when = field.holders[-1].GetOptions().Extensions[options_pb2.field].required_when
        if when:
            name, _, value = when.partition("=")
            found.setdefault(field.path, (name, value or None, []))[2].append(field.name)
    return list(found.values())


def request_constraints(descriptor: Descriptor, *, charts: bool = True) -> list[dict[str, Any]]:
    """Return the rules across the parameters of the request message ``descriptor`` as JSON
    Schemas, each over the request's parameters as one object (a body, or a query string's
    values); with ``charts``, those of the stored charts it takes in place of a birth.

    A parameter that rules others out says so as ``dependentSchemas`` (``place`` present, ``lat``
    is not: ``{"properties": {"lat": false}}``) rather than ``not``, which the generators of
    requests from schemas (schemathesis) handle only a few of in one schema."""
    spec = message_spec(descriptor)
    fields = spec.fields
    named = descriptor.GetOptions().Extensions[options_pb2.message].stored_charts if charts else ()
    charts_by_name = {name: name[len("chart") :] for name in named}
    given_by_chart = {f"{birth}{suffix}": name for name, suffix in charts_by_name.items() for birth in BIRTH_PARAMETERS}

    constraints: list[dict[str, Any]] = _alternatives(descriptor, fields)
    # The rules about a birth's parameters, by the stored chart that gives that birth: they
    # hold when it is not sent (one anyOf per chart, which a generator of requests can expand).
    births: dict[str, list[dict[str, Any]]] = {}

    def unless_chart(members, rule: dict[str, Any]) -> None:
        chart = next((given_by_chart[m] for m in members if m in given_by_chart), None)
        if chart is None:
            constraints.append(rule)
        else:
            births.setdefault(chart, []).append(rule)

    # What each parameter, when sent, rules out (names) or requires of the others (schemas).
    rules_out: dict[str, set[str]] = {}
    needs: dict[str, list[dict[str, Any]]] = {}
    for key, members in spec.oneofs.items():
        members = tuple(m for m in members if m in fields)
        if key in spec.required_oneofs:
            unless_chart(members, _exactly_one(members))
        for a, b in combinations(members, 2):
            rules_out.setdefault(a, set()).add(b)
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
                    {
                        "if": {"required": [name], "properties": {name: {"const": True}}},
                        "then": {"properties": {other: {"const": False}}},
                    }
                )
        if rule.required_with and rule.required_with in fields and not field.alternative:
            flag = {"required": [rule.required_with], "properties": {rule.required_with: {"const": True}}}
            unless_chart((name,), {"if": flag, "then": {"required": [name]}})
        if field.field_name == "tz":
            for need in _no_zone_for_julian_days(fields, field):
                needs.setdefault(name, []).append(need)
        if rule.required and not field.alternative_name and name in given_by_chart:
            # A birth's parameter a stored chart gives: required unless the chart is sent.
            unless_chart((name,), {"required": [name]})
        if field.alternative_name and not rule.default:
            rules_out.setdefault(field.alternative_name, set()).add(name)
            if rule.required:
                either = {"anyOf": [{"required": [name]}, {"required": [field.alternative_name]}]}
                unless_chart((name,), either)
    for condition, value, names in _required_when(fields):
        # A condition on a value its parameter takes by default holds when it is not sent too
        # (/v1/parans' place, required for format=json, the default).
        by_default = value is not None and condition in fields and fields[condition].rule.default == value
        sent: dict[str, Any] = {} if by_default else {"required": [condition]}
        if value is not None:
            sent["properties"] = {condition: {"const": value}}
        needed: dict[str, Any] = {"required": names}
        alternative = next((fields[n].alternative_name for n in names if fields[n].alternative_name), "")
        if alternative:  # a town's id given in the coordinates' stead (instead_of) serves as well
            needed = {"anyOf": [needed, {"required": [alternative]}]}
        unless_chart(names, {"if": sent, "then": needed})
    for chart, suffix in charts_by_name.items():
        rules_out.setdefault(chart, set()).update(f"{b}{suffix}" for b in BIRTH_PARAMETERS if f"{b}{suffix}" in fields)
    for chart, rules in births.items():
        constraints.append({"anyOf": [{"required": [chart]}, rules[0] if len(rules) == 1 else {"allOf": rules}]})
    if dependent:
        constraints.append({"dependentRequired": dependent})
    for name, others in rules_out.items():
        needs.setdefault(name, []).insert(0, {"properties": dict.fromkeys(sorted(others), False)})
    # The stored charts' and the towns' rules first, the one-ofs' last: past the bound, the
    # rest are beyond the schema (BEYOND_THE_SCHEMA's "combination").
    kept = sorted(needs, key=lambda name: (name not in charts_by_name, not name.startswith("place")))
    needs = {name: needs[name] for name in kept[:MAX_DEPENDENT_SCHEMAS]}
    if needs:
        constraints.append(
            {
                "dependentSchemas": {
                    name: schemas[0] if len(schemas) == 1 else {"allOf": schemas} for name, schemas in needs.items()
                }
            }
        )
    return constraints
