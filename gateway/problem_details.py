"""RFC 9457 problem details beside the error body, for a request a limit refused.

A refusal by one of the account's quotas (its requests per minute or in flight: 429
``rate_limit_exceeded``; a spend cap: 402 ``spend_cap_reached``) names the problem type
``quota-exceeded`` of the IETF RateLimit draft (draft-ietf-httpapi-ratelimit-headers-11,
section 5.1) in the members RFC 9457 defines, at the top of the same JSON object as the error
body: ``type``, ``title``, ``status``, ``detail`` and the draft's extension member
``violated-policies``. RFC 9457 (section 3.2) has a consumer ignore members it does not know,
so the body is at once the API's error body (``errors``, ``meta``: unchanged) and a problem
details object. An empty balance (402 ``insufficient_credits``) is not a quota over a time
window, so it names no problem type.

Its media type is ``application/json``, as every answer's, unless the request's ``Accept``
asks for ``application/problem+json`` (RFC 9457, section 3): then the same body is labelled so.
"""

from __future__ import annotations

from typing import Any

from gateway.rate_limit_fields import spend_cap_policy
from shared.errors import CelestialError, SpendCapReached

#: The title the draft gives the quota-exceeded problem type (section 5.1).
QUOTA_EXCEEDED_TITLE = "Request cannot be satisfied as assigned quota has been exceeded"
#: The media type of a problem details object in JSON (RFC 9457, section 3).
PROBLEM_MEDIA_TYPE = "application/problem+json"


def asks_for_problem_json(accept: str | None) -> bool:
    """Return whether an ``Accept`` value lists ``application/problem+json`` with a weight above 0."""
    for member in (accept or "").split(","):
        media_type, *parameters = (part.strip() for part in member.split(";"))
        if media_type.lower() != PROBLEM_MEDIA_TYPE:
            continue
        weights = [p.split("=", 1)[1] for p in parameters if p.lower().startswith("q=") and "=" in p]
        try:
            return not weights or float(weights[0]) > 0
        except ValueError:
            return False
    return False


def violated_policies(error: CelestialError) -> tuple[str, ...]:
    """Return the names of the quotas that refused ``error``'s request: a spend cap's from its
    figures (``account-daily-spend`` ...), else what the error names."""
    if isinstance(error, SpendCapReached) and error.cap.get("scope") and error.cap.get("period"):
        return (spend_cap_policy(error.cap["scope"], error.cap["period"]),)
    return error.violated_policies


def problem_members(error: CelestialError) -> dict[str, Any]:
    """Return the RFC 9457 members to add beside ``error``'s body: ``type``, ``title``,
    ``status``, ``detail`` (the error's message) and, when known, ``violated-policies``; none
    for an error that names no problem type."""
    if error.problem_type is None:
        return {}
    members: dict[str, Any] = {
        "type": error.problem_type,
        "title": QUOTA_EXCEEDED_TITLE,
        "status": error.http_status,
        "detail": error.message,
    }
    policies = violated_policies(error)
    if policies:
        members["violated-policies"] = list(policies)
    return members
