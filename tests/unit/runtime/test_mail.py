"""shared/runtime/mail.py: plain-text mail over SMTP (RFC 5321) from the standard library;
an ``smtp://`` or ``smtps://`` URL names the server, anything else or a server that cannot be
reached is MailNotSent. Delivered mail is read from a local SMTP sink (tests/smtp_sink.py)."""

from __future__ import annotations

import asyncio

import pytest

from shared.runtime.mail import MailNotSent, send_mail
from tests.smtp_sink import SmtpSink


def test_a_message_reaches_the_server_with_its_sender_recipient_subject_and_text():
    sink = SmtpSink().start()
    try:
        asyncio.run(send_mail(sink.url, "Celestial <no-reply@example.com>", "ada@example.com", "Hello", "Line one\n"))
        [message] = sink.mail_to("ada@example.com")
    finally:
        sink.stop()
    assert (message["From"], message["Subject"]) == ("Celestial <no-reply@example.com>", "Hello")
    assert message.get_content_type() == "text/plain" and message.get_content().splitlines() == [
        "Line one"
    ]  # CRLF on the wire (RFC 5321)


@pytest.mark.parametrize("url", ["http://mail.example.com", "smtp://", "mailto:ada@example.com"])
def test_a_url_that_is_not_smtp_or_smtps_with_a_host_is_refused(url):
    with pytest.raises(MailNotSent, match="CELESTIAL_SMTP_URL"):
        asyncio.run(send_mail(url, "a@example.com", "b@example.com", "s", "t"))


def test_a_server_that_cannot_be_reached_is_mail_not_sent_naming_the_server():
    # Port 1 on loopback: nothing listens there, so the connection is refused at once.
    with pytest.raises(MailNotSent, match=r"127\.0\.0\.1:1 failed"):
        asyncio.run(send_mail("smtp://127.0.0.1:1", "a@example.com", "b@example.com", "s", "t"))


def test_mail_never_queues_behind_the_default_thread_pool():
    from tests.unit.runtime.test_blocking import with_the_default_pool_held

    sink = SmtpSink().start()
    try:
        with_the_default_pool_held(lambda: send_mail(sink.url, "a@example.com", "ada@example.com", "s", "t\n"))
        assert len(sink.mail_to("ada@example.com")) == 1
    finally:
        sink.stop()
