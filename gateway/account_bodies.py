"""One reader for the JSON bodies of the account operations (issue 49): each body held to the
schema the OpenAPI document gives it, both derived from the operation's request message
(``protos/celestial/v1/account_service.proto``).

A body's members are its request's fields that its path does not name, and, where the request
names ``(message).members_of`` (a stored chart: ``/v1/natal-chart``'s parameters), that
request's parameters. The transcoder's rules hold (``shared/runtime/transcoder.py``): an
unknown member, a JSON null (but a PATCH's null removing a borrowed member, which the document
types), an empty item of an array and a value of another JSON type than the document's are
400 ``invalid_parameter`` naming the member. A request's own members are as strict as their
schema: arrays as arrays only, numbers as JSON numbers within their range, text as JSON
strings, not empty where :func:`refuses_empty_text` says so (the document's ``minLength``), nor
longer than its ``max_length``. An operation whose request has no such member (a secret's rotation, a test
delivery) takes no body: nothing, or ``{}``; a member or a JSON ``null`` is refused. Every
refusal comes before the operation's work, so it costs nothing.
"""

from __future__ import annotations

from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message_factory import GetMessageClass

from celestial.v1 import options_pb2
from gateway.endpoints import Endpoint, path_parameters
from shared.errors import InvalidBody, InvalidParameter
from shared.runtime.parameter_text import check_range
from shared.runtime.request_model import FieldSpec, message_spec
from shared.runtime.transcoder import (
    item_text,
    json_scalar,
    refuse_empty_items,
    refuse_nulls,
    refuse_unknown,
    request_from_json,
    wrong_json_type,
)


class NoBody:
    """The body of a request that sent none (an empty body), as distinct from a JSON ``null``."""


#: What :func:`gateway.json_body.read_json_body` returns for an account operation's empty body.
NO_BODY = NoBody()


def refuses_empty_text(field: FieldSpec) -> bool:
    """Return whether an empty string is refused for ``field``: a text parameter with neither
    choices nor a pattern (those refuse it by their own rule). The OpenAPI document gives such a
    field ``minLength: 1`` and every reader refuses ``""`` for it."""
    rule = field.rule
    return field.descriptor.type == FieldDescriptor.TYPE_STRING and not rule.choices and not rule.pattern


def own_members(endpoint: Endpoint) -> dict[str, FieldSpec]:
    """Return the body members an account operation's request declares itself: its fields
    that its path does not name, by name."""
    in_path = path_parameters(endpoint.path)
    fields = message_spec(endpoint.request_cls.DESCRIPTOR).fields
    return {name: field for name, field in fields.items() if name not in in_path}


def borrowed_request(endpoint: Endpoint) -> Descriptor | None:
    """Return the request whose parameters an account operation's body also takes
    (``(message).members_of``), or None."""
    descriptor = endpoint.request_cls.DESCRIPTOR
    members_of = descriptor.GetOptions().Extensions[options_pb2.message].members_of
    return descriptor.file.pool.FindMessageTypeByName(members_of) if members_of else None


def read_account_body(endpoint: Endpoint, body: Any) -> Any:
    """Return the JSON body of a call to an account operation (a POST or PATCH) once it keeps
    the operation's schema: the object as sent, or None when no body was sent (:data:`NO_BODY`).
    Raises 400 ``invalid_body`` (not an object, a JSON null) or ``invalid_parameter`` naming
    the member (see the module's docstring)."""
    own = own_members(endpoint)
    borrowed = borrowed_request(endpoint)
    if body is NO_BODY:
        return None
    if not own and borrowed is None:
        return _no_body(endpoint, body)
    if not isinstance(body, dict):
        raise InvalidBody(
            f"The body of {endpoint.http.gateway.method} {endpoint.path} must be a JSON object, not "
            f"{'null' if body is None else type(body).__name__}.",
            suggestion="Send a JSON object of the members the operation takes (see /docs).",
        )
    borrowed_fields = message_spec(borrowed).fields if borrowed is not None else {}
    refuse_unknown({**borrowed_fields, **own}, body, endpoint.path)
    removable = endpoint.http.gateway.method == "PATCH"
    refuse_nulls({name: value for name, value in body.items() if name in own or not removable})
    for name, value in body.items():
        if name in own:
            _check_own(own[name], value)
    sent = {name: value for name, value in body.items() if name in borrowed_fields and value is not None}
    if sent and borrowed is not None:
        # Each borrowed member as the borrowed request's own body reads it (its JSON types,
        # its empty items); its rules across members are checked with the whole request later.
        request_from_json(GetMessageClass(borrowed), sent, endpoint.path)
    return body


def _no_body(endpoint: Endpoint, body: Any) -> None:
    """Return None for the ``{}`` of an operation that takes no body; 400 for anything else."""
    if isinstance(body, dict) and body:
        name = str(next(iter(body)))[:40]
        raise InvalidParameter(
            f"Unknown member '{name}': {endpoint.http.gateway.method} {endpoint.path} takes no body.",
            suggestion="Send no body, or {}.",
            param=name,
        )
    if body != {}:
        raise InvalidBody(
            f"{endpoint.http.gateway.method} {endpoint.path} takes no body, and this one is "
            f"{'null' if body is None else 'not an empty object'}.",
            suggestion="Send no body, or {}.",
        )
    return None


def _check_own(field: FieldSpec, value: Any) -> None:
    """Check one member of an operation's own request against its schema (see the module's
    docstring); 400 ``invalid_parameter`` naming it."""
    if field.repeated:
        if not isinstance(value, list):
            raise InvalidParameter(
                f"'{field.name}' must be a JSON array.",
                suggestion=f'Send {field.name} as an array, e.g. ["{(field.rule.choices or ("..."))[0]}"].',
                param=field.name,
            )
        if not value and field.rule.required:
            raise InvalidParameter(
                f"'{field.name}' is an empty array.",
                suggestion=f"Send at least one item in {field.name}.",
                param=field.name,
            )
        refuse_empty_items(value, field.name)
        for item in value:
            item_text(field, item)
        return
    is_text = field.descriptor.type == FieldDescriptor.TYPE_STRING
    if isinstance(value, str) != is_text:
        raise wrong_json_type(field, value)
    scalar = json_scalar(field, value)
    if is_text:
        _check_text(field, value)
    elif field.is_numeric:
        check_range(field, scalar)


def _check_text(field: FieldSpec, value: str) -> None:
    if value == "" and refuses_empty_text(field):
        raise InvalidParameter(
            f"'{field.name}' is empty.", suggestion=f"Send a value for {field.name}, or leave it out.", param=field.name
        )
    limit = field.rule.max_length
    if limit and len(value) > limit:
        raise InvalidParameter(
            f"'{field.name}' holds {len(value)} characters; at most {limit} are allowed.",
            suggestion=f"Send a {field.name} of at most {limit} characters.",
            param=field.name,
        )
