"""Mail: plain-text messages sent over SMTP with the standard library, in a thread of the
mail's own pool (:data:`MAILING`), so the event loop never waits on a mail server and nothing
else waits behind one; to one address (the dashboard's links that prove an address: sign-up,
forgot password) or to every owner of an account (:func:`mail_owners`: the paid path's
spend-cap warnings, the webhook worker's notices).

A message holds a one-time link and nothing else secret; it is never logged.
"""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

from shared.runtime.blocking import BlockingPool
from shared.runtime.config import Settings

#: How long one SMTP conversation may take, in seconds, before the send fails.
SMTP_TIMEOUT_S = 10.0
#: The threads that talk to the mail server: messages are few (a sign-up, a reset, a notice),
#: and a slow server holds at most these, never a thread of anything else.
MAILING = BlockingPool("mail", 4)


class MailNotSent(Exception):
    """The mail server refused the message or could not be reached."""


def _send_now(smtp_url: str, message: EmailMessage) -> None:
    parts = urlsplit(smtp_url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise MailNotSent(
            f"CELESTIAL_SMTP_URL must be smtp://host[:port] or smtps://host[:port], not {parts.scheme}://"
        )
    secure = parts.scheme == "smtps"
    client_type = smtplib.SMTP_SSL if secure else smtplib.SMTP
    port = parts.port or (465 if secure else 25)
    try:
        with client_type(parts.hostname, port, timeout=SMTP_TIMEOUT_S) as client:
            if parts.username:
                client.login(unquote(parts.username), unquote(parts.password or ""))
            client.send_message(message)
    except (OSError, smtplib.SMTPException) as exc:
        raise MailNotSent(f"mail to the SMTP server at {parts.hostname}:{port} failed: {type(exc).__name__}") from None


async def send_mail(smtp_url: str, sender: str, to: str, subject: str, text: str) -> None:
    """Send a plain-text message. Raises MailNotSent."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, subject
    message.set_content(text)
    await MAILING.run(_send_now, smtp_url, message)


async def mail_owners(store, settings: Settings, account_id: str, subject: str, text: str) -> list[str]:
    """Send the message to every owner of ``account_id`` (``store`` one with the dashboard's
    owners, ``list_owners``); return why mail was not sent, one reason per owner not reached,
    or the one reason none was tried (no mail server configured, no owner): empty when every
    owner was mailed. The caller logs the reasons: a notice that cannot be mailed is dropped."""
    if settings.smtp_url is None:
        return ["no mail server configured (CELESTIAL_SMTP_URL)"]
    owners = await store.list_owners(account_id) if hasattr(store, "list_owners") else []
    if not owners:
        return ["the account has no owner to mail"]
    not_sent = []
    for owner in owners:
        try:
            await send_mail(settings.smtp_url, settings.mail_from, owner.email, subject, text)
        except MailNotSent as exc:
            not_sent.append(str(exc))
    return not_sent
