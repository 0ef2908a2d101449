"""shared/runtime/dev_outbox.py: the development outbox keeps each message whole, shows the
newest first, keeps no more than its limit, and lets only its owner read the files."""

from __future__ import annotations

from email.message import EmailMessage

from shared.runtime.dev_outbox import keep_message, read_messages


def _message(subject: str, text: str = "Follow http://127.0.0.1:8080/dashboard/invite?token=own_a.b\n") -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "Celestial <no-reply@localhost>", "ada@example.com", subject
    message.set_content(text)
    return bytes(message)


def test_a_kept_message_reads_back_with_its_headers_and_text(tmp_path):
    keep_message(tmp_path, _message("Confirm", "the link: http://x/dashboard/invite?token=t\n"))
    (message,) = read_messages(tmp_path)
    assert (message.sender, message.to, message.subject) == (
        "Celestial <no-reply@localhost>",
        "ada@example.com",
        "Confirm",
    )
    assert message.text == "the link: http://x/dashboard/invite?token=t\n"


def test_messages_read_newest_first(tmp_path):
    for subject in ("first", "second", "third"):
        keep_message(tmp_path, _message(subject))
    assert [m.subject for m in read_messages(tmp_path)] == ["third", "second", "first"]


def test_only_the_newest_messages_up_to_the_limit_are_kept(tmp_path):
    for index in range(5):
        keep_message(tmp_path, _message(f"m{index}"), limit=3)
    assert [m.subject for m in read_messages(tmp_path)] == ["m4", "m3", "m2"]
    assert len(list(tmp_path.iterdir())) == 3


def test_the_files_and_their_folder_are_readable_by_their_owner_only(tmp_path):
    folder = tmp_path / "outbox"
    path = keep_message(folder, _message("secret link"))
    assert path.stat().st_mode & 0o077 == 0
    assert folder.stat().st_mode & 0o077 == 0


def test_an_outbox_that_was_never_written_is_empty(tmp_path):
    assert read_messages(tmp_path / "missing") == []
