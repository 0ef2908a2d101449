"""Contract validation read from the proto options: required, one-of, ranges, choices, defaults.

The gateway runs :func:`validate` before it reserves credits, and every service runs it again
on what it receives, so an internal consumer calling a service over gRPC meets exactly the
same rules. Applying it twice is harmless: defaults are only filled where a field is absent.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from celestial.v1 import options_pb2
from shared.errors import ConflictingParameters, InvalidParameter, MissingParameter

CALCULATION_FLAGS = ("sidereal", "equatorial", "speed", "no_nutation", "j2000", "topocentric", "heliocentric")

_NUMERIC_TYPES = {
    FieldDescriptor.TYPE_DOUBLE,
    FieldDescriptor.TYPE_FLOAT,
    FieldDescriptor.TYPE_INT32,
    FieldDescriptor.TYPE_INT64,
    FieldDescriptor.TYPE_UINT32,
    FieldDescriptor.TYPE_UINT64,
    FieldDescriptor.TYPE_SINT32,
    FieldDescriptor.TYPE_SINT64,
    FieldDescriptor.TYPE_FIXED32,
    FieldDescriptor.TYPE_FIXED64,
    FieldDescriptor.TYPE_SFIXED32,
    FieldDescriptor.TYPE_SFIXED64,
}

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


@dataclass(frozen=True)
class FieldSpec:
    """One request parameter with its rule, as the transcoder and validator need it."""

    # The parameter's HTTP name: the field's own name, or the one (field).flatten_names gives it.
    name: str
    descriptor: FieldDescriptor
    rule: options_pb2.FieldRule
    # The key of its one-of group in MessageSpec.oneofs, or None.
    oneof: str | None
    # Names of the flattened message fields that hold this one, outermost first; empty for a
    # field of the request itself.
    path: tuple[str, ...] = ()
    # The descriptors of those flattened fields, outermost first (their comments describe
    # the value: "Range start", "The natal moment").
    holders: tuple[FieldDescriptor, ...] = ()

    @property
    def field_name(self) -> str:
        """Return the protobuf field's own name (what getattr and HasField take)."""
        return self.descriptor.name

    def owner(self, message: Message) -> Message:
        """Return the message that holds this field: ``message`` itself or a flattened one in it."""
        for name in self.path:
            message = getattr(message, name)
        return message

    @property
    def repeated(self) -> bool:
        return self.descriptor.is_repeated

    @property
    def is_message(self) -> bool:
        return self.descriptor.type == FieldDescriptor.TYPE_MESSAGE

    @property
    def is_numeric(self) -> bool:
        return self.descriptor.type in _NUMERIC_TYPES


@dataclass(frozen=True)
class MessageSpec:
    """The parameters and one-of groups of one request message, flattened values spread out.

    ``oneofs`` and ``required_oneofs`` map a group's key (its name, after the path of the value
    that holds it: ``start.value``) to its members' HTTP names.
    """

    fields: dict[str, FieldSpec]
    required_oneofs: dict[str, tuple[str, ...]]
    oneofs: dict[str, tuple[str, ...]]


@lru_cache(maxsize=None)
def message_spec(descriptor: Descriptor) -> MessageSpec:
    """Return the cached :class:`MessageSpec` of a request message descriptor.

    The fields of a message field marked ``(field).flatten`` stand among the message's own
    fields, named by its ``flatten_names`` (their own names by default), with that field's
    name in their ``path``; the flattened field itself is not listed. Its ``required`` and
    ``required_with`` pass to the value's one-ofs and to its fields without a default.
    """
    return _spec(descriptor, (), "", options_pb2.FieldRule())


