"""The development outbox: the mail `make run`'s mail catcher received, one file per message
in a folder of the data directory, the newest OUTBOX_LIMIT kept.

The catcher (``deploy/mail_catcher.py``) writes; the dashboard's outbox page
(``gateway/dashboard/outbox.py``) reads. Files are the raw messages (``.eml``), readable by
their owner only: they hold one-time links that sign a person in.
"""

from __future__ import annotations

import email
import email.policy
import os
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

#: Messages kept: enough for a day of trying sign-up by hand, small enough to read at a glance.
OUTBOX_LIMIT = 100
_SUFFIX = ".eml"


@dataclass(frozen=True)
class OutboxMessage:
    """One message of the outbox, as the outbox page shows it."""

    received_at: datetime
    sender: str
    to: str
    subject: str
    text: str


def keep_message(folder: Path, raw: bytes, limit: int = OUTBOX_LIMIT) -> Path:
    """Write ``raw`` (a whole message) into ``folder`` as its newest file, drop the oldest beyond
    ``limit``, and return the new file's path."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    # Named by the moment it arrived, so names sort as messages arrived.
    name = f"{time.time_ns():020d}{_SUFFIX}"
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=".incoming.")  # created 0600
    with os.fdopen(descriptor, "wb") as file:
        file.write(raw)
    path = folder / name
    os.replace(temporary, path)
    for old in _message_files(folder)[:-limit]:
        old.unlink(missing_ok=True)
    return path


def _message_files(folder: Path) -> list[Path]:
    """Return the message files of ``folder``, oldest first (none when it does not exist)."""
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.iterdir() if path.suffix == _SUFFIX and not path.name.startswith("."))


def read_messages(folder: Path, limit: int = OUTBOX_LIMIT) -> list[OutboxMessage]:
    """Return up to ``limit`` messages of ``folder``, newest first; a file that vanished while
    being read (pruned by the catcher) is left out."""
    messages = []
    for path in reversed(_message_files(folder)[-limit:]):
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            continue
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        body = parsed.get_body(preferencelist=("plain",))
        messages.append(
            OutboxMessage(
                received_at=datetime.fromtimestamp(int(path.stem) / 1e9, UTC),
                sender=str(parsed["From"] or ""),
                to=str(parsed["To"] or ""),
                subject=str(parsed["Subject"] or ""),
                # A message as SMTP carried it ends its lines with CRLF; a page shows them as lines.
                text=body.get_content().replace("\r\n", "\n") if body is not None else "",
            )
        )
    return messages
