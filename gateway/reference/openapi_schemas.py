"""The named schemas of the OpenAPI document (``components/schemas``) that every answer
references: one per reply message, so a typed client has one ``Position``, one ``Instant``,
one ``Chart``, whichever operation answered it; ``Meta``, what ``meta`` holds in every answer.

Naming rule: a component is named after its proto message's own name, without the package
(``celestial.v1.Chart`` is ``Chart``), less a trailing ``Record`` (``PositionRecord`` is
``Position``: "record" says how the wire carries a row, not what it is). Each envelope
``{data, meta, warnings?}`` is named after its reply message (``ComputeNatalChartResponse``),
shared by the operation's GET and POST. Two messages that would take one name are an error
at start-up, not a silent suffix.

A member is ``required`` when the wire always emits it (``shared/runtime/reply_rendering.py``): a scalar
without presence, a repeated field not marked ``omit_empty``, a field marked
``null_when_unset`` (then ``null`` when unset) or ``(render).always`` (a message the service
sets in every reply), a ``(message).columns`` field; any other message field or ``optional``
scalar is left out when unset, so it is not required.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor

from celestial.v1 import options_pb2
from gateway.endpoints import Endpoint
from gateway.reference.geojson_schema import GEOJSON_SCHEMAS
from shared.runtime.parameter_text import INTEGER_WIDTHS
from shared.runtime.reply_rendering import JSON_VALUE_TYPES, is_columns, text_media_type

#: Where a component is referenced from.
REF_PREFIX = "#/components/schemas/"
#: The suffix a component's name drops (PositionRecord is Position).
DROPPED_SUFFIX = "Record"

#: ``meta.version``: what an answer was made with (``gateway/version.py``).
VERSION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "The versions the answer was made with.",
    "required": ["api", "build", "engine", "tz"],
    "properties": {
        "api": {"type": "string", "description": "The API's version, the first segment of every path (v1)."},
        "build": {"type": "string", "description": "The server build's version (the document's info.version)."},
        "engine": {"type": "string", "description": "The Swiss Ephemeris release the positions were computed with."},
        "tz": {
            "type": "string",
            "description": (
                "The tz database release local times were read with (such as 2026f), built with its backzone file."
            ),
        },
    },
}

#: ``meta.moment.<param>.tz_found``: how a zone not named was chosen (kernel/civil_time.py ZoneFound).
ZONE_FOUND_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "How the zone was chosen when the request did not name it: present with tz=auto or a place.",
    "required": ["source", "lat", "lon"],
    "properties": {
        "source": {
            "type": "string",
            "enum": ["auto", "place"],
            "description": "auto: the zone the time-zone map (timezonefinder-data) gives the coordinates; "
            "place: the zone the gazetteer records for the town sent as place.",
        },
        "lat": {"type": "number", "description": "The latitude the zone was found for, degrees north."},
        "lon": {"type": "number", "description": "The longitude the zone was found for, degrees east."},
        "note": {
            "type": "string",
            "description": "What to check when the zone is a convention rather than a town's clocks "
            "(at sea, the nautical zone of the longitude; at a pole, whatever zone the map draws).",
        },
    },
}

#: ``meta.moment.<param>``: how one local time was read (kernel/civil_time.py LocalReading).
LOCAL_TIME_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "How one datetime sent without an offset was read as the civil time of a zone (docs/local-time.md).",
    "required": ["local", "tz", "abbreviation", "utc_offset_seconds", "utc"],
    "properties": {
        "local": {
            "type": "string",
            "description": "The wall-clock time as read, ISO 8601 without an offset (1944-06-06T08:00:00).",
        },
        "tz": {
            "type": "string",
            "description": (
                "The IANA zone it was read in (Europe/London): named by tz, found by tz=auto, or the place's."
            ),
        },
        "abbreviation": {
            "type": "string",
            "description": "The zone's abbreviation at that time, as the tz database gives it (BDST, CET, LMT).",
        },
        "utc_offset_seconds": {
            "type": "integer",
            "description": "The zone's offset from UTC at that time, seconds east of Greenwich (7200 for UTC+2).",
        },
        "utc": {
            "type": "string",
            "description": "The instant it was read as, ISO 8601 UTC with milliseconds (1944-06-06T06:00:00.000Z).",
        },
        "tz_found": {"$ref": REF_PREFIX + "ZoneFound"},
        "note": {
            "type": "string",
            "description": "What deserves a second look about this reading (a local mean time far from the "
            "zone's reference city, a zone found at sea), in words.",
        },
    },
}

#: What ``meta`` holds in a success answer (gateway/paid_requests.py, gateway/account_api.py).
META_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": (
        "About the answer rather than its result: its request id, what it cost, what it was made with and how its "
        "local times were read."
    ),
    "required": ["request_id", "credits_used", "credits_remaining", "version"],
    "properties": {
        "request_id": {
            "type": "string",
            "description": "The request's id, also the X-Request-Id header: quote it when reporting a problem.",
        },
        "credits_used": {
            "type": "integer",
            "description": "The credits this request was charged (a batch: the sum over its successful sub-requests).",
        },
        "credits_remaining": {
            "type": ["integer", "null"],
            "description": (
                "The account's balance after this request; null only when a batch's balance could not be read back."
            ),
        },
        "computation_ms": {
            "type": "number",
            "description": "How long the computation took, milliseconds (absent on /v1/usage and /v1/account).",
        },
        "version": {"$ref": REF_PREFIX + "Version"},
        "moment": {
            "type": "object",
            "description": (
                "How each datetime sent without an offset was read as local time, by parameter name (datetime, start, "
                "end, datetime_a ...): present only when the request sent tz or place, with one member per datetime "
                "read so."
            ),
            "additionalProperties": {"$ref": REF_PREFIX + "LocalTime"},
        },
        "preset": {
            "type": "object",
            "description": (
                "Present only when the request sent preset= (/v1/natal-chart, /v1/vedic/chart, /v1/vedic/dasha, "
                "/v1/forecast; docs/presets.md): the preset's name and each parameter it set, with its value "
                "(those the request sent are not listed: a parameter sent beats the preset)."
            ),
            "required": ["name", "applied"],
            "properties": {
                "name": {"type": "string", "description": "The preset, in its canonical spelling (astro_com)."},
                "applied": {
                    "type": "object",
                    "description": "Each parameter the preset set, by name, with the value it gave.",
                },
            },
        },
        "relocated": {
            "type": "object",
            "description": (
                "Present only when the request sent relocate_lat and relocate_lon or relocate (/v1/natal-chart, "
                "/v1/returns, /v1/chart-wheel, /v1/forecast; docs/charts.md, Relocation): the place the chart was "
                "cast for instead of the birth's."
            ),
            "required": ["lat", "lon"],
            "properties": {
                "lat": {"type": "number", "description": "Latitude, degrees north."},
                "lon": {"type": "number", "description": "Longitude, degrees east."},
                "place": {"type": "string", "description": "The town's id, when sent as relocate."},
                "name": {"type": "string", "description": "The town's name, when sent as relocate."},
                "country": {
                    "type": "string",
                    "description": "The town's ISO 3166 country code, when sent as relocate.",
                },
            },
        },
        "as_of": {
            "type": "string",
            "format": "date-time",
            "description": "/v1/usage only: when the figures were read from the ledger.",
        },
        "mode": {
            "type": "string",
            "enum": ["test"],
            "description": (
                "Present only on answers to a test key (svc_test_...): the answer is computed as usual and costs "
                "nothing."
            ),
        },
    },
}

#: The schemas the envelope itself names (not messages).
ENVELOPE_SCHEMAS: dict[str, dict[str, Any]] = {
    "Meta": META_SCHEMA,
    "Version": VERSION_SCHEMA,
    "LocalTime": LOCAL_TIME_SCHEMA,
    "ZoneFound": ZONE_FOUND_SCHEMA,
}

WARNINGS_SCHEMA: dict[str, Any] = {
    "type": "array",
    "items": {"type": "string"},
    "description": (
        "What to know about the result (a body outside its ephemeris' best span, an adjusted parameter), in words; "
        "absent when none."
    ),
}


def ref(name: str) -> dict[str, str]:
    """Return the reference to the component ``name``."""
    return {"$ref": REF_PREFIX + name}


def component_name(descriptor: Descriptor) -> str:
    """Return the component name of a reply message: its own name less a trailing ``Record``."""
    name = descriptor.name
    return name[: -len(DROPPED_SUFFIX)] if name.endswith(DROPPED_SUFFIX) and name != DROPPED_SUFFIX else name


def scalar_schema(fd: FieldDescriptor) -> dict[str, Any]:
    """Return the JSON Schema of one value of a scalar or enum field."""
    kind = fd.type
    if kind == FieldDescriptor.TYPE_BOOL:
        return {"type": "boolean"}
    if kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return {"type": "number"}
    if kind == FieldDescriptor.TYPE_STRING:
        return {"type": "string"}
    if kind == FieldDescriptor.TYPE_BYTES:  # in JSON (a batch's data), base64
        return {"type": "string", "format": "byte"}
    if kind == FieldDescriptor.TYPE_ENUM:
        return {"type": "string", "enum": [v.name.lower() for v in fd.enum_type.values]}
    type_name = INTEGER_WIDTHS[kind][2]
    return {"type": "integer", "format": type_name} if type_name in ("int32", "int64") else {"type": "integer"}


def string_rules(rule: options_pb2.FieldRule) -> dict[str, Any]:
    """Return the JSON Schema keywords of a field's ``pattern``, ``max_length`` and ``format``."""
    keywords: dict[str, Any] = {}
    if rule.pattern:
        keywords["pattern"] = rule.pattern
    if rule.max_length:
        keywords["maxLength"] = rule.max_length
    if rule.format:
        keywords["format"] = rule.format
    return keywords


