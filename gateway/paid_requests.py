"""The paid-request pipeline: authenticate, read and validate, admit under the limits and
charge, call the service, render the envelope; refund on any failure.

:class:`Gateway` holds what one gateway process shares (the store, the authenticator, the
accounting, the service pools) and serves ``/v1`` requests through it (``/v1/batch`` pays for
its sub-requests through it too: ``gateway/paid_batches.py``); ``gateway/app.py`` assembles the
application around it.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import math
import time
from collections.abc import Coroutine, Mapping
from typing import Any, TypeVar

import orjson
from starlette.requests import Request
from starlette.responses import Response

from celestial.v1 import options_pb2, search_service_pb2
from gateway import credit_metrics, pool_metrics
from gateway.account_api import UsageCache, usage_cache_s
from gateway.accounting import Accounting, credit_cost, rate_limit_headers, refusal
from gateway.auth import KeyAuthenticator
from gateway.endpoints import Endpoint
from gateway.envelope import success_body
from gateway.errors import request_id_of
from gateway.fair_share import FairShare, Overloaded, TurnNotCome
from gateway.idempotency import (
    LEASE_MARGIN_S,
    Held,
    Idempotency,
    canonical_parameters,
    fingerprint,
    idempotency_key,
    recomputation,
    replay_response,
    request_scoped_key,
)
from gateway.json_body import read_json_body
from gateway.json_response import json_response
from gateway.key_modes import (
    TEST_MODE,
    limits_for_test_keys,
    request_computations,
)
from gateway.middleware import new_request_id
from gateway.picture_caching import answers_a_picture, cache_control, entity_tag, none_match
from gateway.request_state import RequestState, request_state
from gateway.rpc import Pool, ServicePool
from gateway.spend_warnings import mail_spend_warnings
from gateway.stored_charts import expand_body, expand_query
from gateway.version import answer_version
from shared.errors import (
    CelestialError,
    ClientGone,
    DeadlineExceeded,
    InvalidBody,
    NotImplementedEndpoint,
    ServiceUnavailable,
    TooManyConcurrentRequests,
)
from shared.runtime.config import SERVICE_NAMES, Settings
from shared.runtime.heliacal_event import heliacal_search_stopped
from shared.runtime.pool_channel import channel_target
from shared.runtime.presets import applied_preset
from shared.runtime.reply_rendering import DocumentBody
from shared.runtime.request_reading import RequestReading
from shared.runtime.transcoder import request_from_json, request_from_query
from shared.runtime.validation import validate
from shared.runtime.wire import local_readings, relocated_meta
from store.idempotency_records import StoredAnswer
from store.interfaces import Store
from store.records import Account, Admission, ChargeNote, KeyRecord
from webhooks.account_slots import AccountSlots
from webhooks.egress import Resolver, system_resolver

T = TypeVar("T")

#: The share of its deadline a call may be expected to wait for its turn before it is refused at once.
WAIT_SHARE_OF_DEADLINE = 0.1


async def read_parameters(request: Request, endpoint: Endpoint, account: Account, store: Store):
    """Return the request message built from the query string (GET) or the JSON body (POST),
    a stored chart it names (``chart=<id>``) read into the birth's parameters."""
    request_cls = endpoint.request_cls
    if request.method == "GET":
        items = await expand_query(request.query_params.multi_items(), request_cls, account.id, store)
        return request_from_query(request_cls, items, endpoint.path)
    body = await read_json_body(request, get_offered=not endpoint.http.post_only)
    if body is None:
        return request_cls()
    if not isinstance(body, dict):
        raise InvalidBody(f"The body must be a JSON object, not a JSON {type(body).__name__}.")
    return request_from_json(request_cls, await expand_body(body, request_cls, account.id, store), endpoint.path)


