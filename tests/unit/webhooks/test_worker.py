"""webhooks/worker.py: the worker's loop shows it turns (its heartbeat)."""

from __future__ import annotations

from webhooks.settings import WorkerSettings
from webhooks.worker import beat


def test_the_heartbeat_file_is_touched_when_one_is_set(tmp_path):
    path = tmp_path / "alive"
    beat(WorkerSettings(heartbeat_path=str(path)))
    assert path.exists()
    beat(WorkerSettings())  # none set: nothing to touch