def typed_value(fd: FieldDescriptor, text: str) -> Any:
    """Return a value written as in a query string (``true``, ``3``) as the field's JSON type."""
    if fd.type == FieldDescriptor.TYPE_BOOL:
        return text == "true"
    if fd.type in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return float(text)
    if fd.type in INTEGER_WIDTHS:
        return int(text)
    return text


def always_emitted(fd: FieldDescriptor) -> bool:
    """Return whether the wire renders field ``fd`` of a reply message in every answer."""
    render = fd.GetOptions().Extensions[options_pb2.render]
    if fd.is_repeated:
        return not render.omit_empty
    if fd.type == FieldDescriptor.TYPE_MESSAGE and is_columns(fd.message_type):
        return True  # rendered [] even unset
    return not fd.has_presence or render.null_when_unset or render.always


class Components:
    """The named schemas of the reply messages, filled as answers reference them."""

    def __init__(self, comments: Mapping[str, str]) -> None:
        self.comments = comments
        self.schemas: dict[str, dict[str, Any]] = dict(ENVELOPE_SCHEMAS)
        self._owners: dict[str, str] = {name: "" for name in self.schemas}

    def envelope(self, endpoint: Endpoint) -> dict[str, str]:
        """Return the reference to the success envelope of ``endpoint``, named after its reply message."""
        reply = endpoint.response_cls.DESCRIPTOR
        if self._claim(reply.name, reply.full_name):
            data_fd = reply.fields_by_name["data"]
            data = (
                self.value(data_fd.message_type)
                if data_fd.type == FieldDescriptor.TYPE_MESSAGE
                else scalar_schema(data_fd)
            )
            if data_fd.is_repeated:
                data = {"type": "array", "items": data}
            meta = ref("Meta")
            if "conventions" in reply.fields_by_name:
                # A reply's conventions are rendered in meta (gateway/envelope.py): its own Meta names them.
                conventions = self.value(reply.fields_by_name["conventions"].message_type)
                meta = {
                    **META_SCHEMA,
                    "required": [*META_SCHEMA["required"], "conventions"],
                    "properties": {**META_SCHEMA["properties"], "conventions": conventions},
                }
            self.schemas[reply.name] = {
                "type": "object",
                "required": ["data", "meta"],
                "properties": {"data": data, "meta": meta, "warnings": WARNINGS_SCHEMA},
            }
        return ref(reply.name)

    def data_envelope(self, endpoint: Endpoint) -> dict[str, str]:
        """Return the reference to the success envelope ``{data, meta}`` of an account
        operation, named after its ``data``'s component (``StoredChartResponse``): the RPCs that
        answer one resource (create, get, update a chart) share it. No warnings: an account
        resource's answer has none."""
        data = endpoint.response_cls.DESCRIPTOR.fields_by_name["data"].message_type
        name = component_name(data) + "Response"
        if self._claim(name, f"{data.full_name} (envelope)"):
            self.schemas[name] = {
                "type": "object",
                "required": ["data", "meta"],
                "properties": {"data": self.value(data), "meta": ref("Meta")},
            }
        return ref(name)

    def value(self, descriptor: Descriptor) -> dict[str, Any]:
        """Return the schema of a value of a reply message: a reference to its component, or,
        for a message whose JSON is no object of its own (plain JSON, a union, columns), inline."""
        if descriptor.full_name in JSON_VALUE_TYPES:
            return dict(JSON_VALUE_TYPES[descriptor.full_name])
        if is_columns(descriptor):
            # Rendered as one record per index (shared/runtime/reply_rendering.py): an array of objects.
            columns = {fd.name: {**scalar_schema(fd), **self._description(fd.full_name)} for fd in descriptor.fields}
            return {"type": "array", "items": {"type": "object", "properties": columns, "required": list(columns)}}
        json_members = json_union_members(descriptor)
        if len(json_members) == 1 and json_members[0].message_type is not None:
            # A union of one JSON member and documents (a forecast's events, or its iCalendar
            # text served as text/calendar): a JSON answer only ever holds that member, so it
            # is typed as that member, never "events or string" (issue 49).
            return self.value(json_members[0].message_type)
        name = component_name(descriptor)
        if self._claim(name, descriptor.full_name):
            self.schemas[name] = {}  # claimed before its members, which may refer back to it
            self.schemas[name] = self._object(descriptor)
        return ref(name)

    def _claim(self, name: str, full_name: str) -> bool:
        """Return True when ``name`` is new (now ``full_name``'s), False when ``full_name``
        has it already; ValueError when another message or schema has it."""
        owner = self._owners.setdefault(name, full_name)
        if owner != full_name:
            raise ValueError(
                f"{full_name} and {owner or 'the envelope'} would both be the component {name}: rename one"
            )
        return name not in self.schemas

    def _description(self, full_name: str) -> dict[str, str]:
        text = self.comments.get(full_name)
        return {"description": text} if text else {}

    def _object(self, descriptor: Descriptor) -> dict[str, Any]:
        if descriptor.full_name in GEOJSON_SCHEMAS:
            return dict(GEOJSON_SCHEMAS[descriptor.full_name])
        if descriptor.GetOptions().Extensions[options_pb2.message].union:
            # One of its members' components (Position: EclipticPosition or
            # EquatorialPosition); a document member (a wheel's SVG, served as image/svg+xml)
            # is never in a JSON answer, so it is left out.
            members = [
                self.value(fd.message_type) if fd.message_type else scalar_schema(fd)
                for fd in json_union_members(descriptor)
            ]
            return {**self._description(descriptor.full_name), "oneOf": members}
        properties: dict[str, Any] = {}
        for fd in descriptor.fields:
            render = fd.GetOptions().Extensions[options_pb2.render]
            rule = fd.GetOptions().Extensions[options_pb2.field]
            if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
                # A map renders as a JSON object of its values by key (usage's by_key).
                value_fd = fd.message_type.fields_by_name["value"]
                values = self.value(value_fd.message_type) if value_fd.message_type else scalar_schema(value_fd)
                properties[fd.name] = {
                    "type": "object",
                    **self._description(fd.full_name),
                    "additionalProperties": values,
                }
                continue
            if fd.type == FieldDescriptor.TYPE_MESSAGE:
                item = self.value(fd.message_type)
            else:
                # On a response field, the (field) rules say what an answer carries: its
                # choices are the values it takes (a union's members differ by them: {"kind":
                # "angle"} or {"kind": "cusp"}, which is how a typed client tells which member
                # it holds), its pattern, format and bounds those of every value.
                item = {**scalar_schema(fd), **string_rules(rule)}
                if rule.has_min:
                    item["exclusiveMinimum" if rule.min_exclusive else "minimum"] = rule.min
                if rule.has_max:
                    item["exclusiveMaximum" if rule.max_exclusive else "maximum"] = rule.max
                choices = [typed_value(fd, choice) for choice in rule.choices]
                if len(choices) == 1:
                    item["const"] = choices[0]
                elif choices:
                    item["enum"] = choices
            schema = {"type": "array", "items": item} if fd.is_repeated else item
            if render.null_when_unset and not fd.is_repeated:
                schema = {"anyOf": [schema, {"type": "null"}]}
            if "$ref" not in schema:  # a reference takes its component's description
                schema = {**schema, **self._description(fd.full_name)}
            properties[fd.name] = schema
        schema = {"type": "object", **self._description(descriptor.full_name), "properties": properties}
        required = [fd.name for fd in descriptor.fields if always_emitted(fd)]
        if required:
            schema["required"] = required
        return schema


