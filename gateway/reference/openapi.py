"""The OpenAPI 3.1 document, generated from the descriptors at start-up (/docs renders it).

Descriptions come from the comments in the .proto files (``make proto`` writes a descriptor
set with source info beside the generated code), so the protos stay the single source.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from celestial.v1 import account_service_pb2, options_pb2
from gateway.account_bodies import refuses_empty_text
from gateway.account_resources import BODY_METHODS, takes_body
from gateway.batch import BATCH_PATH, MAX_SUBREQUESTS
from gateway.endpoints import Endpoint, account_operations, path_parameters
from gateway.operation_names import operation_name
from gateway.reference.caching_openapi import with_picture_caching
from gateway.reference.charts_openapi import chart_parameters, stood_in_for, with_chart_members
from gateway.reference.code_samples import with_code_samples
from gateway.reference.idempotency_openapi import with_idempotency_key
from gateway.reference.introduction import introduction
from gateway.reference.openapi_schemas import Components, ref, string_rules
from gateway.reference.openapi_schemas import scalar_schema as _scalar_schema
from gateway.reference.operation_text import reference_text
from gateway.reference.parameter_groups import group_lead
from gateway.reference.request_constraints import (
    QUERY_CONSTRAINTS,
    refused_beyond_the_schema,
    request_constraints,
    with_constraints,
)
from gateway.reference.resource_links import with_resource_links
from gateway.reference.status_openapi import STATUS_PATH, status_path_item, status_schemas
from shared.runtime.name_or_id import taken_ids
from shared.runtime.reply_rendering import text_media_type
from shared.runtime.request_model import CALCULATION_FLAGS, FieldSpec, message_spec
from shared.runtime.stored_chart_parameters import stored_chart_names
from shared.runtime.vocabularies import VOCABULARIES

DESCRIPTOR_SET = Path(__file__).resolve().parents[2] / "celestial" / "v1" / "descriptor_set.binpb"

ERROR_DETAIL = {
    "type": "object",
    "required": ["code", "message", "suggestion"],
    "properties": {
        "code": {"type": "string"},
        "message": {"type": "string"},
        "suggestion": {"type": "string"},
        "param": {"type": "string"},
    },
}

ERROR_SCHEMA = {
    "type": "object",
    "required": ["errors", "meta"],
    "properties": {
        "errors": {"type": "array", "minItems": 1, "items": ref("ErrorDetail")},
        "meta": {"type": "object", "required": ["request_id"], "properties": {"request_id": {"type": "string"}}},
        # RFC 9457 problem details beside the body, on a limit's refusal (gateway/problem_details.py).
        "type": {
            "type": "string",
            "format": "uri",
            "description": "On a 429 rate_limit_exceeded or a 402 spend_cap_reached: the IETF RateLimit draft's "
            "problem type, https://iana.org/assignments/http-problem-types#quota-exceeded (RFC 9457).",
        },
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "violated-policies": {
            "type": "array",
            "items": {"type": "string"},
            "description": "The quotas that refused the request: minute, concurrency, webhook-deliveries, "
            "<scope>-<period>-spend.",
        },
    },
}

ERROR_STATUSES = {
    "400": "Invalid request (invalid_parameter, missing_parameter, conflicting_parameters, invalid_datetime, "
    "invalid_body, body_not_found, body_not_eligible, out_of_range ...)",
    "401": "invalid_api_key",
    "402": "insufficient_credits, or spend_cap_reached (a spend cap of the account or key; spend_cap says which, and "
    "resets_at)",
    "403": "origin_not_allowed or origin_required",
    "404": "chart_not_found (a stored chart named in place of a birth is none of this account's)",
    "413": "payload_too_large",
    "429": "rate_limit_exceeded (with Retry-After, and the quota-exceeded problem details beside the error body), "
    "or too_many_concurrent_requests (the account's own calls hold its share of the service; others are served "
    "meanwhile; with Retry-After)",
    "500": "internal_error (a bug; the message carries the request id)",
    "501": "not_implemented (the service answering it is of an older release, during an upgrade)",
    "503": "service_unavailable (a service full for every account, or down, or the store unreachable; with "
    "Retry-After)",
    "504": "deadline_exceeded",
}

#: The refusals every operation answers: no key, a browser-only key's origin, the account's
#: limits, the store or a service out of reach.
EVERY_OPERATION = ("401", "403", "429", "503")

#: The refusals every operation of an account resource answers (the gateway serves them:
#: ``gateway/account_resources.py``), beside those its ``(http).gateway.refusals`` list: a
#: query parameter or body member it does not take is 400 whatever else it refuses.
ACCOUNT_ERROR_STATUSES = {
    "400": "invalid_parameter or invalid_body (a parameter the operation does not take, or one its rules refuse)",
    **{status: ERROR_STATUSES[status] for status in EVERY_OPERATION},
}


def error_responses(descriptions: dict[str, str]) -> dict[str, Any]:
    """Return the ``responses`` of these refusals, each answered with the error body, by status."""
    return {
        status: {"description": descriptions[status], "content": {"application/json": {"schema": ref("Error")}}}
        for status in sorted(descriptions)
    }


def compute_statuses(endpoint: Endpoint, method: str) -> dict[str, str]:
    """Return the refusals of a computation offered as ``method`` (``get``, ``post``), by status:
    every operation's, 400 for what validation refuses, 402 when it may cost credits, 404 when
    a stored chart may stand in for a birth (``(message).stored_charts``), 413 for a body, and
    the services' 500, 501 and 504."""
    statuses = {*EVERY_OPERATION, "400", "500", "501", "504"}
    if endpoint.http.credits or endpoint.http.conditional_credits:
        statuses.add("402")
    if stored_chart_names(endpoint.request_cls):
        statuses.add("404")
    if method == "post":
        statuses.add("413")
    return {status: ERROR_STATUSES[status] for status in statuses}