class Gateway:
    """The shared resources of one gateway process (built in the lifespan)."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        endpoints: list[Endpoint],
        pools: Mapping[str, Pool] | None = None,
        resolve: Resolver = system_resolver,
    ):
        self.settings = settings
        self.store = store
        # How a webhook URL's host becomes addresses to check (webhooks/egress.py); the tests
        # answer from a table, so that no test asks a real resolver.
        self.resolve = resolve
        self.authenticator = KeyAuthenticator(store, store, cache_seconds=settings.key_cache_s)
        self.accounting = Accounting(store, store, lambda warnings: mail_spend_warnings(store, settings, warnings))
        self.idempotency = Idempotency(store)
        # /v1/usage's figures, per account and query, at most CELESTIAL_USAGE_CACHE_S old (<= 60 s).
        self.usage_cache = UsageCache(usage_cache_s(settings.usage_cache_s))
        self.endpoints = {endpoint.path: endpoint for endpoint in endpoints}
        # /v1/webhooks/{id}/test deliveries in flight per account in this process (the worker's bound).
        self.webhook_slots = AccountSlots(settings.webhook_account_concurrency)
        # Each pool's processes x queue is what it holds; its processes what it computes at once.
        # A pool named by one DNS name (a headless Service) is planned for the replicas the name
        # answers (gateway/pool_replicas.py calls plan_for), CELESTIAL_<SERVICE>_PROCESSES until
        # it first answers and the most ever planned for (a full replica refuses and the
        # channel tries another).
        self.processes = {name: planned_processes(settings, name) for name in SERVICE_NAMES}
        self.shares = {
            name: FairShare(self.processes[name] * settings.service_queue, self.processes[name])
            for name in SERVICE_NAMES
        }
        # A bounded call (positions, houses: milliseconds, computed on the service process's
        # own loop, never queued behind its compute child) has a lane of its own at each pool:
        # counted in the child's share, one account's PNG wheels or scans filling it would make
        # another account's positions wait for one of them to end (docs/performance.md).
        self.bounded_shares = {
            name: FairShare(self.processes[name] * settings.service_queue, self.processes[name])
            for name in SERVICE_NAMES
        }
        pool_metrics.watch(self)
        self.pools = (
            dict(pools)
            if pools is not None
            else {
                name: ServicePool(
                    name,
                    settings.service_addresses[name],
                    keepalive_s=settings.service_keepalive_s,
                    ping_timeout_s=settings.service_ping_timeout_s,
                )
                for name in SERVICE_NAMES
            }
        )

    def plan_for(self, service: str, replicas: int) -> None:
        """Plan ``service``'s pool for ``replicas`` processes (at least 1): an account's scans in
        flight, and both its shares' capacity and expected waits (``FairShare.resize``)."""
        replicas = max(1, replicas)
        self.processes[service] = replicas
        self.shares[service].resize(replicas)
        self.bounded_shares[service].resize(replicas)

    async def close(self) -> None:
        await self.accounting.drain()
        for pool in self.pools.values():
            await pool.close()

    def deadline_s(self, endpoint: Endpoint) -> float:
        """Return the seconds a call of ``endpoint`` may run: its deadline class's."""
        if endpoint.http.deadline == options_pb2.DEADLINE_CLASS_ENGINE_SEARCH:
            return self.settings.engine_search_deadline_s
        return self.settings.scan_deadline_s if endpoint.scan else self.settings.fast_deadline_s

    async def authenticate(self, request: Request) -> Account:
        """Return the request's account; 401/403 for the key and origin, 503 while the store
        is unreachable."""
        return (await self.authenticate_key(request))[0]

    async def authenticate_key(self, request: Request) -> tuple[Account, KeyRecord]:
        """Return the request's account and key record, as :meth:`authenticate` checks them."""
        account, key = await self.authenticator.authenticate(request.headers, request.headers.get("origin"))
        request_state(request).authenticated(key)
        return account, key

    async def admit(self, state: RequestState, account: Account, *, computations: int = 1, slots: int = 1) -> None:
        """Admit the request under its account's limits, holding a concurrency slot.

        Raises 429 when the limits refuse it, 503 while the store is unreachable. From here on
        the response carries the X-RateLimit-* headers (the middleware adds them from the
        request state) and :meth:`release` must follow. A test key's request is admitted under
        the test limits, counting ``computations`` and holding ``slots`` slots
        (``gateway/key_modes.py``); a live key's counts 1 and holds 1 whatever they say.
        """
        slot_id = new_request_id()
        if not state.test_mode:
            computations = slots = 1
        admission = await self.accounting.admit(
            account, slot_id, test=state.test_mode, computations=computations, slots=slots
        )
        self._admitted(state, admission, slot_id, slots)

    @staticmethod
    def _admitted(state: RequestState, admission: Admission, slot_id: str, slots: int = 1) -> None:
        """Record an admission in the request state (its headers, the slots it holds); 429 if refused."""
        state.rate_limit_headers = rate_limit_headers(admission)
        if not admission.allowed:
            raise refusal(admission)
        state.held_slot, state.held_slots = slot_id, slots

    def release(self, account: Account, state: RequestState) -> None:
        """Give back the concurrency slots the request holds, if it holds any."""
        slot_id, state.held_slot = state.held_slot, None
        if slot_id is not None:
            self.accounting.release(account.id, slot_id, test=state.test_mode, slots=state.held_slots)

    async def execute(
        self,
        account: Account,
        endpoint: Endpoint,
        reading: RequestReading,
        request_id: str,
        state: RequestState,
        *,
        admit: bool,
    ) -> dict:
        """Return the success body ``{data, meta, warnings?}`` of one validated, paid computation:
        ``reading`` is the request as validation read it, kept for ``meta.moment`` (nothing is
        read of the request once the service has answered).

        With ``admit`` the request is admitted under the limits and charged in one store step
        (429, 402); otherwise it was admitted already and is only charged. Credits are taken
        before the service is called and refunded on any failure, so only a 2xx costs anything.
        A test key's request costs nothing and its ``meta`` says ``"mode": "test"``.
        """
        pool = self.pools[endpoint.service]
        if not await pool.implements(endpoint.rpc_path):
            # Known before any charge: an unbuilt endpoint is 501 even to an empty account.
            if admit:
                await self.admit(state, account)
            raise NotImplementedEndpoint("This endpoint is not implemented yet.")
        message = reading.message
        test = state.test_mode
        price = credit_cost(endpoint.http, message)
        cost = 0 if test else price
        # How each local time was read (the request's tz), from what validation kept.
        readings = local_readings(reading)
        preset = applied_preset(reading)
        relocated = relocated_meta(reading)
        # The ledger key is minted here, never the client's X-Request-Id: a replayed id
        # must not make a second request look like a retry of a paid one.
        charge_id = new_request_id()
        if cost:
            state.charges.append((charge_id, cost))
        # What the owner's usage page shows of this charge: never the request's parameters.
        note = ChargeNote(endpoint.path, state.key_id, request_id)
        if cost == 0:
            # A free endpoint (/v1/places), or any through a test key, is admitted under the
            # limits like any request (a test key's counting its live price); the ledger keeps
            # no debit of nothing (its bounds refuse one), so there is no refund.
            if admit:
                await self.admit(
                    state, account, computations=request_computations(price, limits_for_test_keys(account))
                )
            remaining = await self.accounting.balance(account.id)
        elif admit:
            slot_id = new_request_id()
            outcome = await self.accounting.admit_and_charge(account, slot_id, cost, charge_id, note)
            self._admitted(state, outcome.admission, slot_id)
            if outcome.insufficient is not None:
                raise outcome.insufficient
            remaining = outcome.balance
        else:
            remaining = await self.accounting.charge(account.id, cost, charge_id, state.held_slot, note)
        if cost:
            credit_metrics.record_charge(cost, test)
        started = time.perf_counter()
        try:
            reply = await self.call_in_turn(account, endpoint, message, request_id)
            meta = {
                "request_id": request_id,
                "credits_used": cost,
                "credits_remaining": remaining,
                "computation_ms": round((time.perf_counter() - started) * 1000, 3),
                "version": answer_version(),
            }
            if readings:
                meta["moment"] = readings
            if preset is not None:
                meta["preset"] = preset
            if relocated is not None:
                meta["relocated"] = relocated
            if test:
                meta["mode"] = TEST_MODE
            return success_body(reply, meta)
        except BaseException:
            # Shielded so a client disconnect cannot cancel the refund it is owed.
            if cost:
                credit_metrics.record_refund(cost, test)
                await asyncio.shield(self.accounting.refund(account.id, cost, charge_id))
            raise

    def wait_allowed_s(self, endpoint: Endpoint) -> float:
        """Return how long (seconds) a call of ``endpoint`` is expected to wait for its turn at
        most, or it is refused at once: a tenth of its deadline, at most CELESTIAL_QUEUE_WAIT_S
        (a fast call 1 s, a scan 5 s, an engine search 0.25 s)."""
        return min(self.settings.queue_wait_s, self.deadline_s(endpoint) * WAIT_SHARE_OF_DEADLINE)

    async def call_in_turn(self, account: Account, endpoint: Endpoint, message, request_id: str):
        """Return the service's reply to ``message``, sent when the account's turn at the pool
        comes (``gateway/fair_share.py``): a scan counts against the account's share of the
        pool (its processes), any call against the pool's capacity; its expected compute time
        sets its lane. A bounded call (``(http).bounded``) has a share of its own, so it never
        waits for a place held by the compute child's calls. Raises at once when its expected
        wait exceeds what its deadline class allows, and when the turn does not come within
        CELESTIAL_QUEUE_WAIT_S: 429 too_many_concurrent_requests with Retry-After when the
        account's own calls refused it
        (its excess), else 503 with Retry-After (the pool full for everyone)."""
        share = (self.bounded_shares if endpoint.http.bounded else self.shares)[endpoint.service]
        pool = self.pools[endpoint.service]
        limit = self.processes[endpoint.service] if endpoint.scan else share.capacity
        queued = time.perf_counter()
        try:
            await self._await_turn(share, account, endpoint, limit, pool.costs.expected_s(endpoint.rpc_path))
        except CelestialError as shed:
            pool_metrics.record_shed(endpoint.service, shed.code)
            raise
        pool_metrics.record_queue_wait(endpoint.service, time.perf_counter() - queued)
        deadline_s = self.deadline_s(endpoint)
        try:
            return await pool.call(
                endpoint.rpc_path, message, endpoint.response_cls, timeout_s=deadline_s, request_id=request_id
            )
        except DeadlineExceeded:
            raise deadline_passed(endpoint, deadline_s, message) from None
        finally:
            share.release(account.id)

    async def _await_turn(
        self, share: FairShare, account: Account, endpoint: Endpoint, limit: int, expected_s: float
    ) -> None:
        """Return once the account's call may go to the pool (:meth:`call_in_turn`'s refusals)."""
        wait_s = self.settings.queue_wait_s
        try:
            await share.acquire(
                account.id, limit, wait_s, expected_s=expected_s, shed_after_s=self.wait_allowed_s(endpoint)
            )
        except Overloaded as overloaded:
            if overloaded.own:
                raise TooManyConcurrentRequests(
                    f"This account's own requests to the {endpoint.service} service hold its share of it: this "
                    f"request would wait about {overloaded.expected_wait_s:.1f} s for its turn, more than the "
                    f"{self.wait_allowed_s(endpoint):g} s its kind of request may wait.",
                    retry_after_s=max(1, math.ceil(overloaded.expected_wait_s)),
                ) from None
            raise ServiceUnavailable(
                f"The {endpoint.service} service is busy: this request would wait about "
                f"{overloaded.expected_wait_s:.1f} s "
                f"for its turn, more than the {self.wait_allowed_s(endpoint):g} s its kind of request may wait.",
                suggestion="Retry after the number of seconds in Retry-After, or send fewer long requests at once.",
                retry_after_s=max(1, math.ceil(overloaded.expected_wait_s)),
            ) from None
        except TurnNotCome as not_come:
            if not_come.own:
                raise TooManyConcurrentRequests(
                    f"This account's own requests to the {endpoint.service} service hold its share of it: this "
                    f"request could not start within {wait_s:g} s.",
                    retry_after_s=max(1, math.ceil(wait_s)),
                ) from None
            raise ServiceUnavailable(
                f"The {endpoint.service} service is busy: this request could not start within {wait_s:g} s.",
                suggestion="Retry after the number of seconds in Retry-After, or send fewer long requests at once.",
                retry_after_s=max(1, math.ceil(wait_s)),
            ) from None

    async def refund_every_charge(self, account: Account, state: RequestState) -> None:
        """Give back every charge made under this request (its sub-requests' in a batch)."""
        for charge_id, cost in state.charges:
            await self.accounting.refund(account.id, cost, charge_id)

    async def serve(self, request: Request, endpoint: Endpoint) -> Response:
        """Authenticate, transcode, validate, claim the Idempotency-Key (a paid request's, if
        any: ``gateway/idempotency.py``), admit and charge, call the service, render."""
        request_id = request_id_of(request)
        state = request_state(request)
        account = await self.authenticate(request)
        held: Held | None = None
        try:
            try:
                message = await read_parameters(request, endpoint, account, self.store)
                # A free endpoint ignores the header: there is no charge to make once.
                key = idempotency_key(request.headers) if credit_cost(endpoint.http, message) else None
                # Named as read, before validation fills in what the request left to defaults.
                request_fingerprint = (
                    fingerprint(request.method, endpoint.path, canonical_parameters(message)) if key else ""
                )
                reading = validate(message)
            except CelestialError:
                # Refused input counts against the limits like any request, and a client over
                # its limits hears that first (429 before 400).
                await self.admit(state, account)
                raise
            caching = picture_caching_headers(request, endpoint, reading.message)
            if caching is not None and none_match(request.headers.get("if-none-match"), caching["ETag"]):
                # The client holds this picture already: nothing computed, nothing charged,
                # counted under the limits like any request.
                await self.admit(state, account)
                return Response(status_code=304, headers=caching)
            if key is not None:
                claimed = await self.idempotency.claim(
                    account.id,
                    request_scoped_key(state, key),
                    request_fingerprint,
                    self.deadline_s(endpoint) + LEASE_MARGIN_S,
                )
                if isinstance(claimed, StoredAnswer):
                    return await self._replay(request, account, endpoint, reading, claimed)
                held = claimed
            try:
                body = await until_disconnected(
                    request, self.execute(account, endpoint, reading, request_id, state, admit=True)
                )
            except ClientGone:
                # The computation may have finished as the client left: its charge goes back
                # (a charge refunded already, by the cancelled computation, is not refunded twice).
                await asyncio.shield(self.refund_every_charge(account, state))
                raise
        except BaseException:
            if held is not None:  # nothing was charged: a retry computes it
                await asyncio.shield(self.idempotency.release(held))
            raise
        finally:
            self.release(account, state)
        state.credits_used = body["meta"]["credits_used"]
        response = render(body)
        if caching is not None:
            response.headers.update(caching)
        if held is not None:
            await self.idempotency.complete(
                held, response, request_id, state.rate_limit_headers, recomputation(body["meta"])
            )
        return response

    async def _replay(
        self, request: Request, account: Account, endpoint: Endpoint, reading: RequestReading, answer: StoredAnswer
    ) -> Response:
        """Return the first answer to an Idempotency-Key again, free; one kept as a
        recomputation is computed again (admitted under the limits, never charged) and
        rendered with the first answer's ``meta``."""
        state = request_state(request)
        if not answer.recompute:
            return replay_response(answer, state)
        meta = orjson.loads(answer.body)["meta"]
        price = credit_cost(endpoint.http, reading.message)
        await self.admit(state, account, computations=request_computations(price, limits_for_test_keys(account)))
        try:
            reply = await until_disconnected(
                request, self.call_in_turn(account, endpoint, reading.message, meta["request_id"])
            )
        finally:
            self.release(account, state)
        state.rate_limit_headers = []  # the first answer's are replayed
        return replay_response(answer, state, render(success_body(reply, meta)).body)


