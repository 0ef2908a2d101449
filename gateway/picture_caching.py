"""HTTP caching of the pictures the API answers (issue 51): a picture (a chart wheel's SVG or
PNG) is a pure function of its request and of the server's versions, so a GET answered with
one carries an ``ETag`` naming that request and a ``Cache-Control``, and a GET whose
``If-None-Match`` names the current tag is answered ``304 Not Modified``, without computing
the picture again.

- The tag is the SHA-256 of the request's canonical form (the request message after the
  defaults are filled in, as the service reads it, deterministically serialized: the same
  parameters give the same tag whatever their order, spelling or omitted defaults), its path
  and the versions an answer is made with (``meta.version``: the API's, the build's, Swiss
  Ephemeris' and the tz database's), the digest of the code that draws it (a release that
  draws differently changes the tag, whatever the build's number), the PNG's rasteriser's (resvg's binding) and zlib's
  (which deflates the PNG). It is of the request only, never of the account or key that sent it: it
  tells a holder nothing the request it was sent with does not, and every account's tag of
  the same request is the same.
- ``Cache-Control: public, max-age=86400`` for a picture of parameters sent in the request
  (every wheel's moments are given: no kind draws "now"); ``private, no-cache`` for one naming
  a stored chart (``chart``, ``chart_a``, ``chart_b``): the chart can be changed, and it is the
  account's, so only the client keeps it, and asks again each time (the tag is of the chart's
  parameters as read, so an unchanged chart is answered 304).
- A 304 costs no credits (only a 2xx costs credits: spec/decisions.md) and counts under the
  account's rate limit like any request.
"""

from __future__ import annotations

import functools
import hashlib
import re
import zlib

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from celestial.v1 import options_pb2
from gateway.code_digest import code_digest
from gateway.version import answer_version
from shared.pictures.png import RASTERISER
from shared.runtime.reply_rendering import text_media_type
from shared.runtime.stored_chart_parameters import stored_chart_names

#: How long a shared or private cache may keep a picture of fixed parameters without asking
#: again, in seconds: a day, so that a new release (whose tag differs) reaches every cache
#: within a day.
MAX_AGE_S = 86_400
#: The Cache-Control of a picture of parameters the request itself sends.
FIXED = f"public, max-age={MAX_AGE_S}"
#: The Cache-Control of a picture of a stored chart: the chart may change; revalidate each time.
STORED = "private, no-cache"

#: One entity tag in an If-None-Match list (RFC 9110 section 8.8.3): weak or strong, quoted.
_ENTITY_TAG = re.compile(r'(?:W/)?"([\x21\x23-\x7e\x80-\xff]*)"')


@functools.cache
def picture_formats(response: Descriptor) -> frozenset[str]:
    """Return the ``format`` values whose answer is a picture: the members of the response's
    union ``data`` whose ``(render).media_type`` is an ``image/`` type (``svg``, ``png``)."""
    formats = set()
    for field in response.fields:
        if field.type != FieldDescriptor.TYPE_MESSAGE:
            continue
        if not field.message_type.GetOptions().Extensions[options_pb2.message].union:
            continue
        formats |= {member.name for member in field.message_type.fields if text_media_type(member).startswith("image/")}
    return frozenset(formats)


def answers_a_picture(message: Message, response: Descriptor) -> bool:
    """Return whether the validated request ``message`` is answered with a picture (its
    ``format``, default filled in, names a picture member of ``response``)."""
    fields = message.DESCRIPTOR.fields_by_name
    return "format" in fields and message.format in picture_formats(response)


def _versions() -> bytes:
    """Return the versions a picture is drawn with, as bytes: ``meta.version``'s, the digest
    of the code that draws it (gateway/code_digest.py), the PNG's rasteriser's and zlib's (a
    PNG's IDAT is deflated by Python's zlib: shared/pictures/png_encoding.py)."""
    versions = {
        **answer_version(),
        "code": code_digest(),
        "rasteriser": RASTERISER,
        "zlib": zlib.ZLIB_RUNTIME_VERSION,
    }
    return "\n".join(f"{name}={value}" for name, value in sorted(versions.items())).encode()


def entity_tag(path: str, message: Message) -> str:
    """Return the strong ``ETag`` field value (quoted) of the picture answering the validated
    request ``message`` at ``path``: 32 hexadecimal digits (128 bits) of the SHA-256 of the
    versions, the path and the message serialized deterministically."""
    canonical = message.SerializeToString(deterministic=True)
    digest = hashlib.sha256(b"\0".join((_versions(), path.encode(), canonical))).hexdigest()
    return f'"{digest[:32]}"'


def cache_control(request_cls: type[Message], sent: set[str]) -> str:
    """Return the ``Cache-Control`` of a picture requested with the parameter names ``sent``:
    :data:`STORED` when one names a stored chart, :data:`FIXED` otherwise."""
    return STORED if set(stored_chart_names(request_cls)) & sent else FIXED


def none_match(if_none_match: str | None, tag: str) -> bool:
    """Return whether an ``If-None-Match`` field value matches ``tag`` (RFC 9110 section
    13.1.2: ``*``, or a list naming the tag, compared weakly: ``W/`` is ignored)."""
    if if_none_match is None:
        return False
    if if_none_match.strip() == "*":
        return True
    return tag.strip('"') in _ENTITY_TAG.findall(if_none_match)
