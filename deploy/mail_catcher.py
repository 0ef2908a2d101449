"""The development mail catcher: an SMTP server on a free loopback port (aiosmtpd) that `make
run` starts when CELESTIAL_SMTP_URL is unset in development mode. It delivers nothing: every
message it receives goes into the development outbox (``shared/runtime/dev_outbox.py``), which
the dashboard shows the operator at the outbox page.
"""

from __future__ import annotations

import socket
from pathlib import Path

from aiosmtpd.controller import Controller

from shared.runtime.dev_outbox import keep_message


def free_loopback_port() -> int:
    """Return a TCP port of 127.0.0.1 that is free now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class MailCatcher:
    """An SMTP server on 127.0.0.1 keeping what it receives in the outbox ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_loopback_port()
        self._controller: Controller | None = None

    @property
    def url(self) -> str:
        """Return the catcher's address as CELESTIAL_SMTP_URL takes it."""
        return f"smtp://127.0.0.1:{self.port}"

    async def handle_DATA(self, server, session, envelope) -> str:  # aiosmtpd's handler hook
        """Keep the message; return the SMTP reply."""
        keep_message(self.folder, envelope.original_content or envelope.content)
        return "250 Kept in the development outbox"

    def start(self) -> MailCatcher:
        """Start serving (in a thread of its own); return the catcher."""
        # Made here, not in __init__: the controller opens an event loop only its run closes.
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self._controller.start()
        return self

    def stop(self) -> None:
        """Stop serving."""
        if self._controller is not None:
            self._controller.stop()
