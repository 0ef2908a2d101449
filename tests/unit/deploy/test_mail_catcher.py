"""deploy/mail_catcher.py: the development mail catcher is an SMTP server on loopback that
keeps every message it receives in the outbox folder and delivers none."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
from urllib.parse import urlsplit

from deploy.mail_catcher import MailCatcher
from shared.runtime.dev_outbox import read_messages


def test_a_message_sent_to_the_catcher_lands_in_its_outbox(tmp_path):
    catcher = MailCatcher(tmp_path).start()
    try:
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = "a@localhost", "ada@example.com", "Confirm"
        message.set_content("http://127.0.0.1:8080/dashboard/invite?token=own_x.y\n")
        address = urlsplit(catcher.url)
        with smtplib.SMTP(address.hostname, address.port, timeout=5) as client:
            client.send_message(message)
    finally:
        catcher.stop()
    (kept,) = read_messages(tmp_path)
    assert kept.subject == "Confirm" and kept.text == "http://127.0.0.1:8080/dashboard/invite?token=own_x.y\n"


def test_the_catcher_listens_on_loopback_only(tmp_path):
    assert urlsplit(MailCatcher(tmp_path).url).hostname == "127.0.0.1"