def json_union_members(descriptor: Descriptor) -> list[FieldDescriptor]:
    """Return the members of a ``(message).union`` reply message that a JSON answer may hold:
    all but its documents (a ``(render).media_type`` member, answered with that media type
    instead of JSON); [] for a message that is no union."""
    if not descriptor.GetOptions().Extensions[options_pb2.message].union:
        return []
    return [fd for fd in descriptor.fields if not text_media_type(fd)]


def strict(document: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of an OpenAPI document whose every object schema (``type: object``) with properties refuses
    a member it does not declare (``additionalProperties: false``): what a test validates an
    answer against to prove that every member present is declared."""

    def tighten(node: Any) -> Any:
        if isinstance(node, dict):
            tightened = {key: tighten(value) for key, value in node.items()}
            # An object schema only: a request's rule across its parameters names properties
            # without being one (``{"properties": {"lat": false}}``).
            if "properties" in node and node.get("type") == "object" and "additionalProperties" not in node:
                tightened["additionalProperties"] = False
            return tightened
        if isinstance(node, list):
            return [tighten(value) for value in node]
        return node

    return tighten(document)


def response_schema(document: dict[str, Any], path: str, method: str, status: str = "200") -> dict[str, Any]:
    """Return the JSON schema of the JSON answer of ``method path`` with ``status``, its
    references resolvable within itself (the document's components beside it)."""
    schema = document["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"]
    return {**schema, "components": document["components"]}