def picture_caching_headers(request: Request, endpoint: Endpoint, message) -> dict[str, str] | None:
    """Return the ``ETag`` and ``Cache-Control`` of a GET answered with a picture
    (``gateway/picture_caching.py``), None for any other request."""
    if request.method != "GET" or not answers_a_picture(message, endpoint.response_cls.DESCRIPTOR):
        return None
    return {
        "ETag": entity_tag(endpoint.path, message),
        "Cache-Control": cache_control(endpoint.request_cls, set(request.query_params.keys())),
    }


def render(body: dict) -> Response:
    """Return the response of a success body ``{data, meta, warnings?}``: the JSON envelope, or
    the document itself when its data is one."""
    if isinstance(body["data"], DocumentBody):
        # A document (an iCalendar file, an SVG or PNG picture) is the answer itself; its
        # request id is the header's, and its SHA-256 the Content-Digest's (RFC 9530).
        content = body["data"].content
        return Response(
            content, media_type=body["data"].media_type, headers={"Content-Digest": content_digest(content)}
        )
    return json_response(body)


def content_digest(content: bytes) -> str:
    """Return the RFC 9530 Content-Digest field value of ``content``: its SHA-256, base64."""
    return f"sha-256=:{base64.b64encode(hashlib.sha256(content).digest()).decode()}:"


