"""Parameter values as text (a query string, or a string in a JSON body) to the types of
their protobuf fields: JSON's number grammar, booleans, the widths of integer types, and a
numeric field's declared range."""

from __future__ import annotations

import math
import re

from google.protobuf.descriptor import Descriptor, FieldDescriptor

from shared.errors import InvalidParameter
from shared.runtime.request_model import NUMERIC_TYPES, FieldSpec, message_spec

#: The whole numbers each protobuf integer type can hold: (lowest, highest, its name).
INTEGER_WIDTHS: dict[int, tuple[int, int, str]] = {
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1, "int32"),
    FieldDescriptor.TYPE_SINT32: (-(2**31), 2**31 - 1, "int32"),
    FieldDescriptor.TYPE_SFIXED32: (-(2**31), 2**31 - 1, "int32"),
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1, "uint32"),
    FieldDescriptor.TYPE_FIXED32: (0, 2**32 - 1, "uint32"),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1, "int64"),
    FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1, "int64"),
    FieldDescriptor.TYPE_SFIXED64: (-(2**63), 2**63 - 1, "int64"),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1, "uint64"),
    FieldDescriptor.TYPE_FIXED64: (0, 2**64 - 1, "uint64"),
}

#: A number as JSON writes it (RFC 8259 section 6): no sign '+', no leading zeros, no
#: whitespace, no '_', ASCII digits only, no inf/nan, no hexadecimal.
JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?", re.ASCII)


def parse_scalar(spec: FieldSpec, text: str):
    """Return ``text`` (query-string form) converted to the field's Python type.

    Numbers follow the JSON number grammar (:data:`JSON_NUMBER`); an integer field takes one
    with a whole value that its protobuf type can hold. Booleans are true/false (any case)
    or 1/0, without surrounding whitespace. Raises InvalidParameter naming the field when
    the text is not of that type.
    """
    fd = spec.descriptor
    kind = fd.type
    if kind == FieldDescriptor.TYPE_BOOL:
        lowered = text.lower()
        if lowered in ("true", "1"):
            return True
        if lowered in ("false", "0"):
            return False
        raise InvalidParameter(
            f"'{spec.name}' must be a boolean, got '{text}'.",
            suggestion=f"Send {spec.name}=true or {spec.name}=false (1 and 0 also work).",
            param=spec.name,
        )
    if kind in NUMERIC_TYPES:
        value = float(text) if JSON_NUMBER.fullmatch(text) else None
        if kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
            if value is None:
                raise InvalidParameter(
                    f"'{spec.name}' must be a number as JSON writes it, got '{text}'.",
                    suggestion=f"Send a decimal number, e.g. {spec.name}={example_number(spec)}.",
                    param=spec.name,
                )
            return checked_float(spec, value)
        if value is not None and text.lstrip("-").isdigit() and len(text) <= 4000:
            return checked_integer(spec, int(text))  # exact (int() stops at 4300 digits)
        if value is None or not value.is_integer():
            raise InvalidParameter(
                f"'{spec.name}' must be a whole number, got '{text}'.",
                suggestion=f"Send an integer, e.g. {spec.name}={example_number(spec, integer=True)}.",
                param=spec.name,
            )
        return checked_integer(spec, int(value))
    if kind == FieldDescriptor.TYPE_STRING:
        return text
    raise InvalidParameter(f"'{spec.name}' cannot be given as text.", param=spec.name)


def checked_float(spec: FieldSpec, value: float) -> float:
    """Return ``value`` when it is finite; else raise InvalidParameter naming the field."""
    if not math.isfinite(value):
        raise InvalidParameter(
            f"'{spec.name}' must be a finite number, got {value!r}.",
            suggestion=f"Send a decimal number, e.g. {spec.name}={example_number(spec)}.",
            param=spec.name,
        )
    return value


def checked_integer(spec: FieldSpec, value: int) -> int:
    """Return ``value`` when the field's protobuf integer type can hold it.

    Otherwise raise InvalidParameter naming the field and the range it accepts: the field's
    own range when its rule gives one that excludes the value, else its type's range.
    """
    low, high, type_name = INTEGER_WIDTHS[spec.descriptor.type]
    if low <= value <= high:
        return value
    check_range(spec, value)
    raise InvalidParameter(
        f"'{spec.name}' must be a whole number from {low} to {high} ({type_name}); got {value}.",
        suggestion=f"Send a value of {spec.name} between {low} and {high}.",
        param=spec.name,
    )


def example_number(spec: FieldSpec, integer: bool = False) -> str:
    rule = spec.rule
    if rule.default:
        return rule.default
    if rule.has_min and rule.has_max:
        value = (rule.min + rule.max) / 2
        return str(int(value)) if integer else f"{value:g}"
    return "1" if integer else "1.5"


def check_range(field: FieldSpec, value: float) -> None:
    rule = field.rule
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidParameter(f"'{field.name}' must be a finite number.", param=field.name)
    low_ok = not rule.has_min or (value > rule.min if rule.min_exclusive else value >= rule.min)
    high_ok = not rule.has_max or (value < rule.max if rule.max_exclusive else value <= rule.max)
    if low_ok and high_ok:
        return
    low = f"{'(' if rule.min_exclusive else '['}{rule.min:g}" if rule.has_min else "(-inf"
    high = f"{rule.max:g}{')' if rule.max_exclusive else ']'}" if rule.has_max else "inf)"
    # The value as sent, never rounded: 360.0001 must not read as the bound 360.
    shown = (
        repr(value)
        if isinstance(value, float) and not value.is_integer()
        else f"{value:g}"
        if isinstance(value, float)
        else str(value)
    )
    raise InvalidParameter(
        f"'{field.name}' must lie in {low}, {high}; got {shown}.",
        suggestion=f"Send a value of {field.name} within {low}, {high}.",
        param=field.name,
    )


def declared_default(descriptor: Descriptor, name: str):
    """Return the default a request message declares for its parameter ``name`` (its
    ``(field).default``), parsed: a list of the items for a list parameter, else a value of
    the field's type."""
    field = message_spec(descriptor).fields[name]
    if field.repeated:
        return [part.strip() for part in field.rule.default.split(",") if part.strip()]
    return parse_scalar(field, field.rule.default)
