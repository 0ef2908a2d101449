"""HTTP parameters to protobuf request messages: query strings and JSON bodies, by descriptor.

Type coercion, comma-separated lists, one-of members, unknown-parameter refusal and the
fields of flattened messages (set in the nested message, named as parameters of their own) all
follow the proto options (`shared/runtime/request_model.py`; `validation.py` applies the same rules); nothing here is
written per endpoint.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import orjson
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from shared.errors import ConflictingParameters, InvalidParameter
from shared.runtime.json_text import decode_json
from shared.runtime.name_or_id import taken_ids
from shared.runtime.parameter_text import checked_float, checked_integer, parse_scalar
from shared.runtime.request_model import CALCULATION_FLAGS, FieldSpec, message_spec


def request_from_query(message_cls: type[Message], items: Iterable[tuple[str, str]], path: str) -> Message:
    """Return a ``message_cls`` built from query-string pairs (names may repeat).

    A list parameter given twice is concatenated; a scalar given twice is refused.
    """
    grouped: dict[str, list[str]] = {}
    for name, value in items:
        grouped.setdefault(name, []).append(value)
    message = message_cls()
    spec = message_spec(message.DESCRIPTOR)
    refuse_unknown(spec.fields, grouped, path)
    _refuse_conflicts(spec.oneofs, grouped)
    for name, values in grouped.items():
        field = spec.fields[name]
        owner = field.owner(message)
        if field.is_message:
            if len(values) > 1:
                raise _given_twice(name)
            _set_message_from_json(owner, field, _parse_json_text(field, values[0]), path)
        elif field.repeated:
            getattr(owner, field.field_name).extend(_list_items(field, values))
        else:
            if len(values) > 1:
                raise _given_twice(name)
            value = parse_scalar(field, values[0])
            for holder in field.owners(message):  # a shared parameter goes to every value holding it
                setattr(holder, field.field_name, value)
    return message


def request_from_json(message_cls: type[Message], body: Any, path: str) -> Message:
    """Return a ``message_cls`` built from a JSON object body.

    Values may be native JSON (numbers, booleans, arrays) or the query-string form
    (strings, comma-separated lists). A JSON null, and an empty item of a JSON array, are
    refused (400 naming the member's path): the schema types neither, and reading them as left
    out would serve a request the client did not write.
    """
    message = message_cls()
    _fill_from_json(message, body, path)
    return message


def _fill_from_json(message: Message, body: Any, path: str, prefix: str = "") -> None:
    if not isinstance(body, dict):
        raise InvalidParameter(
            f"'{prefix.rstrip('.') or 'body'}' must be a JSON object.",
            suggestion='Send an object such as {"jd": 2451545.0, "bodies": "sun,moon"}.',
            param=prefix.rstrip(".") or None,
        )
    present = dict(body)
    spec = message_spec(message.DESCRIPTOR)
    refuse_unknown(spec.fields, present, path, prefix)
    refuse_nulls(present, prefix)
    _refuse_conflicts(spec.oneofs, present)
    for name, value in present.items():
        field = spec.fields[name]
        owner = field.owner(message)
        if prefix:
            # Inside a nested object an error names the whole path (targets[0].body), as the
            # client wrote it.
            field = replace(field, name=f"{prefix}{field.name}")
        if field.is_message:
            if isinstance(value, str):
                value = _parse_json_text(field, value)
            _set_message_from_json(owner, field, value, path, prefix)
        elif field.repeated:
            raw = value if isinstance(value, list) else [value]
            if isinstance(value, list):
                refuse_empty_items(value, f"{prefix}{name}")
            getattr(owner, field.field_name).extend(_list_items(field, [item_text(field, item) for item in raw]))
        else:
            scalar = json_scalar(field, value)
            for holder in field.owners(message):  # a shared parameter goes to every value holding it
                setattr(holder, field.field_name, scalar)


def _set_message_from_json(message: Message, field: FieldSpec, value: Any, path: str, prefix: str = "") -> None:
    name = field.name
    if field.repeated:
        if not isinstance(value, list):
            raise InvalidParameter(
                f"'{prefix}{name}' must be a JSON array of objects.",
                suggestion=f"Send {name} as [{{...}}, ...].",
                param=name,
            )
        if not value:
            # An empty list is not the list left out: it asks for nothing, which no endpoint
            # computes (astrocartography's targets: [] would otherwise fall back to its default).
            raise InvalidParameter(
                f"'{prefix}{name}' is an empty array.",
                suggestion=f"Send at least one item in {name}, or leave {name} out.",
                param=name,
            )
        container = getattr(message, field.field_name)
        for index, item in enumerate(value):
            _fill_from_json(container.add(), item, path, f"{prefix}{name}[{index}].")
    else:
        _fill_from_json(getattr(message, field.field_name), value, path, f"{prefix}{name}.")


def _parse_json_text(field: FieldSpec, text: str) -> Any:
    try:
        return decode_json(text, where=field.name)
    except orjson.JSONDecodeError:
        raise InvalidParameter(
            f"'{field.name}' must be JSON text; it could not be parsed.",
            suggestion=f"URL-encode a JSON array or object as the value of {field.name}.",
            param=field.name,
        ) from None


def item_text(field: FieldSpec, value: Any) -> str:
    """Return one JSON list item of ``field`` as query-string text: a string as it is, and a
    JSON number or boolean only where the item's own type is one (a number where the schema
    says string is the wrong type, so 400, not the text of the number)."""
    kind = field.descriptor.type
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        if kind == FieldDescriptor.TYPE_BOOL:
            return "true" if value else "false"
    elif isinstance(value, (int, float)) and kind != FieldDescriptor.TYPE_STRING and kind != FieldDescriptor.TYPE_ENUM:
        return repr(value) if isinstance(value, float) else str(value)
    raise InvalidParameter(
        f"An item of '{field.name}' has the wrong JSON type ({_json_type(value)}); its items are "
        f"{_type_name(field, plural=True)}.",
        suggestion=f"Send {field.name} as an array of {_type_name(field, plural=True)} or a comma-separated string.",
        param=field.name,
    )


def json_scalar(field: FieldSpec, value: Any):
    kind = field.descriptor.type
    if isinstance(value, str):
        return parse_scalar(field, value)
    ids = taken_ids(field.rule) if kind == FieldDescriptor.TYPE_STRING else None
    if ids is not None:
        return _id_text(field, value, ids)
    if kind == FieldDescriptor.TYPE_BOOL:
        # A JSON boolean, or the query-string form as text ("1", "false"): a JSON number is
        # neither (the document gives a boolean), so 0 and 1 as numbers are the wrong type.
        if isinstance(value, bool):
            return value
    elif kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return checked_float(field, float(value))
    elif field.is_numeric:
        if isinstance(value, int) and not isinstance(value, bool):
            return checked_integer(field, value)
        if isinstance(value, float) and value.is_integer():
            return checked_integer(field, int(value))
    raise wrong_json_type(field, value)


def wrong_json_type(field: FieldSpec, value: Any) -> InvalidParameter:
    """Return the 400 refusing ``value`` for ``field``: a JSON type other than the one the
    OpenAPI document gives the field."""
    quoted = ""
    if field.descriptor.type == FieldDescriptor.TYPE_STRING and isinstance(value, int) and not isinstance(value, bool):
        quoted = f' (in quotes: "{value}" if that is what you meant)'
    return InvalidParameter(
        f"'{field.name}' has the wrong JSON type ({_json_type(value)}); the OpenAPI document gives it as "
        f"{_type_name(field)}.",
        suggestion=f"Send {field.name} as {_type_name(field)}{quoted}.",
        param=field.name,
    )


def _id_text(field: FieldSpec, value: Any, ids: tuple[int, int]) -> str:
    """Return the text of an id sent as a JSON number to a "name or id" parameter, read then
    as its query-string form is. The whole numbers 0 and 1, and true and false, go through as
    their text, for the parameter's reader to refuse as booleans with its own message
    (decisions.md: booleans are true/false or 1/0); any other number outside ``ids``, or not
    whole, is refused here naming the range."""
    if isinstance(value, bool):
        return "true" if value else "false"
    whole = int(value) if isinstance(value, float) and value.is_integer() else value
    if isinstance(whole, int) and (whole in (0, 1) or ids[0] <= whole <= ids[1]):
        return str(whole)
    low, high = ids
    if isinstance(value, (int, float)):
        raise InvalidParameter(
            f"'{field.name}' takes a name, or an id as a JSON integer in [{low}, {high}]; got {value!r}.",
            suggestion=f"Send {field.name} as a name or a whole id from {low} to {high}.",
            param=field.name,
        )
    raise InvalidParameter(
        f"'{field.name}' has the wrong JSON type ({_json_type(value)}); the OpenAPI document gives it as a "
        f"string (a name) or an integer (an id in [{low}, {high}]).",
        suggestion=f"Send {field.name} as a name or a whole id from {low} to {high}.",
        param=field.name,
    )


def _json_type(value: Any) -> str:
    """Return the JSON name of the type of the decoded value ``value``."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _type_name(field: FieldSpec, *, plural: bool = False) -> str:
    """Return the JSON type a value of ``field`` has in the OpenAPI document, in words."""
    kind = field.descriptor.type
    if kind == FieldDescriptor.TYPE_BOOL:
        return "booleans" if plural else "true or false"
    if kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return "numbers" if plural else "a number"
    if field.is_numeric:
        return "integers" if plural else "an integer"
    return "strings" if plural else "a string"