def _spec(descriptor: Descriptor, path: tuple[str, ...], names: str, holder: options_pb2.FieldRule) -> MessageSpec:
    fields: dict[str, FieldSpec] = {}
    oneofs: dict[str, tuple[str, ...]] = {}
    required: dict[str, tuple[str, ...]] = {}
    keys = {od.name: ".".join((*path, od.name)) for od in descriptor.oneofs}
    for fd in descriptor.fields:
        rule = fd.GetOptions().Extensions[options_pb2.field]
        if rule.flatten and fd.type == FieldDescriptor.TYPE_MESSAGE and not fd.is_repeated:
            inner = _spec(fd.message_type, (*path, fd.name), rule.flatten_names, rule)
            for name, field in inner.fields.items():
                outer = _outer_name(names, name, field)
                if outer in fields:
                    raise ValueError(f"{descriptor.full_name}: flattened field '{outer}' clashes with another field.")
                fields[outer] = replace(field, name=outer, holders=(fd, *field.holders))
            renamed = {field.name: _outer_name(names, field.name, field) for field in inner.fields.values()}
            oneofs.update({key: tuple(renamed[m] for m in members) for key, members in inner.oneofs.items()})
            required.update({key: tuple(renamed[m] for m in members) for key, members in inner.required_oneofs.items()})
            continue
        oneof = keys[fd.containing_oneof.name] if fd.containing_oneof is not None and not _synthetic(fd) else None
        if path and (holder.required or holder.required_with) and oneof is None and not rule.default:
            rule = _with_presence_of(rule, holder)
        name = _outer_name(names, fd.name, None, primary=rule.primary)
        if name in fields:
            raise ValueError(f"{descriptor.full_name}: field '{name}' clashes with another field.")
        fields[name] = FieldSpec(name, fd, rule, oneof, path)
    for od in descriptor.oneofs:
        if len(od.fields) == 1 and _synthetic(od.fields[0]):
            continue
        members = tuple(_outer_name(names, f.name, None, primary=f.GetOptions().Extensions[options_pb2.field].primary) for f in od.fields)
        oneofs[keys[od.name]] = members
        if od.GetOptions().Extensions[options_pb2.oneof].required or (path and holder.required):
            required[keys[od.name]] = members
    return MessageSpec(fields, required, oneofs)


def _outer_name(names: str, name: str, field: FieldSpec | None, primary: bool | None = None) -> str:
    """Return the HTTP name a flattened value's field ``name`` takes under ``names``."""
    if not names:
        return name
    if "{}" in names:
        return names.replace("{}", name)
    is_primary = field.rule.primary if field is not None else bool(primary)
    return names if is_primary else f"{names}_{name}"


def _with_presence_of(rule: options_pb2.FieldRule, holder: options_pb2.FieldRule) -> options_pb2.FieldRule:
    """Return ``rule`` made required (or required with a flag) as the value holding it is."""
    combined = options_pb2.FieldRule()
    combined.CopyFrom(rule)
    combined.required = combined.required or holder.required
    if holder.required_with and not combined.required:
        combined.required_with = holder.required_with
    return combined


def _synthetic(fd: FieldDescriptor) -> bool:
    """True for the hidden one-member oneof that proto3 `optional` creates."""
    oneof = fd.containing_oneof
    return oneof is not None and oneof.name == "_" + fd.name and len(oneof.fields) == 1


def _describe_oneof(members: tuple[str, ...]) -> str:
    return " or ".join(members)


# Vocabulary checks live in the kernel; they are looked up lazily so that importing this
# module stays cheap and free of cycles.
def _check_bodies(values: list[str], param: str, message: Message) -> None:
    from shared.kernel.bodies import resolve_bodies

    heliocentric = _bool_field(message, "heliocentric")
    resolve_bodies(list(values), heliocentric=heliocentric, param=param)


def _check_body(values: list[str], param: str, message: Message) -> None:
    from shared.kernel.bodies import resolve_bodies

    resolve_bodies(list(values), heliocentric=_bool_field(message, "heliocentric"), param=param)


def _check_house_system(values: list[str], param: str, message: Message) -> None:
    from shared.kernel.houses import parse_house_system

    for value in values:
        parse_house_system(value, param=param)


def _check_ayanamsha(values: list[str], param: str, message: Message) -> None:
    from shared.kernel.ayanamshas import parse_ayanamsha

    for value in values:
        parse_ayanamsha(value, param=param)


def _check_aspects(values: list[str], param: str, message: Message) -> None:
    from shared.kernel.aspects import parse_aspect_types

    parse_aspect_types(list(values), param=param)


def _check_datetime(values: list[str], param: str, message: Message) -> None:
    from shared.kernel.timescale import Moment

    for value in values:
        Moment.from_iso(value, param=param)


def _check_julian_day(values: list[float], param: str, message: Message) -> None:
    from shared.kernel.timescale import Moment

    for value in values:
        Moment.from_jd_ut1(value, param=param)