#: The refusals of POST /v1/batch as a whole (a sub-request's own are in its result): its
#: body's, and every operation's.
BATCH_STATUSES = {status: ERROR_STATUSES[status] for status in ("400", "413", *EVERY_OPERATION)}


#: The body of a POST that takes none (rotation, a test): none, or {} (gateway/account_bodies.py).
NO_BODY = {
    "required": False,
    "content": {"application/json": {"schema": {"type": "object", "maxProperties": 0, "description": "No body."}}},
}


@lru_cache(maxsize=1)
def proto_comments() -> dict[str, str]:
    """Return leading comments by full element name (message, field, method), if available."""
    if not DESCRIPTOR_SET.exists():
        return {}
    fds = descriptor_pb2.FileDescriptorSet.FromString(DESCRIPTOR_SET.read_bytes())
    comments: dict[str, str] = {}
    for file in fds.file:
        locations = {
            tuple(loc.path): loc.leading_comments.strip()
            for loc in file.source_code_info.location
            if loc.leading_comments
        }
        package = file.package
        for mi, message in enumerate(file.message_type):
            _collect_message(comments, locations, (4, mi), f"{package}.{message.name}", message)
        for si, service in enumerate(file.service):
            for mi, method in enumerate(service.method):
                text = locations.get((6, si, 2, mi))
                if text:
                    comments[f"{package}.{service.name}.{method.name}"] = text
    return comments


def _collect_message(comments, locations, path, full_name, message) -> None:
    text = locations.get(path)
    if text:
        comments[full_name] = text
    for fi, field in enumerate(message.field):
        text = locations.get(path + (2, fi))
        if text:
            comments[f"{full_name}.{field.name}"] = text
    for ni, nested in enumerate(message.nested_type):
        _collect_message(comments, locations, path + (3, ni), f"{full_name}.{nested.name}", nested)


def _field_description(field: FieldSpec, oneofs: dict[str, tuple[str, ...]]) -> str:
    fd, rule = field.descriptor, field.rule
    comments = proto_comments()
    # The value's own comment ("Range start", "The natal moment"); an outer value's comment
    # describes the whole group, not this parameter. A parameter every value shares (tz, fold)
    # names each value it reads, not only the first.
    if len(field.paths) > 1:
        parts = [f"For every moment of the request ({'; '.join(_value_names(field, comments))})."]
    else:
        parts = [group_lead(field.holders, comments)]
    parts.append(rule.description or comments.get(fd.full_name, ""))
    if rule.flag:
        parts.append("Calculation flag.")
    if field.oneof is not None:
        parts.append(f"One of {' or '.join(oneofs[field.oneof])}.")
    if rule.required_with:
        parts.append(f"Required when {rule.required_with}=true.")
    if field.alternative and rule.default:
        # A town gives latitude and longitude only: a defaulted value (alt) is read as sent.
        parts.append(
            f"A town ({field.alternative_name}, an id from /v1/places) gives no {field.name}: it is read from here "
            f"with {field.alternative_name} too."
        )
    elif field.alternative and rule.required:
        parts.append(f"Required unless {field.alternative_name} (a town from /v1/places) is sent.")
    elif field.alternative:  # an optional value (a relocation, a wheel's birth of some kinds)
        parts.append(f"Not with {field.alternative_name} (a town from /v1/places), which gives it in its stead.")
    if rule.csv:
        parts.append("Comma-separated list.")
    parts.append(VOCABULARIES[rule.vocabulary].note if rule.vocabulary else "")
    return " ".join(p for p in parts if p)


