"""``Idempotency-Key`` on paid requests (issue 39; docs/idempotency.md): read the key, name the
request by its fingerprint, claim the key in the store, and replay, keep or forget the answer.

The pipeline (``gateway/paid_requests.py``) claims the key once the request has been read and
its parameters validated, before it is admitted or charged. The claim either holds the key
for this request (:class:`Held`: computed, charged and answered as usual, then
:meth:`Idempotency.complete` keeps the answer, or :meth:`Idempotency.release` forgets the
claim when the request charged nothing), or finds the first request's answer
(:class:`~store.idempotency_records.StoredAnswer`, replayed by :func:`replay_response`), or
refuses: 422 ``idempotency_key_reuse`` for another request, 409 ``idempotency_key_in_progress``
while the first still runs (the statuses of the IETF Idempotency-Key draft).

The free creations (``POST /v1/webhooks``, ``POST /v1/charts``) take a key too
(:func:`created_once`): a retry answers the first creation again instead of making a second
resource. Their keys are scoped by the key's mode (:func:`mode_scoped_key`), so a test key's
and a live key's requests never share a record.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson
import structlog
from google.protobuf.message import Message
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import Response

from gateway.errors import TRANSIENT_STORE_ERRORS, request_id_of
from gateway.key_modes import TEST_MODE
from gateway.middleware import new_request_id
from gateway.request_state import RequestState, request_state
from shared.errors import IdempotencyKeyInProgress, IdempotencyKeyReuse, InvalidBody, InvalidParameter
from store.idempotency_records import MAX_STORED_ANSWER_BYTES, StoredAnswer
from store.interfaces import IdempotencyRecords

log = structlog.get_logger("celestial.gateway")

#: The request header naming a paid request's key, and its length bounds (issue 39: 1-255).
IDEMPOTENCY_KEY_HEADER = "idempotency-key"
MAX_KEY_LENGTH = 255
#: The header every replayed answer carries (issue 39).
REPLAYED_HEADER = (b"idempotent-replayed", b"true")
#: Seconds a claim's lease runs past its request's deadline: the wait for its turn at the
#: service (at most CELESTIAL_QUEUE_WAIT_S, 5 s by default), the charge, the refund and the
#: store's round trips. A request still running past it has been stopped by its deadline.
LEASE_MARGIN_S = 10.0
#: Headers of the first answer that are not kept: the length (the replay's own body sets
#: it), and the request id, which the middleware stamps (the first's, on a replay).
_NOT_KEPT = frozenset({b"content-length"})
_PRINTABLE = frozenset(range(0x20, 0x7F))
#: The mode of a request made with a live key (a test key's is TEST_MODE).
LIVE_MODE = "live"


def idempotency_key(headers: Headers) -> str | None:
    """Return the request's ``Idempotency-Key``; None without one. Raises 400 for a key that
    is not 1-255 printable ASCII characters, or for more than one key."""
    values = headers.getlist(IDEMPOTENCY_KEY_HEADER)
    if not values:
        return None
    suggestion = (
        "Send one Idempotency-Key of 1 to 255 printable ASCII characters, e.g. a UUID, new for each new request."
    )
    if len(values) > 1:
        raise InvalidParameter(
            "The request carries more than one Idempotency-Key.", suggestion=suggestion, param="Idempotency-Key"
        )
    key = values[0]
    if not 1 <= len(key) <= MAX_KEY_LENGTH:
        raise InvalidParameter(
            f"The Idempotency-Key is {len(key)} characters long; it must be 1 to {MAX_KEY_LENGTH}.",
            suggestion=suggestion,
            param="Idempotency-Key",
        )
    if not all(ord(character) in _PRINTABLE for character in key):
        raise InvalidParameter(
            "The Idempotency-Key holds a character that is not printable ASCII.",
            suggestion=suggestion,
            param="Idempotency-Key",
        )
    return key


def fingerprint(method: str, path: str, canonical: bytes) -> str:
    """Return the SHA-256 hex digest naming a request: its method, path and canonical parameters."""
    return hashlib.sha256(b"\0".join((method.encode("ascii"), path.encode("utf-8"), canonical))).hexdigest()


def canonical_parameters(message: Message) -> bytes:
    """Return an endpoint request's parameters in one canonical form: the message the query or
    body was read into, serialized deterministically. The same parameters give the same bytes
    whatever their order in the query or the body, their spelling in JSON or their whitespace."""
    return message.SerializeToString(deterministic=True)


#: The deepest nesting orjson writes (its serializer's recursion limit; its parser takes 1,024).
MAX_CANONICAL_DEPTH = 254


def canonical_json(body: Any) -> bytes:
    """Return a JSON body (a batch's, a creation's) in one canonical form: keys sorted, no
    whitespace. Raises 400 ``invalid_body`` for a body nested deeper than
    :data:`MAX_CANONICAL_DEPTH`, which no request of the API needs."""
    try:
        return orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        raise InvalidBody(
            f"The body nests arrays and objects more than {MAX_CANONICAL_DEPTH} levels deep.",
            suggestion="Send the request's own members, as the reference shows them.",
        ) from None


@dataclass(frozen=True)
class Held:
    """A key this request holds: the account, the key and the claim's id."""

    account_id: str
    key: str
    claim_id: str


def recomputation(meta: dict[str, Any], **kept: Any) -> bytes:
    """Return what a record keeps of an answer above MAX_STORED_ANSWER_BYTES: the first
    answer's ``meta`` (and ``kept``, what else a replay cannot compute again), as JSON."""
    return orjson.dumps({"meta": meta, **kept})