_VOCABULARY_CHECKS: dict[int, Callable[[list[str], str, Message], None]] = {
    options_pb2.VOCABULARY_BODIES: _check_bodies,
    options_pb2.VOCABULARY_BODY: _check_body,
    options_pb2.VOCABULARY_HOUSE_SYSTEM: _check_house_system,
    options_pb2.VOCABULARY_AYANAMSHA: _check_ayanamsha,
    options_pb2.VOCABULARY_ASPECTS: _check_aspects,
    options_pb2.VOCABULARY_DATETIME: _check_datetime,
    options_pb2.VOCABULARY_JULIAN_DAY: _check_julian_day,
}


def _bool_field(message: Message, name: str) -> bool:
    """Return the value of the bool parameter ``name`` of ``message`` (False when it has none)."""
    fd = message.DESCRIPTOR.fields_by_name.get(name)
    if fd is not None:
        return fd.type == FieldDescriptor.TYPE_BOOL and bool(getattr(message, name))
    # Not a field of the message itself: perhaps one of a flattened message in it.
    field = message_spec(message.DESCRIPTOR).fields.get(name)
    if field is None or field.descriptor.type != FieldDescriptor.TYPE_BOOL:
        return False
    return bool(getattr(field.owner(message), field.field_name))


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
    if kind in _NUMERIC_TYPES:
        value = float(text) if JSON_NUMBER.fullmatch(text) else None
        if kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
            if value is None:
                raise InvalidParameter(
                    f"'{spec.name}' must be a number as JSON writes it, got '{text}'.",
                    suggestion=f"Send a decimal number, e.g. {spec.name}={_example_number(spec)}.",
                    param=spec.name,
                )
            return checked_float(spec, value)
        if value is not None and text.lstrip("-").isdigit() and len(text) <= 4000:
            return checked_integer(spec, int(text))  # exact (int() stops at 4300 digits)
        if value is None or not value.is_integer():
            raise InvalidParameter(
                f"'{spec.name}' must be a whole number, got '{text}'.",
                suggestion=f"Send an integer, e.g. {spec.name}={_example_number(spec, integer=True)}.",
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
            suggestion=f"Send a decimal number, e.g. {spec.name}={_example_number(spec)}.",
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
    _check_range(spec, value)
    raise InvalidParameter(
        f"'{spec.name}' must be a whole number from {low} to {high} ({type_name}); got {value}.",
        suggestion=f"Send a value of {spec.name} between {low} and {high}.",
        param=spec.name,
    )


def _example_number(spec: FieldSpec, integer: bool = False) -> str:
    rule = spec.rule
    if rule.default:
        return rule.default
    if rule.has_min and rule.has_max:
        value = (rule.min + rule.max) / 2
        return str(int(value)) if integer else f"{value:g}"
    return "1" if integer else "1.5"


@dataclass(frozen=True)
class _FieldCheck:
    """One field's rule read out of its options once, as plain values (options are slow to read)."""

    spec: FieldSpec
    name: str  # the HTTP name, for messages
    attr: str  # the protobuf field's name, for getattr
    path: tuple[str, ...]  # the flattened message fields that hold it (FieldSpec.path)
    repeated: bool
    has_presence: bool
    default: object  # the parsed default (a tuple for a list), or None when there is none
    required: bool
    required_with: str
    is_message: bool
    max_items: int
    range_checked: bool  # numeric with a min or a max, or a float (finite check)
    is_string: bool
    choices: tuple[str, ...]
    vocabulary_check: Callable[[list[str], str, Message], None] | None
    sent_with: str  # (field).sent_with and (field).excludes: protobuf field names in the same owner
    excludes: str


@dataclass(frozen=True)
class _MessageChecks:
    # Required one-of groups: (name, members, the FieldSpec of the first member).
    required_oneofs: tuple[tuple[str, tuple[str, ...], FieldSpec], ...]
    # The request's own fields and, apart, those of flattened messages: only the latter
    # need their holder looked up, so a request without any pays nothing for them.
    defaults: tuple[_FieldCheck, ...]
    fields: tuple[_FieldCheck, ...]
    flattened_defaults: tuple[_FieldCheck, ...]
    flattened_fields: tuple[_FieldCheck, ...]
    # The message's (message).rules, as the readers that apply them.
    rules: tuple[Callable[[Message], object], ...]


@lru_cache(maxsize=None)
def _message_checks(descriptor: Descriptor) -> _MessageChecks:
    spec = message_spec(descriptor)
    checks = []
    for field in spec.fields.values():
        rule = field.rule
        fd = field.descriptor
        default = None
        if rule.default and field.oneof is None:
            default = tuple(_split_csv(rule.default)) if field.repeated else parse_scalar(field, rule.default)
        is_float = fd.type in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT)
        checks.append(
            _FieldCheck(
                spec=field,
                name=field.name,
                attr=field.field_name,
                path=field.path,
                repeated=field.repeated,
                has_presence=fd.has_presence,
                default=default,
                required=rule.required,
                required_with=rule.required_with,
                is_message=field.is_message,
                max_items=rule.max_items,
                range_checked=field.is_numeric and (rule.has_min or rule.has_max or is_float),
                is_string=fd.type == FieldDescriptor.TYPE_STRING,
                choices=tuple(rule.choices),
                vocabulary_check=_VOCABULARY_CHECKS.get(rule.vocabulary),
                sent_with=rule.sent_with,
                excludes=rule.excludes,
            )
        )
    defaults = [check for check in checks if check.default is not None]
    # A field with no rule to apply (a plain flag, say) is not visited at all.
    ruled = [check for check in checks if _has_rule(check)]
    return _MessageChecks(
        required_oneofs=tuple((name, members, spec.fields[members[0]]) for name, members in spec.required_oneofs.items()),
        defaults=tuple(check for check in defaults if not check.path),
        fields=tuple(check for check in ruled if not check.path),
        flattened_defaults=tuple(check for check in defaults if check.path),
        flattened_fields=tuple(check for check in ruled if check.path),
        rules=_message_rules(descriptor),
    )