def _list_items(field: FieldSpec, values: list[str]) -> list:
    items: list = []
    for value in values:
        parts = value.split(",") if field.rule.csv else [value]
        for part in parts:
            part = part.strip()
            if not part:
                continue
            items.append(parse_scalar(field, part) if field.descriptor.type != FieldDescriptor.TYPE_STRING else part)
    return items


def refuse_nulls(given: dict, prefix: str = "") -> None:
    """Refuse a member sent as JSON null: no request schema types null (a stored chart's or a
    webhook's PATCH, where null removes a member, is read elsewhere)."""
    for name, value in given.items():
        if value is None:
            raise InvalidParameter(
                f"'{prefix}{name}' is null; the OpenAPI document gives no parameter a null value.",
                suggestion=f"Leave the member {prefix}{name} out to use its default, or send a value.",
                param=f"{prefix}{name}",
            )


def refuse_empty_items(items: list, name: str) -> None:
    """Refuse an empty (or blank) string item of a JSON array, or a null one, naming its
    index: an item names one value, and dropping it would serve a list the client did not
    send."""
    for index, item in enumerate(items):
        if item is None or (isinstance(item, str) and not item.strip()):
            raise InvalidParameter(
                f"Item {index} of '{name}' is {'null' if item is None else 'empty'}.",
                suggestion=f"Remove the empty item {name}[{index}], or send a value there.",
                param=f"{name}[{index}]",
            )


