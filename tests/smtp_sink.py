"""A local SMTP server that keeps every message it receives (aiosmtpd), for the tests of the
dashboard's mail: sign-up confirmations and password links are read from it."""

from __future__ import annotations

import email
import email.policy
import re
import socket
import time
from email.message import Message

from aiosmtpd.controller import Controller

_LINK = re.compile(r"https?://\S+/dashboard/invite\?token=\S+")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class SmtpSink:
    """A running SMTP server on a free loopback port; ``messages`` holds what it received."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.port = _free_port()
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    async def handle_DATA(self, server, session, envelope) -> str:  # aiosmtpd's handler hook
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 OK"

    def start(self) -> SmtpSink:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    def mail_to(self, address: str, wait_s: float = 5.0) -> list[Message]:
        """Return the messages received for ``address`` so far (waiting up to ``wait_s`` for one)."""
        deadline = time.monotonic() + wait_s
        while True:
            found = [m for m in self.messages if m["To"] == address]
            if found or time.monotonic() > deadline:
                return found
            time.sleep(0.05)

    @staticmethod
    def link_in(message: Message) -> str:
        """Return the dashboard link a message carries."""
        return _LINK.search(message.get_content()).group(0)
