"""One way to serve a free account resource (issue 47): stored charts, webhook subscriptions,
usage and the account are each a table of operations, served here alike.

Each operation is an RPC of ``protos/celestial/v1/account_service.proto``, which declares its
path, HTTP method and request and answer shapes (``(http).gateway``); a resource's module gives
each RPC its work, and :func:`account_routes` builds the routes from the two: the query
parameters an operation takes, and whether it takes a JSON body, are its request message's
fields (those its path does not name). Every request is answered the same way, in this order:

1. ``HEAD`` is refused (405 ``method_not_allowed``, ``Allow: GET``) before the key is read, as
   on every ``/v1`` path (docs/errors.md).
2. The key is authenticated as a paid request's is (``Authorization: Bearer`` or
   ``X-API-Key``, its origin rules): 401, 403.
3. The request is admitted under the account's limits (a test key's under the test limits,
   ``gateway/key_modes.py``) and holds a concurrency slot until it is answered: a free request
   is still a request (docs/limits.md), and a client over its limits hears 429 before any 400.
4. The query string is read: only the parameters the operation names, each once (400
   ``invalid_parameter``); an operation that takes a JSON body takes no query string, and its
   body is read (400, 413).
5. The operation's work runs and returns its :class:`Answer`, enveloped here as
   ``{data, meta}`` with the free ``meta`` (``credits_used`` 0, ``credits_remaining``, the
   version, ``mode`` for a test key), or a whole response (a creation replayed for its
   ``Idempotency-Key``: ``gateway/idempotency.py`` ``created_once``).
6. The slot is given back whatever happened. Nothing is charged and the ledger is not written.

Every error is answered with the error body (``gateway/errors.py``), ``X-Request-Id`` and,
once admitted, the ``X-RateLimit-*`` headers (the middleware adds them from the request state).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gateway.account_bodies import NO_BODY, borrowed_request, own_members, read_account_body
from gateway.endpoints import Endpoint, account_operations
from gateway.errors import request_id_of, with_error_body
from gateway.json_body import read_json_body
from gateway.json_response import json_response
from gateway.key_modes import TEST_MODE
from gateway.request_state import request_state
from gateway.version import answer_version
from shared.errors import InvalidParameter, MethodNotAllowed
from store.records import Account, KeyRecord

if TYPE_CHECKING:
    from gateway.paid_requests import Gateway

#: The methods whose operations may take a JSON body.
BODY_METHODS = ("POST", "PATCH")


@dataclass(frozen=True)
class Answer:
    """What an operation answers: its ``data``, the answer's extra headers, extra members of
    its ``meta`` (placed before ``version``), and the balance when the work read it already
    (else it is read once the work is done, for ``meta.credits_remaining``)."""

    data: Any
    headers: Mapping[str, str] | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    balance: int | None = None


@dataclass(frozen=True)
class Call:
    """One admitted request of an account resource, as its operation's work receives it: the
    gateway, the calling account and key, the query string's parameters by name (each sent
    once, each one the operation takes) and the JSON body (None for an operation that takes
    none, or an empty body)."""

    request: Request
    gateway: Gateway
    account: Account
    key: KeyRecord
    query: Mapping[str, str]
    body: Any = None

    async def answered(self, answer: Answer) -> Response:
        """Return ``answer`` in the envelope ``{data, meta}``, its ``meta`` a free request's."""
        balance = answer.balance if answer.balance is not None else await self.gateway.store.balance(self.account.id)
        meta = {
            "request_id": request_id_of(self.request),
            "credits_used": 0,
            "credits_remaining": balance,
            **answer.meta,
            "version": answer_version(),
        }
        if request_state(self.request).test_mode:
            meta["mode"] = TEST_MODE  # as on every answer to a test key (gateway/key_modes.py)
        return json_response({"data": answer.data, "meta": meta}, headers=answer.headers)


#: The work of an operation: its answer to one admitted call.
Work = Callable[[Call], Awaitable["Answer | Response"]]


@dataclass(frozen=True)
class Operation:
    """One method of an account resource: its work, the query parameters it takes, whether it
    takes a JSON body (then no query string), the name of its RPC in ``AccountService`` and its
    endpoint (whose request's schema a body is held to, ``gateway/account_bodies.py``)."""

    work: Work
    query: tuple[str, ...] = ()
    body: bool = False
    rpc: str = ""
    endpoint: Endpoint | None = None


def single_values(items: Iterable[tuple[str, str]], accepted: tuple[str, ...], path: str) -> dict[str, str]:
    """Return the query's parameters by name; 400 ``invalid_parameter`` for a name not in
    ``accepted`` or one given twice (as every /v1 endpoint refuses them)."""
    values: dict[str, str] = {}
    for name, value in items:
        if name not in accepted:
            listed = ", ".join(accepted) if accepted else "none"
            raise InvalidParameter(
                f"Unknown parameter '{name}' for {path}.", suggestion=f"Accepted parameters: {listed}.", param=name
            )
        if name in values:
            raise InvalidParameter(f"'{name}' was given more than once.", suggestion=f"Send '{name}' once.", param=name)
        values[name] = value
    return values


async def _read_input(request: Request, operation: Operation) -> tuple[dict[str, str], Any]:
    """Return the query parameters and the JSON body of a call to ``operation``; 400, 413."""
    if not operation.body:
        query = single_values(request.query_params.multi_items(), operation.query, request.url.path)
        if request.method in BODY_METHODS and operation.endpoint is not None:
            # A POST that takes no body (a rotation, a test) is sent none, or {}.
            read_account_body(operation.endpoint, await read_json_body(request, empty=NO_BODY))
        return query, None
    if request.query_params:
        raise InvalidParameter(
            f"{request.method} {request.url.path} takes its parameters in the JSON body, not in the query string.",
            suggestion="Move them into the body.",
            param=next(iter(request.query_params.keys())),
        )
    body = await read_json_body(request, empty=NO_BODY)
    if operation.endpoint is None:
        return {}, None if body is NO_BODY else body
    return {}, read_account_body(operation.endpoint, body)


async def serve_resource(request: Request, operations: Mapping[str, Operation]) -> Response:
    """Return the answer of ``request`` to the account resource of ``operations`` (by method),
    served as the module's docstring says."""
    if request.method == "HEAD":
        raise MethodNotAllowed(f"HEAD is not served on {request.url.path}.", suggestion="Use GET.", allow="GET")
    operation = operations[request.method]
    gateway: Gateway = request.app.state.gateway
    state = request_state(request)
    account, key = await gateway.authenticate_key(request)
    try:
        await gateway.admit(state, account)
        query, body = await _read_input(request, operation)
        call = Call(request, gateway, account, key, query, body)
        answer = await operation.work(call)
        if isinstance(answer, Answer):
            answer = await call.answered(answer)
    finally:
        gateway.release(account, state)
    state.credits_used = 0
    return answer


class ResourceRoute(Route):
    """The route of an account resource: its operations by HTTP method, served by
    :func:`serve_resource` (the reference and the tests find every resource by this type)."""

    def __init__(self, path: str, operations: Mapping[str, Operation]):
        async def serve(request: Request) -> Response:
            return await serve_resource(request, operations)

        super().__init__(path, with_error_body(serve), methods=list(operations))
        self.operations = dict(operations)


def resource_route(path: str, operations: Mapping[str, Operation]) -> ResourceRoute:
    """Return the Starlette route serving ``operations`` (by HTTP method) at ``path``."""
    return ResourceRoute(path, operations)


def request_fields(endpoint: Endpoint) -> tuple[str, ...]:
    """Return the request fields of an account operation that its path does not name: its
    query parameters (GET, DELETE) or its JSON body's members (POST, PATCH)."""
    return tuple(own_members(endpoint))


def takes_body(endpoint: Endpoint) -> bool:
    """Return whether an account operation takes a JSON body: a POST or PATCH whose request has
    fields besides its path's, or takes another request's parameters (``(message).members_of``)."""
    has_members = bool(request_fields(endpoint)) or borrowed_request(endpoint) is not None
    return endpoint.http.gateway.method in BODY_METHODS and has_members


def _operation(endpoint: Endpoint, work: Work) -> Operation:
    """Return the operation serving ``endpoint`` with ``work``, its input read from its request
    message: a JSON body (:func:`takes_body`), else its fields as query parameters (none for a
    POST or PATCH)."""
    if endpoint.http.gateway.method in BODY_METHODS:
        return Operation(work, body=takes_body(endpoint), rpc=endpoint.method.name, endpoint=endpoint)
    return Operation(work, query=request_fields(endpoint), rpc=endpoint.method.name, endpoint=endpoint)


def account_routes(works: Mapping[str, Work]) -> tuple[ResourceRoute, ...]:
    """Return the routes serving the account operations ``works`` names (by RPC name of
    ``AccountService``), one route per path holding its methods; KeyError naming an RPC that
    ``AccountService`` does not declare."""
    declared = {endpoint.method.name: endpoint for endpoint in account_operations()}
    unknown = sorted(set(works) - set(declared))
    if unknown:
        raise KeyError(f"AccountService declares no RPC {', '.join(unknown)}")
    by_path: dict[str, dict[str, Operation]] = {}
    for name, work in works.items():
        endpoint = declared[name]
        by_path.setdefault(endpoint.path, {})[endpoint.http.gateway.method] = _operation(endpoint, work)
    return tuple(resource_route(path, operations) for path, operations in by_path.items())