def _given_twice(name: str) -> InvalidParameter:
    return InvalidParameter(
        f"'{name}' was given more than once.",
        suggestion=f"Send {name} once.",
        param=name,
    )


def refuse_unknown(fields: dict[str, FieldSpec], given: dict, path: str, prefix: str = "") -> None:
    for name in given:
        if name in fields:
            continue
        accepted = sorted(fields)
        if not prefix and name in CALCULATION_FLAGS:
            flags = [f for f in CALCULATION_FLAGS if f in fields]
            raise InvalidParameter(
                f"'{name}' is a calculation flag that {path} does not implement.",
                suggestion=(
                    f"Remove {name}; {path} accepts the flags {', '.join(flags)}."
                    if flags
                    else f"Remove {name}; {path} accepts no calculation flag."
                ),
                param=name,
            )
        close = difflib.get_close_matches(name, accepted, n=1)
        hint = f"Did you mean '{close[0]}'? " if close else ""
        raise InvalidParameter(
            f"Unknown parameter '{prefix}{name}' for {path}.",
            suggestion=f"{hint}Accepted parameters: {', '.join(accepted)}.",
            param=f"{prefix}{name}",
        )


def _refuse_conflicts(oneofs: dict[str, tuple[str, ...]], given: dict) -> None:
    for members in oneofs.values():
        sent = [m for m in members if m in given]
        if len(sent) > 1:
            raise ConflictingParameters(
                f"{' and '.join(sent)} were both given; they are alternatives.",
                suggestion=f"Send only one of {' or '.join(members)}.",
                param=sent[1],
            )
