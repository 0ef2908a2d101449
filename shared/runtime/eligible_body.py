"""Readers of a parameter that names bodies for a use of the body table (its field's
``(field).body_use``: the body of an ingress or a heliacal search, the bodies of a search for
stations): the bodies, eligible for that use. Validation checks it in the gateway before any
charge (the body vocabulary of such a field); the search service reads the body through it, so
the use is said once, in the proto, and a request's reading keeps what was read, so it is read
once per process.
"""

from __future__ import annotations

from functools import cache

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from kernel.bodies import USES, resolve_bodies, resolve_body
from shared.runtime.kernel_errors import BODY_ERRORS, naming
from shared.runtime.request_model import message_spec
from shared.runtime.request_reading import kept


@cache
def body_use(descriptor: Descriptor, name: str) -> str:
    """Return the body-table use the parameter ``name`` of a request message names ("" for
    none); a use the body table lacks is a ValueError (a contract the runtime cannot keep)."""
    use = message_spec(descriptor).fields[name].rule.body_use
    if use and use not in USES:
        raise ValueError(
            f"{descriptor.full_name}.{name}: unknown body use {use!r}; the body table's are {sorted(USES)}."
        )
    return use


def eligible_body(request: Message, name: str = "body") -> str:
    """Return the body the parameter ``name`` names, resolved (lowercase, an alias's spelling
    kept) and eligible for its field's use in the request's frame (heliocentric when the
    request says so): the errors of :func:`kernel.bodies.resolve_body`."""
    use = body_use(request.DESCRIPTOR, name)
    if not use:
        raise ValueError(f"{request.DESCRIPTOR.full_name}.{name} names no (field).body_use.")
    field = message_spec(request.DESCRIPTOR).fields[name]
    heliocentric = _heliocentric(request)

    def read() -> str:
        with naming(name, also=BODY_ERRORS):
            return resolve_body(getattr(field.owner(request), field.field_name), use, heliocentric=heliocentric)

    # A reading keeps it: validation's check reads it, the request's reader finds it.
    return kept(request, ("eligible_body", name, heliocentric), read)


def eligible_bodies(request: Message, name: str = "bodies") -> tuple[str, ...]:
    """Return the bodies the list parameter ``name`` names, groups expanded, each once, every
    one eligible for its field's use: the errors of :func:`kernel.bodies.resolve_bodies`."""
    use = body_use(request.DESCRIPTOR, name)
    if not use:
        raise ValueError(f"{request.DESCRIPTOR.full_name}.{name} names no (field).body_use.")
    field = message_spec(request.DESCRIPTOR).fields[name]
    heliocentric = _heliocentric(request)

    def read() -> tuple[str, ...]:
        with naming(name, also=BODY_ERRORS):
            return tuple(
                resolve_bodies(
                    list(getattr(field.owner(request), field.field_name)), heliocentric=heliocentric, use=use
                )
            )

    # A reading keeps them: validation's check reads them, the request's reader finds them.
    return kept(request, ("eligible_bodies", name, heliocentric), read)


def _heliocentric(request: Message) -> bool:
    flag = message_spec(request.DESCRIPTOR).fields.get("heliocentric")
    if flag is None or flag.descriptor.type != FieldDescriptor.TYPE_BOOL:
        return False
    return bool(getattr(flag.owner(request), flag.field_name))
