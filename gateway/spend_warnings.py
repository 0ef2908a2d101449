"""The spend-cap warnings of the paid path: when a debit is the first of a UTC day or month to
reach 80 % of a cap (``store/spend_caps.py``), the account's owners are mailed
(``shared/runtime/mail.py``), once per cap and period.

Which debit that is, the store decides in the debit's own atomic step (the book's ``warned``
tags), and hands the warning to the one process that made it
(``SpendCaps.take_spend_warnings``): so however many gateways charge the account, one sends the
mail. A warning whose mail cannot be sent (no mail server configured, the server refused) is
logged and dropped: the warning was given, the cap still holds.
"""

from __future__ import annotations

from collections.abc import Iterable

import structlog

from gateway.utc_text import iso
from shared.runtime.config import Settings
from shared.runtime.mail import mail_owners
from store.spend_caps import SpendWarning

log = structlog.get_logger("celestial.spend_caps")


def warning_text(warning: SpendWarning, account_name: str, base_url: str) -> tuple[str, str]:
    """Return the (subject, text) of the mail of ``warning`` to the owners of ``account_name``."""
    whose = f"account {account_name}" if not warning.key_id else f"key {warning.key_id} of account {account_name}"
    period = "today (UTC)" if warning.period == "daily" else "this month (UTC)"
    subject = f"Celestial: {whose} has spent 80% of its {warning.period} cap"
    text = (
        f"The {whose} has spent {warning.spent} of its {warning.period} spend cap of {warning.cap} credits "
        f"{period}.\n\nRequests that would pass the cap are refused (402 spend_cap_reached) until it resets at "
        f"{iso(warning.resets_at)}.\n\nTo change the cap, sign in to the dashboard: "
        f"{base_url}/dashboard/spend-caps\n\nThis is the only warning of this cap {period}.\n"
    )
    return subject, text


async def mail_spend_warnings(store, settings: Settings, warnings: Iterable[SpendWarning]) -> None:
    """Mail each warning to every owner of its account (``store`` a DashboardStore); without
    CELESTIAL_SMTP_URL, or when the mail fails, log it instead."""
    for warning in warnings:
        log.info(
            "spend_cap_warning",
            account_id=warning.account_id,
            key_id=warning.key_id,
            period=warning.period,
            cap=warning.cap,
        )
        if settings.smtp_url is None or not hasattr(store, "list_owners"):
            continue
        try:
            account = await store.get_account(warning.account_id)
            subject, text = warning_text(warning, account.name if account else warning.account_id, settings.base_url)
            not_sent = await mail_owners(store, settings, warning.account_id, subject, text)
        except Exception as error:  # the store went away: the warning is dropped, not the request
            log.warning("spend_cap_warning_not_sent", account_id=warning.account_id, error=repr(error))
            continue
        for reason in not_sent:
            log.warning("spend_cap_warning_not_sent", account_id=warning.account_id, error=reason)
