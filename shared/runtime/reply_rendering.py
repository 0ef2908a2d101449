"""Protobuf replies to the JSON the API answers, from the response options (the gateway's
answers, ``gateway/envelope.py``, and the webhook worker's events, ``webhooks/events.py``,
render the same way). Kernel-free.

A scalar with presence that is unset is left out, or rendered as null when marked
``null_when_unset``; a message field marked ``always`` is rendered even unset; a message
marked ``union`` renders as its one set member (a string or bytes member marked with a
``media_type`` as a :class:`DocumentBody`, which the gateway answers as the whole body); an
empty repeated field marked ``omit_empty`` is left out.
"""

from __future__ import annotations

import base64
import keyword
from collections.abc import Callable
from typing import Any

from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from celestial.v1 import options_pb2

_RENDERERS: dict[Descriptor, Callable[[Message], Any]] = {}
JSON_VALUE_TYPES = {
    "google.protobuf.Value": {},
    "google.protobuf.ListValue": {"type": "array", "items": {}},
    "google.protobuf.Struct": {"type": "object"},
}


def render_message(message: Message) -> Any:
    """Return the JSON-ready value of a response message (dict, or a union's member)."""
    descriptor = message.DESCRIPTOR
    render = _RENDERERS.get(descriptor)
    if render is None:
        render = _RENDERERS[descriptor] = _compile(descriptor)
    return render(message)


def _compile(descriptor: Descriptor) -> Callable[[Message], Any]:
    """Return the renderer of one response message type, generated from its options.

    The renderer is Python source written from the descriptor (one statement per field,
    in declaration order, which is the JSON order) and compiled once per type: reading
    each field directly, with no call per field, makes rendering a reply markedly cheaper
    than interpreting it field by field (see docs/performance.md).
    """
    if descriptor.full_name in JSON_VALUE_TYPES:
        # google.protobuf.Value, ListValue and Struct hold plain JSON (GeoJSON coordinates):
        # rendered as that JSON, the way the protobuf JSON mapping defines them.
        return json_format.MessageToDict
    if is_columns(descriptor):
        return _compile_columns(descriptor)
    if descriptor.GetOptions().Extensions[options_pb2.message].union:
        oneof = descriptor.oneofs[0].name
        media_types = {
            fd.name: text_media_type(fd) for fd in descriptor.fields if fd.type != FieldDescriptor.TYPE_MESSAGE
        }
        binary = {fd.name for fd in descriptor.fields if fd.type == FieldDescriptor.TYPE_BYTES}

        def render_union(message: Message) -> Any:
            member = message.WhichOneof(oneof)
            if member is None:
                return None
            value = getattr(message, member)
            if member not in media_types:
                return render_message(value)
            media_type = media_types[member]
            if member in binary:
                return DocumentBody.of_bytes(value, media_type) if media_type else base64.b64encode(value).decode()
            return DocumentBody(value, media_type) if media_type else value

        return render_union
    namespace: dict[str, Any] = {"render_message": render_message}
    lines = ["def render(m):", "    out = {}"]
    for index, fd in enumerate(descriptor.fields):
        name = fd.name
        if not name.isidentifier():  # proto field names always are; the source relies on it
            raise ValueError(f"field name {name!r} of {descriptor.full_name} is not an identifier")
        # A field named like a Python keyword ("from") is read with getattr.
        read = f"getattr(m, {name!r})" if keyword.iskeyword(name) else f"m.{name}"
        options = fd.GetOptions().Extensions[options_pb2.render]
        if options.always and (
            fd.type != FieldDescriptor.TYPE_MESSAGE or fd.is_repeated or fd.containing_oneof is not None
        ):
            raise ValueError(f"{fd.full_name}: (render).always takes a singular message field outside a oneof")
        if fd.type == FieldDescriptor.TYPE_ENUM:
            namespace[f"names_{index}"] = {value.number: value.name.lower() for value in fd.enum_type.values}
        # A message of plain scalars is written as a dict literal of its fields, read once.
        literal = (
            fd.type == FieldDescriptor.TYPE_MESSAGE
            and not fd.is_repeated
            and _record_literal(fd.message_type, f"v{index}")
        )
        if fd.is_repeated:
            value = f"[{_item_source(fd, index, 'item')} for item in {read}]"
            condition = read if options.omit_empty else None
        else:
            value = literal or _item_source(fd, index, read)
            condition = (
                f"m.HasField({name!r})" if fd.has_presence and not _holds_columns(fd) and not options.always else None
            )
        assign = [f"v{index} = {read}"] * bool(literal) + [f"out[{name!r}] = {value}"]
        if condition is None:
            lines += [f"    {line}" for line in assign]
            continue
        lines += [f"    if {condition}:", *(f"        {line}" for line in assign)]
        if options.null_when_unset and not fd.is_repeated:
            lines += ["    else:", f"        out[{name!r}] = None"]
    lines.append("    return out")
    exec(compile("\n".join(lines), f"<renderer of {descriptor.full_name}>", "exec"), namespace)
    return namespace["render"]