def _value_names(field: FieldSpec, comments: dict[str, str]) -> list[str]:
    """Return, for a shared parameter, the first clause of the comment of each value holding it
    ("Range start", "Range end", "The natal moment"), in the request's order."""
    names = []
    for path in field.paths:
        message, holder = field.holders[0].containing_type, None
        for name in path:
            holder = message.fields_by_name[name]
            message = holder.message_type
        text = comments.get(holder.full_name, "") if holder is not None else ""
        name = re.split(r"[.:,(]", text, maxsplit=1)[0].strip() or path[-1]
        names.append(name[:1].lower() + name[1:])
    return names


def _request_field_schema(
    field: FieldSpec, oneofs: dict[str, tuple[str, ...]], *, query: bool, lists: bool = False
) -> dict[str, Any]:
    """Return the JSON Schema of one request parameter (``query``: as a query string carries
    it). A repeated scalar in a body is an array or, unless ``lists`` (an account resource's
    body, which takes arrays only), one comma-separated string."""
    fd, rule = field.descriptor, field.rule
    if fd.type == FieldDescriptor.TYPE_MESSAGE:
        item = _request_message_schema(fd.message_type)
        schema: dict[str, Any] = {"type": "array", "items": item} if fd.is_repeated else item
        if rule.max_items:
            schema["maxItems"] = rule.max_items
        if query:
            return {"type": "string", "description": "JSON text: " + _field_description(field, oneofs)}
        return schema
    base = {**_scalar_schema(fd), **string_rules(rule)}
    if refuses_empty_text(field):
        # Every reader refuses an empty value (a vocabulary's, a moment's, any text's): leave it out instead.
        base["minLength"] = 1
    if rule.has_min:
        base["exclusiveMinimum" if rule.min_exclusive else "minimum"] = rule.min
    if rule.has_max:
        base["exclusiveMaximum" if rule.max_exclusive else "maximum"] = rule.max
    if rule.choices:
        base["enum"] = list(rule.choices)
    if rule.vocabulary:
        base.update(VOCABULARIES[rule.vocabulary].schema)
    ids = taken_ids(rule) if fd.type == FieldDescriptor.TYPE_STRING and not fd.is_repeated else None
    if ids is not None:
        # A name or an id: the id as an integer (a query string's text of it reads the same).
        schema = {"oneOf": [base, {"type": "integer", "minimum": ids[0], "maximum": ids[1]}]}
    elif fd.is_repeated:
        if query:
            schema = {"type": "string"}
        elif lists:
            schema = {"type": "array", **({"minItems": 1} if rule.required else {}), "items": base}
        else:
            schema = {"oneOf": [{"type": "string"}, {"type": "array", "items": base}]}
    else:
        schema = base
    if rule.default:
        schema["default"] = _typed_default(fd, rule.default)
    description = _field_description(field, oneofs)
    if description:
        schema["description"] = description
    return schema


def _typed_default(fd: FieldDescriptor, text: str) -> Any:
    if fd.is_repeated:
        return text
    if fd.type == FieldDescriptor.TYPE_BOOL:
        return text.lower() in ("true", "1")
    if fd.type in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return float(text)
    if fd.type in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_ENUM):
        return text
    return int(text)


def _request_message_schema(descriptor: Descriptor) -> dict[str, Any]:
    spec = message_spec(descriptor)
    properties = {name: _request_field_schema(f, spec.oneofs, query=False) for name, f in spec.fields.items()}
    required = [name for name, f in spec.fields.items() if f.rule.required and not f.alternative]
    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema


def _document_schemas(endpoint: Endpoint) -> dict[str, dict[str, Any]]:
    """Return the documents the endpoint may answer instead of JSON (the ``(render).media_type``
    members of its union ``data``): each media type's schema, a string, binary for a bytes member."""
    data_fd = endpoint.response_cls.DESCRIPTOR.fields_by_name["data"]
    if data_fd.type != FieldDescriptor.TYPE_MESSAGE:
        return {}
    return {
        text_media_type(fd): {
            "type": "string",
            **({"format": "binary"} if fd.type == FieldDescriptor.TYPE_BYTES else {}),
        }
        for fd in data_fd.message_type.fields
        if text_media_type(fd)
    }


