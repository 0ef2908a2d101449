"""POST /v1/batch on the paid pipeline: one admission for the whole batch (a test key's by its
sub-requests' computations), each sub-request read, charged, computed and refunded on its own
through :class:`~gateway.paid_requests.Gateway`, one ``Idempotency-Key`` over the whole batch
and its replay. ``gateway/batch.py`` reads the body and runs the sub-requests concurrently;
this module pays for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

from gateway.accounting import credit_cost
from gateway.batch import SubRequest, parse_batch, run_batch
from gateway.endpoints import Endpoint
from gateway.envelope import success_body
from gateway.errors import TRANSIENT_STORE_ERRORS, request_id_of
from gateway.idempotency import (
    LEASE_MARGIN_S,
    Held,
    canonical_json,
    fingerprint,
    idempotency_key,
    recomputation,
    replay_response,
    request_scoped_key,
)
from gateway.json_body import read_json_body
from gateway.json_response import json_response
from gateway.key_modes import TEST_MODE, batch_computations, batch_slots, limits_for_test_keys
from gateway.paid_requests import Gateway, until_disconnected
from gateway.request_state import RequestState, request_state
from gateway.stored_charts import expand_body
from gateway.version import answer_version
from shared.errors import CelestialError, ClientGone, InvalidParameter, ServiceUnavailable
from shared.runtime.config import Settings
from shared.runtime.request_reading import RequestReading
from shared.runtime.transcoder import request_from_json
from shared.runtime.validation import validate
from store.idempotency_records import StoredAnswer
from store.records import Account


async def serve_batch(gateway: Gateway, request: Request) -> Response:
    """Run POST /v1/batch: one admission, then every sub-request on its own. An
    Idempotency-Key covers the whole batch (its canonical JSON body)."""
    request_id = request_id_of(request)
    state = request_state(request)
    account = await gateway.authenticate(request)
    started = time.perf_counter()
    held: Held | None = None
    try:
        # The body is read before a slot is taken: a client trickling it holds no slot.
        try:
            body = await read_json_body(request)
            key = idempotency_key(request.headers)
        except CelestialError:
            await gateway.admit(state, account)  # 429 before 400, as for any request
            raise
        if key is not None:
            request_fingerprint = fingerprint(request.method, request.url.path, canonical_json(body))
            claimed = await gateway.idempotency.claim(
                account.id,
                request_scoped_key(state, key),
                request_fingerprint,
                batch_deadline_s(gateway.settings) + LEASE_MARGIN_S,
            )
            if isinstance(claimed, StoredAnswer):
                return await _replay_batch(gateway, request, account, body, claimed)
            held = claimed
        readings: dict[int, RequestReading | Exception] | None = None
        if state.test_mode:
            subrequests, readings = await _admit_test_batch(gateway, state, account, body)
        else:
            await gateway.admit(state, account)
            subrequests = parse_batch(body)
        # A test key's batch runs as many sub-requests at once as it holds test slots.
        running = asyncio.Semaphore(state.held_slots) if state.test_mode else contextlib.nullcontext()
        # What the sub-requests that succeeded cost, or would cost with a live key: a
        # test key's batch is kept as a live key's would be charged (docs/idempotency.md).
        chargeable = 0

        async def execute(endpoint: Endpoint, params: dict, index: int) -> dict:
            nonlocal chargeable
            if readings is None:
                reading = await _read_subrequest(gateway, account, endpoint, params)
            else:
                read = readings[index]
                if isinstance(read, Exception):
                    raise read
                reading = read
            async with running:
                answer = await gateway.execute(account, endpoint, reading, f"{request_id}.{index}", state, admit=False)
            chargeable += credit_cost(endpoint.http, reading.message)
            return answer

        try:
            results, credits_used = await until_disconnected(
                request, run_batch(subrequests, gateway.endpoints, execute, request_id)
            )
        except ClientGone:
            # A batch is answered whole or not at all: nobody reads the sub-requests that
            # finished, so their charges go back too (a refund is idempotent per charge,
            # and one for a charge never made gives nothing back).
            await asyncio.shield(gateway.refund_every_charge(account, state))
            raise
    except BaseException:
        if held is not None:
            await asyncio.shield(gateway.idempotency.release(held))
        raise
    finally:
        gateway.release(account, state)
    try:
        remaining = await gateway.store.balance(account.id)
    except TRANSIENT_STORE_ERRORS:
        remaining = None
    succeeded = sum(1 for result in results if result["status"] == 200)
    state.credits_used = credits_used
    body = {
        "data": {
            "results": results,
            "summary": {"total": len(results), "succeeded": succeeded, "failed": len(results) - succeeded},
        },
        "meta": {
            "request_id": request_id,
            "credits_used": credits_used,
            "credits_remaining": remaining,
            "computation_ms": round((time.perf_counter() - started) * 1000, 3),
            "version": answer_version(),
        },
    }
    if state.test_mode:
        body["meta"]["mode"] = TEST_MODE
    response = json_response(body)
    if held is not None and chargeable:
        # Recomputing replays the failed sub-requests' results as first answered.
        failed = {str(result["index"]): result for result in results if result["status"] != 200}
        await gateway.idempotency.complete(
            held, response, request_id, state.rate_limit_headers, recomputation(body["meta"], failed=failed)
        )
    elif held is not None:  # no paid sub-request succeeded: nothing was charged, nothing is kept
        await gateway.idempotency.release(held)
    return response


async def _read_subrequest(gateway: Gateway, account: Account, endpoint: Endpoint, params: dict) -> RequestReading:
    """Return a batch sub-request as validation reads it (a stored chart it names read into
    the birth's parameters); its 4xx when it is refused."""
    params = await expand_body(params, endpoint.request_cls, account.id, gateway.store)
    return validate(request_from_json(endpoint.request_cls, params, endpoint.path))


async def _admit_test_batch(
    gateway: Gateway, state: RequestState, account: Account, body: Any
) -> tuple[list[SubRequest], dict[int, RequestReading | Exception]]:
    """Admit a test key's batch under the test limits by computation (``gateway/key_modes.py``)
    and return its sub-requests and each one's reading by index, or the error reading it
    raised (then its result).

    Every sub-request is read first, since its price depends on its parameters; the batch
    counts the sum of their live prices (an unknown endpoint's or a refused one's 1) and
    holds a test slot per sub-request it runs at once, all or nothing: 429 with
    Retry-After while they do not fit, 400 for a batch that fits no minute (split it). A
    malformed batch counts 1, and hears 429 before its 400.
    """
    try:
        subrequests = parse_batch(body)
    except CelestialError:
        await gateway.admit(state, account)
        raise
    readings: dict[int, RequestReading | Exception] = {}
    prices: list[int] = []
    for sub in subrequests:
        endpoint = _endpoint_of(gateway, sub)
        if endpoint is None:  # answered 404 by run_batch
            prices.append(0)
            continue
        try:
            reading = readings[sub.index] = await _read_subrequest(gateway, account, endpoint, sub.params)
        except Exception as error:  # answered as the sub-request's result, as a live batch's
            readings[sub.index] = error
            prices.append(0)
            continue
        prices.append(credit_cost(endpoint.http, reading.message))
    test_limits = limits_for_test_keys(account)
    computations = batch_computations(prices)
    if computations > test_limits.rate_per_minute:
        await gateway.admit(state, account)  # counted as a refused request, 429 before 400
        raise InvalidParameter(
            f"Through a test key this batch counts {computations} computations (the credits its "
            f"sub-requests would cost through a live key, at least 1 each), more than the "
            f"{test_limits.rate_per_minute} a minute the account's test keys may compute.",
            suggestion=f"Split it into batches that count at most {test_limits.rate_per_minute}, "
            "sent a minute apart (X-RateLimit-Reset says when the window ends).",
            param="requests",
        )
    await gateway.admit(state, account, computations=computations, slots=batch_slots(len(subrequests), test_limits))
    return subrequests, readings


def _endpoint_of(gateway: Gateway, sub: SubRequest) -> Endpoint | None:
    """Return the endpoint a batch sub-request names, None for an unknown path (as run_batch reads it)."""
    return gateway.endpoints.get(sub.path.rstrip("/") or sub.path)


def batch_deadline_s(settings: Settings) -> float:
    """Return the longest a batch may run (seconds): its sub-requests run at once, each
    within its own deadline, so the longest deadline of any class."""
    return max(settings.fast_deadline_s, settings.scan_deadline_s, settings.engine_search_deadline_s)


async def _replay_batch(
    gateway: Gateway, request: Request, account: Account, body: Any, answer: StoredAnswer
) -> Response:
    """Return a batch's first answer again, free; one kept as a recomputation runs its
    sub-requests that succeeded again (admitted once under the limits, never charged) and
    replays those that failed as first answered, with the first answer's ``meta``."""
    state = request_state(request)
    if not answer.recompute:
        return replay_response(answer, state)
    kept = orjson.loads(answer.body)
    meta, failed = kept["meta"], kept["failed"]
    await gateway.admit(state, account)

    async def execute(endpoint: Endpoint, params: dict, index: int) -> dict:
        params = await expand_body(params, endpoint.request_cls, account.id, gateway.store)
        reading = validate(request_from_json(endpoint.request_cls, params, endpoint.path))
        reply = await gateway.call_in_turn(account, endpoint, reading.message, f"{meta['request_id']}.{index}")
        return success_body(reply, {"credits_used": 0})

    subrequests = [sub for sub in parse_batch(body) if str(sub.index) not in failed]
    try:
        computed, _ = await until_disconnected(
            request, run_batch(subrequests, gateway.endpoints, execute, meta["request_id"])
        )
    finally:
        gateway.release(account, state)
    state.rate_limit_headers = []  # the first answer's are replayed
    results = sorted(computed + list(failed.values()), key=lambda result: result["index"])
    if any(result["status"] != 200 for result in computed):
        # A sub-request that succeeded first failed now (its service busy, say): the first
        # answer cannot be given again yet; nothing was charged and the record stays.
        raise ServiceUnavailable(
            "This batch's first answer is computed again on replay, and a sub-request could not be computed now.",
            suggestion="Retry after the number of seconds in Retry-After.",
            retry_after_s=1,
        )
    succeeded = sum(1 for result in results if result["status"] == 200)
    replayed = {
        "data": {
            "results": results,
            "summary": {"total": len(results), "succeeded": succeeded, "failed": len(results) - succeeded},
        },
        "meta": meta,
    }
    return replay_response(answer, state, orjson.dumps(replayed))