class Idempotency:
    """Claims, completes and releases keys in the store (``IdempotencyRecords``)."""

    def __init__(self, store: IdempotencyRecords):
        self.store = store

    async def claim(self, account_id: str, key: str, request_fingerprint: str, lease_s: float) -> Held | StoredAnswer:
        """Return the claim this request now holds on ``key``, or the first request's answer.

        Raises 422 ``idempotency_key_reuse`` when the key names another request, 409
        ``idempotency_key_in_progress`` (Retry-After 1 s) while its first request runs.
        """
        claim_id = new_request_id()
        record = await self.store.claim_idempotency(account_id, key, request_fingerprint, claim_id, lease_s)
        if record.claim_id == claim_id:
            return Held(account_id, key, claim_id)
        if record.fingerprint != request_fingerprint:
            raise IdempotencyKeyReuse(
                "This Idempotency-Key was sent with another request (method, path or parameters) in the last 24 hours."
            )
        if record.in_progress:
            raise IdempotencyKeyInProgress("The first request with this Idempotency-Key is still running.")
        return record.answer

    async def complete(
        self, held: Held, response: Response, request_id: str, rate_limit_headers, recompute: bytes
    ) -> None:
        """Keep ``response`` as the key's answer, with the headers the client receives: its own,
        ``X-Request-Id`` (``request_id``) and the rate-limit headers. A body above
        MAX_STORED_ANSWER_BYTES is kept as ``recompute`` (:func:`recomputation`) instead.

        A store that cannot be reached leaves the claim in progress until its lease ends (a
        retry meanwhile hears 409 in progress, after it is computed and charged again); the
        answer is sent all the same.
        """
        headers = [
            (name.decode("latin-1"), value.decode("latin-1"))
            for name, value in response.raw_headers
            if name not in _NOT_KEPT
        ]
        headers.append(("x-request-id", request_id))
        headers += [(name.decode("latin-1"), value.decode("latin-1")) for name, value in rate_limit_headers]
        if len(response.body) > MAX_STORED_ANSWER_BYTES:
            answer = StoredAnswer(response.status_code, tuple(headers), recompute, recompute=True)
        else:
            answer = StoredAnswer(response.status_code, tuple(headers), bytes(response.body))
        try:
            await self.store.complete_idempotency(held.account_id, held.key, held.claim_id, answer)
        except TRANSIENT_STORE_ERRORS as error:
            log.warning("idempotency_answer_not_kept", error=type(error).__name__)

    async def release(self, held: Held) -> None:
        """Forget the claim of a request that charged nothing (refused, failed and refunded,
        or abandoned by its client), so a retry computes it; a store that cannot be reached
        leaves it to its lease."""
        try:
            await self.store.release_idempotency(held.account_id, held.key, held.claim_id)
        except TRANSIENT_STORE_ERRORS as error:
            log.warning("idempotency_claim_not_released", error=type(error).__name__)


def replay_response(answer: StoredAnswer, state: RequestState, body: bytes | None = None) -> Response:
    """Return the first answer again: its status, its headers as first sent (``X-Request-Id``
    included: the middleware stamps the first's, from ``state``) and ``Idempotent-Replayed:
    true``; its body, or ``body`` when it was computed again."""
    content = answer.body if body is None else body
    response = Response(content, status_code=answer.status)
    kept = []
    for name, value in answer.headers:
        if name == "x-request-id":
            state.answer_request_id = value
        else:
            kept.append((name.encode("latin-1"), value.encode("latin-1")))
    response.raw_headers = kept + [(b"content-length", str(len(content)).encode("ascii")), REPLAYED_HEADER]
    return response


def mode_scoped_key(key: str, mode: str) -> str:
    """Return what the store keeps ``key`` under for a request of key mode ``mode`` (live or
    test): the mode, a line feed, the key. A key holds printable ASCII only, so no client's key
    spells another's scoped key, and a test key's and a live key's never name one record."""
    return f"{mode}\n{key}"


def request_scoped_key(state: RequestState, key: str) -> str:
    """Return what the store keeps the request's ``key`` under: :func:`mode_scoped_key` in the
    mode of the API key that authenticated it (``state``), so a test answer never replays to a
    live key nor a live one to a test key (Stripe keeps the two apart likewise)."""
    return mode_scoped_key(key, TEST_MODE if state.test_mode else LIVE_MODE)


async def created_once(
    request: Request,
    idempotency: Idempotency,
    account_id: str,
    path: str,
    body: Any,
    lease_s: float,
    create: Callable[[], Awaitable[Response]],
) -> Response:
    """Return the answer of a free creation (``POST path`` with JSON ``body``) made at most once
    per ``Idempotency-Key``: without a key, what ``create()`` answers; with one, claimed per
    account and mode for ``lease_s`` seconds, the first creation's answer replayed byte for byte
    (``Idempotent-Replayed: true``, the first's ``X-Request-Id`` and rate-limit headers) to the
    same body, 422 ``idempotency_key_reuse`` to another, 409 ``idempotency_key_in_progress``
    while the first runs. A creation refused or failed keeps nothing: its key is free again.

    The request was admitted already (these routes count under the limits like any request),
    so a replay's own rate-limit headers give way to the first answer's.
    """
    key = idempotency_key(request.headers)
    if key is None:
        return await create()
    state = request_state(request)
    claimed = await idempotency.claim(
        account_id, request_scoped_key(state, key), fingerprint("POST", path, canonical_json(body)), lease_s
    )
    if isinstance(claimed, StoredAnswer):
        state.rate_limit_headers = []
        return replay_response(claimed, state)
    try:
        response = await create()
    except BaseException:
        await asyncio.shield(idempotency.release(claimed))
        raise
    # A creation's answer is a few KiB (its members are bounded), far below what a record holds.
    await idempotency.complete(claimed, response, request_id_of(request), state.rate_limit_headers, b"")
    return response