def _responses(endpoint: Endpoint, components: Components, method: str) -> dict[str, Any]:
    content: dict[str, Any] = {"application/json": {"schema": components.envelope(endpoint)}}
    for media_type, schema in _document_schemas(endpoint).items():
        content[media_type] = {"schema": schema}
    return {
        "200": {"description": "Success", "content": content},
        **error_responses(compute_statuses(endpoint, method)),
    }


BATCH_DESCRIPTION = """\
Runs 1-50 sub-requests concurrently in one call. Each sub-request is `{endpoint, params}`:
the path of any endpoint above and its parameters as a JSON object (the POST body that
endpoint takes). Each is validated, charged and refunded on its own, with the calculation
flag rule applied to each; a nested batch, an empty or oversized list, or an entry that is
not `{endpoint, params}` is 400 `invalid_parameter` for the whole batch. The answer is 200
with `data = {results: [{index, status, data, warnings?} | {index, status, errors}],
summary: {total, succeeded, failed}}`, results in the order given; `meta.credits_used` is the
sum over the successful sub-requests. The batch counts as one request for the rate limit;
through a test key it counts each sub-request at its live price, at least 1, against the test keys' limit.\
"""


def batch_schemas() -> dict[str, dict[str, Any]]:
    """Return the named schemas of POST /v1/batch's answer (components/schemas)."""
    result = {
        "type": "object",
        "required": ["index", "status"],
        "properties": {
            "index": {"type": "integer"},
            "status": {"type": "integer"},
            "data": {},
            "warnings": {"type": "array", "items": {"type": "string"}},
            "errors": ERROR_SCHEMA["properties"]["errors"],
        },
    }
    summary = {
        "type": "object",
        "required": ["total", "succeeded", "failed"],
        "properties": {name: {"type": "integer"} for name in ("total", "succeeded", "failed")},
    }
    data = {
        "type": "object",
        "required": ["results", "summary"],
        "properties": {"results": {"type": "array", "items": ref("BatchResult")}, "summary": ref("BatchSummary")},
    }
    success = {
        "type": "object",
        "required": ["data", "meta"],
        "properties": {"data": ref("BatchData"), "meta": ref("Meta")},
    }
    return {"BatchResponse": success, "BatchData": data, "BatchResult": result, "BatchSummary": summary}


def _batch_operation() -> dict[str, Any]:
    """Return the OpenAPI path item of POST /v1/batch (not an RPC: the gateway runs it)."""
    sub_request = {
        "type": "object",
        "required": ["endpoint", "params"],
        "additionalProperties": False,
        "properties": {
            "endpoint": {"type": "string", "description": "An endpoint path, e.g. /v1/aspects."},
            "params": {
                "type": "object",
                "description": (
                    "That endpoint's parameters ({} for none); an entry without params is 400 invalid_parameter for "
                    "the whole batch."
                ),
            },
        },
    }
    success = ref("BatchResponse")
    responses: dict[str, Any] = {
        "200": {"description": "Success", "content": {"application/json": {"schema": success}}},
        **error_responses(BATCH_STATUSES),
    }
    return {
        "post": {
            "summary": "Run several sub-requests in one call",
            "description": BATCH_DESCRIPTION + "\n\nCosts the sum of its successful sub-requests.",
            "operationId": "post_batch",
            "tags": ["batch"],
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "required": ["requests"],
                            "additionalProperties": False,
                            "properties": {
                                "requests": {
                                    "type": "array",
                                    "minItems": 1,
                                    "maxItems": MAX_SUBREQUESTS,
                                    "items": sub_request,
                                }
                            },
                        }
                    }
                },
            },
            "responses": responses,
        }
    }


