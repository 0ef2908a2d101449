"""Protobuf replies to the spec's JSON envelope ``{data, meta, warnings?}`` and error body.

Rendering follows the response options: a scalar with presence that is unset is left out,
or rendered as null when marked ``null_when_unset``; a message marked ``union`` renders as
its one set member; an empty repeated field marked ``omit_empty`` is left out.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from celestial.v1 import options_pb2
from shared.errors import CelestialError

_OMIT = object()


@lru_cache(maxsize=None)
def _plan(descriptor: Descriptor) -> tuple[bool, tuple[tuple[str, Callable[[Message], Any]], ...]]:
    """Return (is_union, per-field getters) for one response message type."""
    is_union = descriptor.GetOptions().Extensions[options_pb2.message].union
    getters = tuple((fd.name, _getter(fd)) for fd in descriptor.fields)
    return is_union, getters


def _getter(fd: FieldDescriptor) -> Callable[[Message], Any]:
    name = fd.name
    render = fd.GetOptions().Extensions[options_pb2.render]
    is_message = fd.type == FieldDescriptor.TYPE_MESSAGE
    is_enum = fd.type == FieldDescriptor.TYPE_ENUM
    if fd.is_repeated:
        omit_empty = render.omit_empty
        if is_message:
            def get_list(msg: Message) -> Any:
                items = getattr(msg, name)
                if omit_empty and not items:
                    return _OMIT
                return [render_message(item) for item in items]
        elif is_enum:
            enum = fd.enum_type
            def get_list(msg: Message) -> Any:
                items = getattr(msg, name)
                if omit_empty and not items:
                    return _OMIT
                return [enum.values_by_number[v].name.lower() for v in items]
        else:
            def get_list(msg: Message) -> Any:
                items = getattr(msg, name)
                if omit_empty and not items:
                    return _OMIT
                return list(items)
        return get_list
    absent = None if render.null_when_unset else _OMIT
    if is_message:
        def get_message(msg: Message) -> Any:
            if not msg.HasField(name):
                return absent
            return render_message(getattr(msg, name))
        return get_message
    if is_enum:
        enum = fd.enum_type
        def get_enum(msg: Message) -> Any:
            if fd.has_presence and not msg.HasField(name):
                return absent
            return enum.values_by_number[getattr(msg, name)].name.lower()
        return get_enum
    if fd.has_presence:
        def get_optional(msg: Message) -> Any:
            if not msg.HasField(name):
                return absent
            return getattr(msg, name)
        return get_optional
    return lambda msg: getattr(msg, name)


def render_message(message: Message) -> Any:
    """Return the JSON-ready value of a response message (dict, or a union's member)."""
    is_union, getters = _plan(message.DESCRIPTOR)
    if is_union:
        oneof = message.DESCRIPTOR.oneofs[0].name
        member = message.WhichOneof(oneof)
        return render_message(getattr(message, member)) if member else None
    out: dict[str, Any] = {}
    for name, get in getters:
        value = get(message)
        if value is not _OMIT:
            out[name] = value
    return out


def success_body(reply: Message, meta: dict[str, Any]) -> dict[str, Any]:
    """Return ``{data, meta, warnings?}`` for a service reply (its ``data`` and ``warnings``)."""
    _, getters = _plan(reply.DESCRIPTOR)
    data_getter = dict(getters)["data"]
    data = data_getter(reply)
    body: dict[str, Any] = {"data": None if data is _OMIT else data, "meta": meta}
    warnings = list(getattr(reply, "warnings", ()))
    if warnings:
        body["warnings"] = warnings
    return body


def error_body(errors: list[CelestialError], request_id: str) -> dict[str, Any]:
    """Return the spec's error body ``{errors: [...], meta: {request_id}}``."""
    return {"errors": [error.as_dict() for error in errors], "meta": {"request_id": request_id}}
