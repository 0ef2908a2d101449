"""The rules of a request, read from the proto options: required, one-of, ranges, choices,
vocabularies, defaults, and the message's rules across fields.

The gateway runs :func:`validate` before it reserves credits. Every service runs it again on
what it receives with ``vocabularies=False``: the field options' rules again, while the
vocabularies and the message's rules are applied by the readers its handler reads the request
with, so an internal consumer calling a service over gRPC meets exactly the same rules, each
value parsed once. Applying it twice is harmless: defaults are only filled where a field is
absent.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from celestial.v1 import options_pb2
from shared.errors import ConflictingParameters, InvalidParameter, MissingParameter
from shared.runtime.parameter_text import check_range, example_number, parse_scalar
from shared.runtime.request_model import FieldSpec, message_spec

def _describe_oneof(members: tuple[str, ...]) -> str:
    return " or ".join(members)


# Vocabulary checks live in the kernel; they are looked up lazily so that importing this
# module stays cheap and free of cycles.
def _check_bodies(values: list[str], param: str, message: Message) -> None:
    from shared.kernel.bodies import resolve_bodies
    from shared.runtime.eligible_body import body_use, eligible_bodies

    if body_use(message.DESCRIPTOR, param):
        eligible_bodies(message, param)
        return
    heliocentric = _bool_field(message, "heliocentric")
    resolve_bodies(list(values), heliocentric=heliocentric, param=param)


def _check_body(values: list[str], param: str, message: Message) -> None:
    from shared.kernel.bodies import resolve_bodies
    from shared.runtime.eligible_body import body_use, eligible_body

    if body_use(message.DESCRIPTOR, param):
        eligible_body(message, param)
        return
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


def _check_moment(values: list, param: str, message: Message) -> None:
    # Only the Moment value carries the datetime and jd vocabularies: read the moment holding
    # the parameter as the service reads it (UTC, or the civil time of the request's tz, with
    # its skipped and doubled times; a jd sent with tz).
    from shared.runtime.wire import read_moment

    read_moment(message, ".".join(message_spec(message.DESCRIPTOR).fields[param].path))


def _check_time_zone(values: list[str], param: str, message: Message) -> None:
    from shared.kernel.civil_time import AUTO_ZONE, zone_named

    for value in values:
        if value != AUTO_ZONE:
            zone_named(value, param=param)


def _check_place(values: list[str], param: str, message: Message) -> None:
    from shared.kernel.places import town_from_parameter

    for value in values:
        town_from_parameter(value, param=param)


_VOCABULARY_CHECKS: dict[int, Callable[[list[str], str, Message], None]] = {
    options_pb2.VOCABULARY_BODIES: _check_bodies,
    options_pb2.VOCABULARY_BODY: _check_body,
    options_pb2.VOCABULARY_HOUSE_SYSTEM: _check_house_system,
    options_pb2.VOCABULARY_AYANAMSHA: _check_ayanamsha,
    options_pb2.VOCABULARY_ASPECTS: _check_aspects,
    options_pb2.VOCABULARY_DATETIME: _check_moment,
    options_pb2.VOCABULARY_JULIAN_DAY: _check_moment,
    options_pb2.VOCABULARY_TIME_ZONE: _check_time_zone,
    options_pb2.VOCABULARY_PLACE: _check_place,
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
    read_by_rule: bool  # a rule of the message reads this parameter, and checks its vocabulary itself
    alternative: tuple[str, ...]  # the path of the field that gives this one in its stead, or ()
    alternative_name: str  # that field's HTTP name


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
    rules, read = _message_rules(descriptor)
    checks = []
    for field in spec.fields.values():
        rule = field.rule
        fd = field.descriptor
        default = None
        if rule.default and field.oneof is None and not rule.default_by_reader:
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
                read_by_rule=(field.path[0] if field.path else field.field_name) in read,
                alternative=field.alternative,
                alternative_name=field.alternative_name,
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
        rules=rules,
    )


def _message_rules(descriptor: Descriptor) -> tuple[tuple[Callable[[Message], object], ...], frozenset[str]]:
    """Return the readers of a request message's ``(message).rules`` and the parameters they
    read; an unknown name is a ValueError when the message is first validated (a contract the
    runtime cannot keep)."""
    from shared.runtime.request_rules import READS, RULES  # the readers import this module

    names = descriptor.GetOptions().Extensions[options_pb2.message].rules
    unknown = [name for name in names if name not in RULES]
    if unknown:
        raise ValueError(f"{descriptor.full_name}: unknown request rules {unknown}.")
    return tuple(RULES[name] for name in names), frozenset(value for name in names for value in READS.get(name, ()))


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
    if check.alternative and _alternative_sent(message, check):
        if present and check.default is None:
            raise ConflictingParameters(
                f"{check.alternative_name} gives {name} (its town's); send one of them, not both.",
                suggestion=f"Leave out {name}, or leave out {check.alternative_name}.",
                param=check.alternative_name,
            )
        return
    if check.sent_with or check.excludes:
        _check_paired_field(message, owner, check, present)
    if not present:
        if check.required:
            example = f", e.g. {name}={example_number(check.spec)}" if check.spec.is_numeric else ""
            instead = f", or {check.alternative_name}=<a town's id from /v1/places>" if check.alternative else ""
            raise MissingParameter(f"'{name}' is required.", suggestion=f"Add {name}{example}{instead}.", param=name)
        if check.required_with and _bool_field(message, check.required_with):
            raise MissingParameter(
                f"'{name}' is required when {check.required_with}=true.",
                suggestion=f"Add {name}, or drop {check.required_with}=true.",
                param=name,
            )
        return
    value = getattr(owner, check.attr)
    values = list(value) if check.repeated else [value]
    # A value a rule of the message reads is parsed there, once: its vocabulary is left to it.
    vocabularies = vocabularies and not check.read_by_rule
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
            check_range(check.spec, item)
    if check.vocabulary_check is not None and not check.is_string and vocabularies:
        check.vocabulary_check(values, name, message)
    if check.is_string:
        if check.choices:
            _canonical_choices(owner, check, values)
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


def _alternative_sent(message: Message, check: _FieldCheck) -> bool:
    holder = message
    for name in check.alternative[:-1]:
        holder = getattr(holder, name)
    return holder.HasField(check.alternative[-1])


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


def _canonical_choices(owner: Message, check: _FieldCheck, values: list[str]) -> None:
    """Check each value of a field with fixed choices, in any case (decisions.md: vocabularies
    are case-insensitive), and write back the canonical spelling the services compare with."""
    canonical = {choice.lower(): choice for choice in check.choices}
    chosen = []
    for item in values:
        choice = canonical.get(item.lower())
        if choice is None:
            raise InvalidParameter(
                f"'{check.name}' must be one of {', '.join(check.choices)}; got '{item}'.",
                suggestion=f"Use one of: {', '.join(check.choices)} (any case).",
                param=check.name,
            )
        chosen.append(choice)
    if chosen == values:
        return
    if check.repeated:
        container = getattr(owner, check.attr)
        del container[:]
        container.extend(chosen)
    else:
        setattr(owner, check.attr, chosen[0])