def deadline_passed(endpoint: Endpoint, deadline_s: float, request=None) -> CelestialError:
    """Return the error of a call of ``endpoint`` stopped at its deadline of ``deadline_s``
    seconds: a heliacal search outside the engine's documented conditions is answered 400
    (``shared/runtime/heliacal_event.py``: its stop is the answer, as the engine's own "not
    found" is), any other stop 504, saying what its deadline class makes slow."""
    if isinstance(request, search_service_pb2.FindHeliacalEventRequest):
        refusal = heliacal_search_stopped(request, deadline_s)
        if refusal is not None:
            return refusal
    message = f"{endpoint.path} did not finish within its deadline of {deadline_s:g} s and was stopped."
    if endpoint.http.deadline == options_pb2.DEADLINE_CLASS_ENGINE_SEARCH:
        return DeadlineExceeded(
            message,
            suggestion="This search is one engine call; it runs long only when the event may not happen for years "
            "(a planet near the poles, or seen with optical aid, that is never lost in the Sun's glare): "
            "try a lower latitude, the naked eye or another event.",
        )
    return DeadlineExceeded(message)


def planned_processes(settings: Settings, service: str) -> int:
    """Return how many processes a gateway plans for in ``service``'s pool as it starts: the
    addresses it lists, or, behind one DNS name, CELESTIAL_<SERVICE>_PROCESSES (until the name
    answers: ``gateway/pool_replicas.py``)."""
    addresses = settings.service_addresses.get(service, ())
    if addresses and not channel_target(addresses).startswith("ipv4:"):
        return max(1, settings.service_processes.get(service, 1))
    return max(1, len(addresses))


async def until_disconnected(request: Request, work: Coroutine[Any, Any, T]) -> T:
    """Return what ``work`` returns, unless the client disconnects first: then ``work`` is
    cancelled (a paid computation refunds itself, and its gRPC call is cancelled, which stops
    the service's computation) and ClientGone is raised. A client seen gone when the work
    finishes at the same moment is gone too: nobody will read that answer, so ClientGone,
    and the caller gives back what the work charged."""
    task = asyncio.ensure_future(work)
    watcher = asyncio.ensure_future(_disconnect(request))
    try:
        await asyncio.wait((task, watcher), return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone = watcher.done() and not watcher.cancelled()
        watcher.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    if gone or task.cancelled():
        if task.done() and not task.cancelled():
            task.exception()  # retrieved: the answer (or error) nobody will read
        raise ClientGone("The client closed the connection before the answer was sent.")
    return task.result()


async def _disconnect(request: Request) -> None:
    """Return once the client has disconnected (its body, if any, is already read)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass
