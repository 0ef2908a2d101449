"""The error catalogue: the one error type of the service and the errors every layer shares.

A :class:`CelestialError` is a machine code, an HTTP status, a message and a suggestion. This
module holds it with the errors of a request (invalid, missing or conflicting parameters, an
unreadable body), of access (keys, origins, the admin token), of billing (credits, rate limits)
and of transport (sizes, timeouts, unavailable services). The kernel's domain errors subclass it
in ``kernel/errors.py``. It imports nothing of the project, so the key and credit store
uses it without the astronomy kernel.

Every layer raises a subclass of :class:`CelestialError`; the runtime carries it across gRPC
as a ``google.rpc.Status`` (``shared/runtime/status.py``) and the gateway renders it as the
spec's error body
``{errors: [{code, message, suggestion, param?}], meta: {request_id}}``. The table of codes
and statuses is ``spec/decisions.md`` ("Error codes and statuses").
"""

from __future__ import annotations

#: The problem type of a request refused by a quota (draft-ietf-httpapi-ratelimit-headers-11,
#: section 5.1, "Quota Exceeded"; its extension member ``violated-policies`` names the quotas).
QUOTA_EXCEEDED_TYPE = "https://iana.org/assignments/http-problem-types#quota-exceeded"


class CelestialError(Exception):
    """A handled failure with a stable machine ``code`` and a client-facing ``suggestion``."""

    code: str = "internal_error"
    http_status: int = 500
    default_suggestion: str = "Retry later; if it persists, report the request id."
    #: Seconds after which a retry may succeed (the answer's Retry-After), or None.
    default_retry_after_s: int | None = None
    #: The RFC 9457 problem type the answer names beside its error body, or None (the limits'
    #: refusals: ``gateway/problem_details.py``).
    problem_type: str | None = None
    #: The names of the limits (quota policies) that refused the request, for ``problem_type``.
    violated_policies: tuple[str, ...] = ()

    def __init__(
        self,
        message: str,
        *,
        suggestion: str | None = None,
        param: str | None = None,
        retry_after_s: int | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.suggestion = suggestion or self.default_suggestion
        self.param = param
        self.retry_after_s = retry_after_s if retry_after_s is not None else self.default_retry_after_s

    def as_dict(self) -> dict:
        """Return the error as one member of the spec's ``errors[]`` list."""
        body = {"code": self.code, "message": self.message, "suggestion": self.suggestion}
        if self.param:
            body["param"] = self.param
        return body


class InvalidParameter(CelestialError):
    code = "invalid_parameter"
    http_status = 400
    default_suggestion = "Check the parameter against the endpoint's documentation at /docs."


class MissingParameter(CelestialError):
    code = "missing_parameter"
    http_status = 400
    default_suggestion = "Add the missing parameter; /docs lists what the endpoint requires."


class ConflictingParameters(CelestialError):
    code = "conflicting_parameters"
    http_status = 400
    default_suggestion = "Send only one of the alternatives."


class InvalidDatetime(CelestialError):
    code = "invalid_datetime"
    http_status = 400
    default_suggestion = "Send an ISO 8601 UTC time such as 2024-03-20T12:00:00Z, or a Julian Day as jd."


class InvalidBody(CelestialError):
    code = "invalid_body"
    http_status = 400
    default_suggestion = 'Send a JSON object with Content-Type: application/json, e.g. {"jd": 2451545.0}.'


class InvalidApiKey(CelestialError):
    code = "invalid_api_key"
    http_status = 401
    default_suggestion = "Send a valid key as 'Authorization: Bearer svc_live_...' or 'X-API-Key'."


class InvalidAdminToken(CelestialError):
    """The admin API's bearer token is missing or wrong, or the admin API is disabled."""

    code = "invalid_admin_token"
    http_status = 401
    default_suggestion = "Send the gateway's CELESTIAL_ADMIN_TOKEN as 'Authorization: Bearer <token>'."


class InsufficientCredits(CelestialError):
    code = "insufficient_credits"
    http_status = 402
    default_suggestion = "Top up the account's credit balance, then retry."


class SpendCapReached(InsufficientCredits):
    """A spend cap of the account or of the key (credits per UTC day or month) would be passed.

    A kind of 402 like an empty balance (what refuses a charge refuses it the same way), with
    the cap's figures in a ``spend_cap`` member beside the code: which cap (``scope`` account or
    key, ``period`` daily or monthly), ``cap``, ``spent`` in the period so far and ``resets_at``.
    No Retry-After: the cap holds until ``resets_at`` (up to a month away), too long for a
    client that retries after Retry-After to wait on (docs/limits.md, "Spend caps").
    """

    code = "spend_cap_reached"
    problem_type = QUOTA_EXCEEDED_TYPE
    default_suggestion = (
        "Wait until resets_at, or ask an owner of the account to raise the cap (the dashboard's Spend caps page)."
    )

    def __init__(self, message: str, *, cap: dict | None = None, suggestion: str | None = None):
        super().__init__(message, suggestion=suggestion)
        #: {scope, key_id?, period, cap, spent, resets_at}: the figures of the cap that refused.
        self.cap = cap or {}

    def as_dict(self) -> dict:
        """Return the error as one member of ``errors[]``, with its ``spend_cap`` figures."""
        return {**super().as_dict(), "spend_cap": self.cap}


class OriginNotAllowed(CelestialError):
    code = "origin_not_allowed"
    http_status = 403
    default_suggestion = "Add this origin to the key's allowed origins, or call from an allowed origin."


class OriginRequired(CelestialError):
    code = "origin_required"
    http_status = 403
    default_suggestion = "This key is browser-only; use an unrestricted key for server-to-server calls."


class NotFound(CelestialError):
    code = "not_found"
    http_status = 404
    default_suggestion = "Check the path; /v1/openapi.json lists every endpoint."


class ChartNotFound(CelestialError):
    """A stored chart id that names no chart of the calling account (issue 40)."""

    code = "chart_not_found"
    http_status = 404
    default_suggestion = "GET /v1/charts lists your stored charts and their ids; store a birth with POST /v1/charts."


class WebhookNotFound(CelestialError):
    """A webhook subscription id that names no subscription of the calling account (issue 40)."""

    code = "webhook_not_found"
    http_status = 404
    default_suggestion = "GET /v1/webhooks lists your subscriptions and their ids."


class MethodNotAllowed(CelestialError):
    code = "method_not_allowed"
    http_status = 405
    default_suggestion = "Use one of the methods listed in the Allow header."

    def __init__(self, message: str, *, allow: str = "", **kwargs):
        super().__init__(message, **kwargs)
        #: The methods the path accepts, comma-separated (the answer's Allow header).
        self.allow = allow


class DuplicateAccount(CelestialError):
    """An admin tried to create an account under a name another account has."""

    code = "account_exists"
    http_status = 409
    default_suggestion = "Choose another name, or use the existing account (GET /admin/v1/accounts/{name})."


class OwnerOfAnotherAccount(CelestialError):
    """An admin invited, as an owner of one account, an email that owns another account."""

    code = "email_owns_another_account"
    http_status = 409
    default_suggestion = "An email owns one account: invite another address, or the account that email owns."


class InactiveKey(CelestialError):
    """An admin operation needs an active key and the key is revoked or expired."""

    code = "key_not_active"
    http_status = 409
    default_suggestion = "A revoked or expired key cannot change; create a new key on the account instead."


class RequestIdConflict(CelestialError):
    """An admin top-up reused a request id already used for another account or amount."""

    code = "request_id_conflict"
    http_status = 409
    default_suggestion = "Reuse a request_id only to retry the same top-up; send a new one for a new top-up."


class ChartLimitReached(CelestialError):
    """The account keeps as many stored charts as it may (issue 40)."""

    code = "chart_limit_reached"
    http_status = 409
    default_suggestion = "Delete charts you no longer need (DELETE /v1/charts/{id}), then store the new one."


class IdempotencyKeyReuse(CelestialError):
    """An ``Idempotency-Key`` sent again with another request (method, path or parameters): 422,
    as the IETF Idempotency-Key draft (draft-ietf-httpapi-idempotency-key-header, "Error
    Scenarios") answers a key reused with another payload; its 409 is for a request in progress."""

    code = "idempotency_key_reuse"
    http_status = 422
    default_suggestion = "Send a new Idempotency-Key for a new request; reuse a key only to retry the same request."


class IdempotencyKeyInProgress(CelestialError):
    """An ``Idempotency-Key`` whose first request is still running."""

    code = "idempotency_key_in_progress"
    http_status = 409
    default_suggestion = (
        "Retry after the number of seconds in Retry-After: the first request's answer is then replayed."
    )
    default_retry_after_s = 1


class WebhookLimitReached(CelestialError):
    """The account keeps as many webhook subscriptions as it may (issue 40)."""

    code = "webhook_limit_reached"
    http_status = 409
    default_suggestion = "Delete subscriptions you no longer need (DELETE /v1/webhooks/{id}), then subscribe again."


class WebhookEnded(CelestialError):
    """A change or a test of a webhook subscription that has ended (its chart was deleted): an
    ended subscription is final (issue 46)."""

    code = "webhook_ended"
    http_status = 409
    default_suggestion = (
        "Subscribe again (POST /v1/webhooks) naming a stored chart of this account, and delete this subscription."
    )


class NoUpcomingEvent(CelestialError):
    """A webhook test with no event of the subscription's kinds in the window it searches (issue 46)."""

    code = "no_upcoming_event"
    http_status = 409
    default_suggestion = (
        "A test delivery carries the subscription's next event; try the receiver with a subscription to a kind that "
        "happens every few days (lunation, ingress), then delete it."
    )


class InvalidRequest(CelestialError):
    """An HTTP request the server could not read (a malformed request line or header)."""

    code = "invalid_request"
    http_status = 400
    default_suggestion = "Send a well-formed HTTP/1.1 request; a Content-Length must be one decimal number."


class RequestTimeout(CelestialError):
    code = "request_timeout"
    http_status = 408
    default_suggestion = "Send the whole request (headers, then body) without pausing; retry on a new connection."


class PayloadTooLarge(CelestialError):
    code = "payload_too_large"
    http_status = 413
    default_suggestion = "Send a body of at most 1 MiB, or split the work into several requests."


class UriTooLong(CelestialError):
    code = "uri_too_long"
    http_status = 414
    default_suggestion = "Send the parameters as a JSON body with POST instead of a long query string."


class RateLimitExceeded(CelestialError):
    """Over a limit of the account's (or its test keys') requests: per minute or in flight;
    ``violated_policies`` names which (``gateway/rate_limit_fields.py``)."""

    code = "rate_limit_exceeded"
    http_status = 429
    default_retry_after_s = 1
    default_suggestion = "Wait for the number of seconds in Retry-After, then retry."
    problem_type = QUOTA_EXCEEDED_TYPE

    def __init__(
        self,
        message: str,
        *,
        suggestion: str | None = None,
        retry_after_s: int | None = None,
        violated_policies: tuple[str, ...] = (),
    ):
        super().__init__(message, suggestion=suggestion, retry_after_s=retry_after_s)
        self.violated_policies = violated_policies


class TooManyConcurrentRequests(CelestialError):
    """An account's own calls hold its whole share of a service pool (or its own calls waiting
    ahead would make this one wait too long): its own excess, answered to it alone while the
    other accounts are served. A pool full for everyone is ServiceUnavailable (503)."""

    code = "too_many_concurrent_requests"
    http_status = 429
    default_retry_after_s = 1
    default_suggestion = (
        "Send fewer requests at once: retry after the number of seconds in Retry-After, when your requests in "
        "flight have finished."
    )


class ClientGone(CelestialError):
    """The client closed its connection before the answer: nobody reads this error, which
    only names the outcome in the log line (nginx's 499). The request costs nothing."""

    code = "client_closed_request"
    http_status = 499
    default_suggestion = "Wait for the answer; a request abandoned before it is not charged."


class ResultTooLarge(CelestialError):
    """An answer larger than one reply carries: refused, never answered as a busy service
    (decisions.md: every reply is bounded). The request costs nothing."""

    code = "result_too_large"
    http_status = 400
    default_suggestion = "Narrow the request: a shorter range, fewer bodies, or fewer records per call."


class InternalError(CelestialError):
    code = "internal_error"
    http_status = 500


class NotImplementedEndpoint(CelestialError):
    code = "not_implemented"
    http_status = 501
    default_suggestion = "This endpoint is not built yet; see /docs for the endpoints available now."


class ServiceUnavailable(CelestialError):
    code = "service_unavailable"
    http_status = 503
    # A process that is down is restarted by the supervisor within about a second.
    default_retry_after_s = 1
    default_suggestion = "Retry after the number of seconds in Retry-After."


class DeadlineExceeded(CelestialError):
    code = "deadline_exceeded"
    http_status = 504
    default_suggestion = "Ask for a smaller range or fewer bodies, or split the work into a batch."


def error_classes() -> list[type[CelestialError]]:
    """Return every concrete error class defined so far, for the code table and its tests.

    The classes are found as subclasses, so a layer's own errors (the kernel's domain errors in
    ``kernel/errors.py``) count once their module is imported.
    """
    found: list[type[CelestialError]] = []
    stack = [CelestialError]
    while stack:
        cls = stack.pop()
        for sub in cls.__subclasses__():
            found.append(sub)
            stack.append(sub)
    return found


def error_class_for_code(code: str) -> type[CelestialError]:
    """Return the error class whose ``code`` is ``code`` (``InternalError`` when unknown)."""
    for cls in error_classes():
        if cls.code == code:
            return cls
    return InternalError