def _message_rules(descriptor: Descriptor) -> tuple[Callable[[Message], object], ...]:
    """Return the readers of a request message's ``(message).rules``; an unknown name is a
    ValueError when the message is first validated (a contract the runtime cannot keep)."""
    from shared.runtime.request_rules import RULES  # the readers import this module

    names = descriptor.GetOptions().Extensions[options_pb2.message].rules
    unknown = [name for name in names if name not in RULES]
    if unknown:
        raise ValueError(f"{descriptor.full_name}: unknown request rules {unknown}.")
    return tuple(RULES[name] for name in names)


def _has_rule(check: _FieldCheck) -> bool:
    return bool(
        check.required
        or check.required_with
        or check.max_items
        or check.is_message
        or check.range_checked
        or check.is_string
        or check.sent_with
        or check.excludes
    )


def validate(message: Message, *, vocabularies: bool = True) -> Message:
    """Apply the proto options' rules to ``message`` in place and return it.

    Fills defaults of absent fields, then checks one-of groups, required fields, ranges,
    choices and kernel vocabularies, then the message's rules across fields
    (``shared/runtime/request_rules.py``). Raises MissingParameter, ConflictingParameters or
    InvalidParameter (or the vocabulary's or rule's own error, e.g. BodyNotFound,
    RangeTooLong) naming the parameter. A service passes ``vocabularies=False``: its handler
    reads those values and calls those rules' readers anyway, with the same errors, so they
    are read once.
    """
    checks = _message_checks(message.DESCRIPTOR)
    for oneof_name, members, first in checks.required_oneofs:
        owner = first.owner(message) if first.path else message
        if owner.WhichOneof(first.descriptor.containing_oneof.name) is None:
            raise MissingParameter(
                f"One of {_describe_oneof(members)} is required.",
                suggestion=f"Send exactly one of {_describe_oneof(members)}.",
                param=members[0],
            )
    for check in checks.defaults:
        _fill_default(message, check)
    for check in checks.flattened_defaults:
        _fill_default(check.spec.owner(message), check)
    for check in checks.fields:
        _check_field(message, message, check, vocabularies)
    for check in checks.flattened_fields:
        _check_field(message, check.spec.owner(message), check, vocabularies)
    if vocabularies:
        for rule in checks.rules:
            rule(message)
    return message


def _fill_default(owner: Message, check: _FieldCheck) -> None:
    if not _is_present(owner, check):
        if check.repeated:
            getattr(owner, check.attr).extend(check.default)
        else:
            setattr(owner, check.attr, check.default)


def _is_present(message: Message, check: _FieldCheck) -> bool:
    if check.repeated:
        return len(getattr(message, check.attr)) > 0
    if check.has_presence:
        return message.HasField(check.attr)
    return True