def _account_body_schema(endpoint: Endpoint) -> dict[str, Any]:
    """Return the JSON body's schema of an account operation: its request's fields that its
    path does not name, and the members of ``(message).members_of`` when it names one (each
    also null in a PATCH, which removes it)."""
    descriptor = endpoint.request_cls.DESCRIPTOR
    spec = message_spec(descriptor)
    in_path = path_parameters(endpoint.path)
    fields = {name: field for name, field in spec.fields.items() if name not in in_path}
    schema: dict[str, Any] = {"type": "object"}
    properties: dict[str, Any] = {}
    required: list[str] = []
    members_of = descriptor.GetOptions().Extensions[options_pb2.message].members_of
    if members_of:
        # The other request's parameters (a stored chart's birth and settings are those of
        # /v1/natal-chart), each typed as its body takes it, so a typed client types them
        # (issue 49: the body was `name` and an index signature).
        schema["description"] = proto_comments().get(descriptor.full_name, "")
        other = _request_message_schema(descriptor.file.pool.FindMessageTypeByName(members_of))
        patch = endpoint.http.gateway.method == "PATCH"
        properties = {
            name: {"anyOf": [member, {"type": "null"}]} if patch else member
            for name, member in other["properties"].items()
        }
        required = [] if patch else list(other.get("required", []))
    properties |= {
        name: _request_field_schema(field, spec.oneofs, query=False, lists=True) for name, field in fields.items()
    }
    schema["properties"] = properties
    required += [name for name, field in fields.items() if field.rule.required]
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    if members_of and endpoint.http.gateway.method == "POST":
        # A creation is the other request's, named: its rules across parameters hold.
        other_message = descriptor_pool.Default().FindMessageTypeByName(members_of)
        schema = with_constraints(schema, request_constraints(other_message, charts=False))
    return schema


def _account_operation(endpoint: Endpoint, components: Components) -> dict[str, Any]:
    """Return the OpenAPI operation of an account resource's RPC (``(http).gateway``): free,
    named by its RPC (``list_stored_charts``), its path's parameters, then its query parameters
    (GET, DELETE) or its JSON body (POST, PATCH), its answer's envelope and its refusals."""
    method, gateway = endpoint.method, endpoint.http.gateway
    spec = message_spec(endpoint.request_cls.DESCRIPTOR)
    in_path = path_parameters(endpoint.path)
    parameters = [
        {
            "name": name,
            "in": "path" if name in in_path else "query",
            "required": name in in_path or bool(field.rule.required),
            "schema": _request_field_schema(field, spec.oneofs, query=True),
        }
        for name, field in sorted(spec.fields.items(), key=lambda item: item[0] not in in_path)
        if name in in_path or gateway.method not in BODY_METHODS
    ]
    operation: dict[str, Any] = {
        "summary": endpoint.http.summary,
        "description": proto_comments().get(
            f"{method.containing_service.full_name}.{method.name}", endpoint.http.summary
        ),
        "operationId": re.sub(r"(?<!^)(?=[A-Z])", "_", method.name).lower(),
        "tags": [gateway.tag],
        "x-credits": 0,
    }
    if gateway.resource:
        # Each method is an operation of its own (list, create, read, change, delete), not one
        # computation offered as GET and POST: the client generators name it by its operationId.
        operation["x-resource"] = True
    operation["parameters"] = parameters
    if gateway.method in BODY_METHODS:
        operation["requestBody"] = (
            {"required": True, "content": {"application/json": {"schema": _account_body_schema(endpoint)}}}
            if takes_body(endpoint)
            else NO_BODY
        )
    responses: dict[str, Any] = {
        "200": {
            "description": "Success",
            "content": {"application/json": {"schema": components.data_envelope(endpoint)}},
        }
    }
    # A body's refusals (413 over 1 MiB, read on every POST and PATCH, even one taking none) and
    # the operation's own, declared in its proto
    # (a 400 it names says what its rules refuse, in place of the generic one).
    refusals = {
        **ACCOUNT_ERROR_STATUSES,
        **({"413": ERROR_STATUSES["413"]} if gateway.method in BODY_METHODS else {}),
        **{str(refusal.status): refusal.description for refusal in gateway.refusals},
    }
    operation["responses"] = {**responses, **error_responses(refusals)}
    return operation


#: The name of the one webhook of the document (OpenAPI 3.1 ``webhooks``): a delivery's POST.
WEBHOOK_EVENT = "event"


def _webhook_delivery(components: Components) -> dict[str, Any]:
    """Return the operation a subscription's URL receives (docs/webhooks.md): a POST of the
    payload, its event the same TimelineEvent component as /v1/forecast's and /v1/calendar's."""
    return {
        "post": {
            "summary": "A webhook delivery: one event of a subscription",
            "description": (
                "What Celestial POSTs to a subscription's URL (POST /v1/webhooks), lead_minutes before "
                "the event's instant, with the Standard Webhooks 1.0 headers webhook-id (the event's id), "
                "webhook-timestamp and webhook-signature, and Celestial-Attempt. Answer 2xx within 10 s; "
                "anything else is retried."
            ),
            "operationId": "webhook_event",
            "tags": ["webhooks"],
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {"schema": components.value(account_service_pb2.WebhookPayload.DESCRIPTOR)}
                },
            },
            "responses": {"2XX": {"description": "Delivered: the event is never sent again."}},
        }
    }