class DocumentBody(str):
    """A document rendered from a string or bytes member with a ``(render).media_type``: the
    bytes the gateway answers as the body (``content``) and the media type they are served as.
    As a string, which is what JSON encoders see (a batch's data), it is the text of a text
    document and the base64 of a binary one (a PNG)."""

    media_type: str
    _content: bytes | None

    def __new__(cls, text: str, media_type: str) -> DocumentBody:
        body = super().__new__(cls, text)
        body.media_type = media_type
        body._content = None
        return body

    @classmethod
    def of_bytes(cls, content: bytes, media_type: str) -> DocumentBody:
        """Return the binary document ``content``: its string is the bytes in base64."""
        body = cls(base64.b64encode(content).decode(), media_type)
        body._content = content
        return body

    @property
    def content(self) -> bytes:
        """Return the document's bytes: a text document's UTF-8, a binary one's own bytes."""
        return self.encode() if self._content is None else self._content


def text_media_type(fd: FieldDescriptor) -> str:
    """Return the ``(render).media_type`` of a response field ("" for none)."""
    return fd.GetOptions().Extensions[options_pb2.render].media_type


def is_columns(descriptor: Descriptor) -> bool:
    """Return whether a response message is marked ``(message).columns``."""
    return descriptor.GetOptions().Extensions[options_pb2.message].columns


def _holds_columns(fd: FieldDescriptor) -> bool:
    return fd.type == FieldDescriptor.TYPE_MESSAGE and is_columns(fd.message_type)


def _compile_columns(descriptor: Descriptor) -> Callable[[Message], Any]:
    """Return the renderer of a ``(message).columns`` message: its parallel repeated scalar
    fields as a list of records, one per index (zip reads the packed columns in C)."""
    names = [fd.name for fd in descriptor.fields]
    if not all(
        fd.is_repeated and fd.type not in (FieldDescriptor.TYPE_MESSAGE, FieldDescriptor.TYPE_ENUM)
        for fd in descriptor.fields
    ):
        raise ValueError(f"{descriptor.full_name}: (message).columns takes repeated scalar fields only")
    values = [f"v{index}" for index in range(len(names))]
    record = "{" + ", ".join(f"{name!r}: {value}" for name, value in zip(names, values)) + "}"
    columns = ", ".join(f"m.{name}" for name in names)
    source = f"def render(m):\n    return [{record} for {', '.join(values)} in zip({columns})]"
    namespace: dict[str, Any] = {}
    exec(compile(source, f"<renderer of {descriptor.full_name}>", "exec"), namespace)
    return namespace["render"]


def _item_source(fd: FieldDescriptor, index: int, item: str) -> str:
    """Return the source of one value of field ``fd`` read as ``item``, rendered."""
    if fd.type == FieldDescriptor.TYPE_MESSAGE:
        return _record_literal(fd.message_type, item) or f"render_message({item})"
    if fd.type == FieldDescriptor.TYPE_ENUM:
        return f"names_{index}[{item}]"
    return item


def _record_literal(descriptor: Descriptor, item: str) -> str | None:
    """Return the source of a dict literal rendering a message of plain scalars read as
    ``item`` (an Instant: ``{'jd': item.jd, 'datetime': item.datetime}``), the same dict its
    own renderer makes; None for any other message. Written into the enclosing renderer, it
    saves a call per record, which a reply of thousands of periods or events feels."""
    options = descriptor.GetOptions().Extensions[options_pb2.message]
    if descriptor.full_name in JSON_VALUE_TYPES or options.columns or options.union:
        return None
    plain = all(
        not fd.is_repeated
        and not fd.has_presence
        and fd.type not in (FieldDescriptor.TYPE_MESSAGE, FieldDescriptor.TYPE_ENUM)
        and fd.name.isidentifier()
        and not keyword.iskeyword(fd.name)
        for fd in descriptor.fields
    )
    if not plain or not item.isidentifier():
        return None
    return "{" + ", ".join(f"{fd.name!r}: {item}.{fd.name}" for fd in descriptor.fields) + "}"
