"""The rules of a request, read from the proto options: required, one-of, ranges, choices,
vocabularies, defaults, and the message's reader, which applies the rules across fields and
returns its typed query.

:func:`validate` is the one reading of a request in a process: the gateway runs it before it
reserves credits and keeps what it returns (``meta.moment``); every service runs it on what it
receives and hands what it returns to the handler, so an internal consumer calling a service
over gRPC meets exactly the same rules, and each value is parsed once per process (the
reading keeps it, ``request_reading.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from celestial.v1 import options_pb2
from shared.errors import ConflictingParameters, InvalidParameter, MissingParameter
from shared.runtime.parameter_text import check_range, example_number, parse_scalar
from shared.runtime.presets import APPLIED, PRESETS_OF, preset_parameters
from shared.runtime.request_model import FieldSpec, bool_parameter, message_spec
from shared.runtime.request_reading import RequestReading
from shared.runtime.vocabularies import VOCABULARIES


def _describe_oneof(members: tuple[str, ...]) -> str:
    return " or ".join(members)


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
    # The message's (message).reader, or None.
    reader: Callable[[RequestReading], object] | None
    # The message takes preset= (shared/runtime/presets.py).
    takes_preset: bool


@cache
def _message_checks(descriptor: Descriptor) -> _MessageChecks:
    spec = message_spec(descriptor)
    reader = _message_reader(descriptor)
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
                vocabulary_check=VOCABULARIES[rule.vocabulary].check if rule.vocabulary else None,
                sent_with=rule.sent_with,
                excludes=rule.excludes,
                alternative=field.alternative,
                alternative_name=field.alternative_name,
            )
        )
    defaults = [check for check in checks if check.default is not None]
    # A field with no rule to apply (a plain flag, say) is not visited at all.
    ruled = [check for check in checks if _has_rule(check)]
    return _MessageChecks(
        required_oneofs=tuple(
            (name, members, spec.fields[members[0]]) for name, members in spec.required_oneofs.items()
        ),
        defaults=tuple(check for check in defaults if not check.path),
        fields=tuple(check for check in ruled if not check.path),
        flattened_defaults=tuple(check for check in defaults if check.path),
        flattened_fields=tuple(check for check in ruled if check.path),
        reader=reader,
        takes_preset=descriptor.full_name in PRESETS_OF,
    )


def _message_reader(descriptor: Descriptor) -> Callable[[RequestReading], object] | None:
    """Return the reader a request message names in ``(message).reader``, or None; an unknown
    name is a ValueError when the message is first validated (a contract the runtime cannot keep)."""
    from shared.runtime.request_readers import READERS  # the readers import this module

    name = descriptor.GetOptions().Extensions[options_pb2.message].reader
    if not name:
        return None
    if name not in READERS:
        raise ValueError(f"{descriptor.full_name}: unknown request reader {name!r}.")
    return READERS[name]


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


def validate(message: Message) -> RequestReading:
    """Apply the proto options' rules to ``message`` in place and return its reading.

    Fills defaults of absent fields, then checks one-of groups, required fields, ranges,
    choices and kernel vocabularies, then runs the message's reader, whose typed query the
    reading holds (``request_readers.py``). Raises MissingParameter, ConflictingParameters or
    InvalidParameter (or the vocabulary's or reader's own error, e.g. BodyNotFound,
    RangeTooLong) naming the parameter.
    """
    reading = RequestReading(message)
    checks = _apply_field_rules(reading, vocabularies=True)
    if checks.reader is not None:
        reading.query = checks.reader(reading)
    return reading


def _apply_field_rules(reading: RequestReading, *, vocabularies: bool) -> _MessageChecks:
    """Apply the field options' rules to the reading's message in place (its vocabularies too
    with ``vocabularies``) and return the message's checks."""
    message = reading.message
    checks = _message_checks(message.DESCRIPTOR)
    for _oneof_name, members, first in checks.required_oneofs:
        owner = first.owner(message) if first.path else message
        if owner.WhichOneof(first.descriptor.containing_oneof.name) is None:
            raise MissingParameter(
                f"One of {_describe_oneof(members)} is required.",
                suggestion=f"Send exactly one of {_describe_oneof(members)}.",
                param=members[0],
            )
    if checks.takes_preset and message.HasField("preset"):
        _apply_preset(reading)
    for check in checks.defaults:
        _fill_default(message, check)
    for check in checks.flattened_defaults:
        _fill_default(check.spec.owner(message), check)
    # Every plain rule (a range, a choice) before any vocabulary's check: a vocabulary may read
    # other parameters (tz=auto reads the place's coordinates), which must be in range by then.
    owned = [(message, check) for check in checks.fields]
    owned += [(check.spec.owner(message), check) for check in checks.flattened_fields]
    for owner, check in sorted(owned, key=lambda item: item[1].vocabulary_check is not None):
        _check_field(reading, owner, check, vocabularies)
    return checks