def build_openapi(
    endpoints: tuple[Endpoint, ...], *, version: str, guides: Sequence[tuple[str, str]] = ()
) -> dict[str, Any]:
    """Return the OpenAPI 3.1 document of every endpoint; its introduction links ``guides``
    (``(title, route)`` pairs)."""
    paths: dict[str, Any] = {}
    components = Components(proto_comments())
    for endpoint in endpoints:
        method = endpoint.method
        summary = endpoint.http.summary or method.name
        description = proto_comments().get(f"{method.containing_service.full_name}.{method.name}", summary)
        cost = f"Costs {endpoint.http.credits} credit{'s' if endpoint.http.credits != 1 else ''}"
        for conditional in endpoint.http.conditional_credits:
            cost += f" ({conditional.credits} with {conditional.field}={conditional.equals})"
        spec = message_spec(endpoint.request_cls.DESCRIPTOR)
        flags = [name for name in CALCULATION_FLAGS if name in spec.fields]
        flag_text = f" Calculation flags accepted: {', '.join(flags)}." if flags else " Accepts no calculation flag."
        common = {
            "summary": summary,
            "description": f"{description}\n\n{cost}.{flag_text}",
            "tags": [endpoint.service],
            "x-credits": endpoint.http.credits,
        }
        operations: dict[str, Any] = {}
        constraints = request_constraints(endpoint.request_cls.DESCRIPTOR)
        if not endpoint.http.post_only:
            parameters = []
            optional = stood_in_for(endpoint.request_cls)
            for name, field in spec.fields.items():
                parameters.append(
                    {
                        "name": name,
                        "in": "query",
                        "required": bool(field.rule.required) and not field.alternative and name not in optional,
                        "schema": _request_field_schema(field, spec.oneofs, query=True),
                    }
                )
            parameters += [
                {"name": name, "in": "query", "required": False, "schema": schema}
                for name, schema in chart_parameters(endpoint.request_cls).items()
            ]
            operations["get"] = {
                **common,
                "responses": _responses(endpoint, components, "get"),
                "operationId": f"get_{operation_name(endpoint.path)}",
                "parameters": parameters,
            }
            if constraints:
                operations["get"][QUERY_CONSTRAINTS] = {"allOf": constraints}
            operations["get"] = with_picture_caching(operations["get"], endpoint)
        operations["post"] = {
            **common,
            "responses": _responses(endpoint, components, "post"),
            # Named after the path, as the Markdown pages and the MCP tools are: the SDKs'
            # functions become get_positions / getNatalChart, not get_compute_positions.
            "operationId": f"post_{operation_name(endpoint.path)}",
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": with_constraints(
                            with_chart_members(
                                _request_message_schema(endpoint.request_cls.DESCRIPTOR), endpoint.request_cls
                            ),
                            constraints,
                        )
                    }
                },
            },
        }
        paths[endpoint.path] = operations
    paths[BATCH_PATH] = _batch_operation()
    paths[STATUS_PATH] = status_path_item()
    for endpoint in account_operations():
        paths.setdefault(endpoint.path, {})[endpoint.http.gateway.method.lower()] = _account_operation(
            endpoint, components
        )
    webhooks = {WEBHOOK_EVENT: _webhook_delivery(components)}
    return with_code_samples(
        reference_text(
            {
                "openapi": "3.1.0",
                "info": {"title": "Celestial", "version": version, "description": introduction(guides)},
                "servers": [{"url": "/"}],
                "security": [{"bearer": []}, {"apiKey": []}],
                "paths": with_resource_links(with_idempotency_key(paths)),
                # What a request the schemas admit may still be refused for (request_constraints.py).
                "x-refused-beyond-the-schema": refused_beyond_the_schema(),
                "webhooks": webhooks,
                "components": {
                    "schemas": {
                        "Error": ERROR_SCHEMA,
                        "ErrorDetail": ERROR_DETAIL,
                        **components.schemas,
                        **batch_schemas(),
                        **status_schemas(),
                    },
                    "securitySchemes": {
                        "bearer": {
                            "type": "http",
                            "scheme": "bearer",
                            "description": "Authorization: Bearer svc_live_...",
                        },
                        "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
                    },
                },
            }
        )
    )
