"""The request model read from the descriptors: each request message's parameters under
their HTTP names (the fields of flattened values spread out and renamed), their rules and
their one-of groups. The transcoder, the validation, the readers of values and the OpenAPI
document all read requests through it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from celestial.v1 import options_pb2

#: The calculation flags of interface.md's list: an endpoint that does not take one refuses it by name.
CALCULATION_FLAGS = ("sidereal", "equatorial", "speed", "no_nutation", "j2000", "topocentric", "heliocentric")

NUMERIC_TYPES = {
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
    # A `(field).shared` field's paths in every value that holds it, ``path`` first; a field
    # held once has only ``path``.
    shared_paths: tuple[tuple[str, ...], ...] = ()
    # The path of the field that gives this one's value in its stead (`(field).instead_of`:
    # a birth's place for its lat and lon), or empty.
    alternative: tuple[str, ...] = ()
    # That field's HTTP name (place, place_a), or "".
    alternative_name: str = ""

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
    def paths(self) -> tuple[tuple[str, ...], ...]:
        """Return the paths of every value holding this parameter (one but for a shared field)."""
        return self.shared_paths or (self.path,)

    def owners(self, message: Message) -> list[Message]:
        """Return every message holding this parameter (several for a ``(field).shared`` one)."""
        owners = []
        for path in self.paths:
            owner = message
            for name in path:
                owner = getattr(owner, name)
            owners.append(owner)
        return owners

    @property
    def repeated(self) -> bool:
        return self.descriptor.is_repeated

    @property
    def is_message(self) -> bool:
        return self.descriptor.type == FieldDescriptor.TYPE_MESSAGE

    @property
    def is_numeric(self) -> bool:
        return self.descriptor.type in NUMERIC_TYPES


@dataclass(frozen=True)
class MessageSpec:
    """The parameters and one-of groups of one request message, flattened values spread out.

    ``oneofs`` and ``required_oneofs`` map a group's key (its name, after the path of the value
    that holds it: ``start.value``) to its members' HTTP names.
    """

    fields: dict[str, FieldSpec]
    required_oneofs: dict[str, tuple[str, ...]]
    oneofs: dict[str, tuple[str, ...]]


@cache
def message_spec(descriptor: Descriptor) -> MessageSpec:
    """Return the cached :class:`MessageSpec` of a request message descriptor.

    The fields of a message field marked ``(field).flatten`` stand among the message's own
    fields, named by its ``flatten_names`` (their own names by default), with that field's
    name in their ``path``; the flattened field itself is not listed. Its ``required`` and
    ``required_with`` pass to the value's one-ofs and to its fields without a default.
    """
    spec = _spec(descriptor, (), "", options_pb2.FieldRule())
    names = {(*f.path, f.field_name): f.name for f in spec.fields.values()}
    for name, field in spec.fields.items():
        if field.alternative:
            spec.fields[name] = replace(field, alternative_name=names[field.alternative])
    return spec


def _spec(descriptor: Descriptor, path: tuple[str, ...], names: str, holder: options_pb2.FieldRule) -> MessageSpec:
    fields: dict[str, FieldSpec] = {}
    oneofs: dict[str, tuple[str, ...]] = {}
    required: dict[str, tuple[str, ...]] = {}
    keys = {od.name: ".".join((*path, od.name)) for od in descriptor.oneofs}
    for fd in descriptor.fields:
        rule = fd.GetOptions().Extensions[options_pb2.field]
        if rule.flatten and fd.type == FieldDescriptor.TYPE_MESSAGE and not fd.is_repeated:
            inner = _spec(fd.message_type, (*path, fd.name), rule.flatten_names, rule)
            alternative = _alternative_to(descriptor, fd.name)
            for name, field in inner.fields.items():
                outer = _outer_name(names, name, field)
                if alternative and not field.alternative:
                    field = replace(field, alternative=(*path, alternative))
                if outer in fields:
                    fields[outer] = _shared(fields[outer], field, descriptor)
                    continue
                fields[outer] = replace(field, name=outer, holders=(fd, *field.holders))
            renamed = {field.name: _outer_name(names, field.name, field) for field in inner.fields.values()}
            oneofs.update({key: tuple(renamed[m] for m in members) for key, members in inner.oneofs.items()})
            required.update({key: tuple(renamed[m] for m in members) for key, members in inner.required_oneofs.items()})
            continue
        oneof = keys[fd.containing_oneof.name] if fd.containing_oneof is not None and not _synthetic(fd) else None
        if (
            path
            and (holder.required or holder.required_with)
            and oneof is None
            and not rule.default
            and not rule.shared
            and not rule.instead_of
        ):
            rule = _with_presence_of(rule, holder)
        name = _outer_name(names, fd.name, None, primary=rule.primary, shared=rule.shared)
        if name in fields:
            raise ValueError(f"{descriptor.full_name}: field '{name}' clashes with another field.")
        fields[name] = FieldSpec(name, fd, rule, oneof, path)
    for od in descriptor.oneofs:
        if len(od.fields) == 1 and _synthetic(od.fields[0]):
            continue
        members = tuple(
            _outer_name(names, f.name, None, primary=f.GetOptions().Extensions[options_pb2.field].primary)
            for f in od.fields
        )
        oneofs[keys[od.name]] = members
        if od.GetOptions().Extensions[options_pb2.oneof].required or (path and holder.required):
            required[keys[od.name]] = members
    return MessageSpec(fields, required, oneofs)


def _alternative_to(descriptor: Descriptor, value: str) -> str | None:
    """Return the name of the field of ``descriptor`` that stands in for its field ``value``
    (``(field).instead_of``), or None."""
    for fd in descriptor.fields:
        if fd.GetOptions().Extensions[options_pb2.field].instead_of == value:
            return fd.name
    return None


def _shared(held: FieldSpec, another: FieldSpec, descriptor: Descriptor) -> FieldSpec:
    """Return ``held`` also held at ``another``'s path: the same ``(field).shared`` field of
    another value of the request. Raises ValueError for any other clash of names."""
    if not (held.rule.shared and another.rule.shared and held.descriptor is another.descriptor):
        raise ValueError(f"{descriptor.full_name}: flattened field '{held.name}' clashes with another field.")
    return replace(held, shared_paths=(*held.paths, *another.paths))


def _outer_name(
    names: str, name: str, field: FieldSpec | None, primary: bool | None = None, shared: bool = False
) -> str:
    """Return the HTTP name a flattened value's field ``name`` takes under ``names``.

    A shared field (``shared``, or ``field``'s rule) keeps its name under the names of its own
    value (``start``, ``target_{}``: every moment's tz is tz) and takes only the `{}` template
    of a value around it (a birth's ``{}_a``: tz_a)."""
    if shared:
        return name
    if not names:
        return name
    if "{}" in names:
        return names.replace("{}", name)
    if field is not None and field.rule.shared:
        return name
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


def bool_parameter(message: Message, name: str) -> bool:
    """Return the value of the bool parameter ``name`` of ``message`` (False when it has none)."""
    fd = message.DESCRIPTOR.fields_by_name.get(name)
    if fd is not None:
        return fd.type == FieldDescriptor.TYPE_BOOL and bool(getattr(message, name))
    # Not a field of the message itself: perhaps one of a flattened message in it.
    field = message_spec(message.DESCRIPTOR).fields.get(name)
    if field is None or field.descriptor.type != FieldDescriptor.TYPE_BOOL:
        return False
    return bool(getattr(field.owner(message), field.field_name))