def _apply_preset(reading: RequestReading) -> None:
    """Set each parameter the request's preset gives and the request did not send (a parameter
    sent beats the preset; the preset beats the declared default), keep what it set on the
    reading (``meta.preset``) and write the preset's name back in its canonical spelling."""
    message = reading.message
    name, parameters = preset_parameters(message.DESCRIPTOR.full_name, message.preset)
    message.preset = name
    spec = message_spec(message.DESCRIPTOR)
    applied = {}
    for param, text in parameters.items():
        field = spec.fields[param]
        owner = field.owner(message)
        attr = field.field_name
        if field.repeated:
            if not getattr(owner, attr):
                applied[param] = _split_csv(text)
                getattr(owner, attr).extend(applied[param])
        elif not owner.HasField(attr):
            applied[param] = parse_scalar(field, text)
            setattr(owner, attr, applied[param])
    reading.kept(APPLIED, lambda: {"name": name, "applied": applied})


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


def _check_field(message: RequestReading, owner: Message, check: _FieldCheck, vocabularies: bool) -> None:
    """Check one field held by ``owner``, the reading's message or a flattened message in it."""
    name = check.name
    present = _is_present(owner, check)
    if check.alternative and _alternative_sent(message, check):
        if check.default is None:
            if present:
                raise ConflictingParameters(
                    f"{check.alternative_name} gives {name} (its town's); send one of them, not both.",
                    suggestion=f"Leave out {name}, or leave out {check.alternative_name}.",
                    param=check.alternative_name,
                )
            return
        # A defaulted value the town does not give (alt) is read as sent, so held to its range.
    if check.sent_with or check.excludes:
        _check_paired_field(message, owner, check, present)
    if not present:
        if check.required:
            example = f", e.g. {name}={example_number(check.spec)}" if check.spec.is_numeric else ""
            instead = f", or {check.alternative_name}=<a town's id from /v1/places>" if check.alternative else ""
            raise MissingParameter(f"'{name}' is required.", suggestion=f"Add {name}{example}{instead}.", param=name)
        if check.required_with and bool_parameter(message, check.required_with):
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
            suggestion=f"Send at most {check.max_items} items"
            + (", or split the request." if check.is_message else "."),
            param=name,
        )
    if check.is_message:
        # An item's values are read by its request's reader (astrocartography's targets):
        # here only its field rules apply.
        for item in values:
            _apply_field_rules(RequestReading(item), vocabularies=False)
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
        partner = next(
            f.name
            for f in message_spec(message.DESCRIPTOR).fields.values()
            if f.path == check.path and f.field_name == check.sent_with
        )
        given, missing = (check.name, partner) if present else (partner, check.name)
        raise MissingParameter(
            f"{given} needs {missing}: the two are sent together.",
            suggestion=f"Send both {given} and {missing}, or neither.",
            param=missing,
        )
    if check.excludes and present and getattr(owner, check.attr) and getattr(owner, check.excludes):
        other = next(
            f.name
            for f in message_spec(message.DESCRIPTOR).fields.values()
            if f.path == check.path and f.field_name == check.excludes
        )
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