def _split_csv(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _check_field(message: Message, owner: Message, check: _FieldCheck, vocabularies: bool) -> None:
    """Check one field held by ``owner``, which is ``message`` or a flattened message in it."""
    name = check.name
    present = _is_present(owner, check)
    if check.sent_with or check.excludes:
        _check_paired_field(message, owner, check, present)
    if not present:
        if check.required:
            raise MissingParameter(
                f"'{name}' is required.",
                suggestion=f"Add {name}" + (f", e.g. {name}={_example_number(check.spec)}." if check.spec.is_numeric else "."),
                param=name,
            )
        if check.required_with and _bool_field(message, check.required_with):
            raise MissingParameter(
                f"'{name}' is required when {check.required_with}=true.",
                suggestion=f"Add {name}, or drop {check.required_with}=true.",
                param=name,
            )
        return
    value = getattr(owner, check.attr)
    values = list(value) if check.repeated else [value]
    if check.max_items and len(values) > check.max_items:
        raise InvalidParameter(
            f"'{name}' holds {len(values)} items; at most {check.max_items} are allowed.",
            suggestion=f"Send at most {check.max_items} items" + (", or split the request." if check.is_message else "."),
            param=name,
        )
    if check.is_message:
        for item in values:
            validate(item, vocabularies=vocabularies)
        return
    if check.range_checked:
        for item in values:
            _check_range(check.spec, item)
    if check.vocabulary_check is not None and not check.is_string and vocabularies:
        check.vocabulary_check(values, name, message)
    if check.is_string:
        if check.choices:
            for item in values:
                if item not in check.choices:
                    raise InvalidParameter(
                        f"'{name}' must be one of {', '.join(check.choices)}; got '{item}'.",
                        suggestion=f"Use one of: {', '.join(check.choices)}.",
                        param=name,
                    )
        if check.vocabulary_check is not None:
            if vocabularies:
                check.vocabulary_check(values, name, message)
        elif not check.choices:
            for item in values:
                if not item.strip():
                    raise InvalidParameter(
                        f"'{name}' must not be empty.",
                        suggestion=f"Send a value for {name}, or leave it out.",
                        param=name,
                    )


def _check_paired_field(message: Message, owner: Message, check: _FieldCheck, present: bool) -> None:
    """Apply a field's rules about another field of its own message: ``(field).sent_with``
    (sent alone, its partner is missing_parameter) and ``(field).excludes`` (a bool true with
    the other true is invalid_parameter naming this one). Returns None when both hold."""
    if check.sent_with and present != owner.HasField(check.sent_with):
        partner = next(f.name for f in message_spec(message.DESCRIPTOR).fields.values() if f.path == check.path and f.field_name == check.sent_with)
        given, missing = (check.name, partner) if present else (partner, check.name)
        raise MissingParameter(
            f"{given} needs {missing}: the two are sent together.",
            suggestion=f"Send both {given} and {missing}, or neither.",
            param=missing,
        )
    if check.excludes and present and getattr(owner, check.attr) and getattr(owner, check.excludes):
        other = next(f.name for f in message_spec(message.DESCRIPTOR).fields.values() if f.path == check.path and f.field_name == check.excludes)
        raise InvalidParameter(
            f"{check.name}=true and {other}=true cannot be sent together.",
            suggestion=f"Send only one of {check.name} and {other}.",
            param=check.name,
        )


def _check_range(field: FieldSpec, value: float) -> None:
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
    shown = repr(value) if isinstance(value, float) and not value.is_integer() else f"{value:g}" if isinstance(value, float) else str(value)
    raise InvalidParameter(
        f"'{field.name}' must lie in {low}, {high}; got {shown}.",
        suggestion=f"Send a value of {field.name} within {low}, {high}.",
        param=field.name,
    )


def credit_cost(http: options_pb2.HttpEndpoint, message: Message) -> int:
    """Return the credits a request costs: the base cost, or a conditional cost that applies."""
    for conditional in http.conditional_credits:
        fd = message.DESCRIPTOR.fields_by_name.get(conditional.field)
        if fd is None:
            continue
        value = getattr(message, conditional.field)
        text = str(value).lower() if fd.type == FieldDescriptor.TYPE_BOOL else str(value)
        if fd.is_repeated:
            text = ",".join(str(v) for v in value)
        if text == conditional.equals:
            return conditional.credits
    return http.credits


__all__ = [
    "CALCULATION_FLAGS",
    "ConflictingParameters",
    "FieldSpec",
    "INTEGER_WIDTHS",
    "JSON_NUMBER",
    "MessageSpec",
    "checked_float",
    "checked_integer",
    "credit_cost",
    "message_spec",
    "parse_scalar",
    "validate",
]
