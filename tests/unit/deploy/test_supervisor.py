"""`make run`'s supervisor: what it checks before it starts anything, when it starts a
process again, and the development key it prints."""

from __future__ import annotations

import asyncio
import http.server
import os
import socket
import stat
import subprocess
import sys
import threading

from deploy import supervisor
from deploy.local_stack import free_port_block
from shared.runtime.config import REPO_ROOT, load_settings
from store.choice import open_configured_store


def test_a_port_of_the_plan_already_listened_on_is_reported_with_its_process():
    base = free_port_block(8)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", base + 1))
        holder.listen()
        settings = load_settings(
            {
                "CELESTIAL_SERVICE_BASE_PORT": str(base),
                "CELESTIAL_EPHEMERIS_PROCESSES": "1",
                "CELESTIAL_HTTP_PORT": str(free_port_block(1)),
            }
        )
        assert supervisor.busy_ports(settings) == [("timelords-0", base + 1)]


def test_with_a_port_in_use_the_supervisor_starts_nothing_and_says_which_and_what_to_set(processes):
    http_port = free_port_block(1)
    env = {**os.environ, "CELESTIAL_HTTP_PORT": str(http_port), "CELESTIAL_SERVICE_BASE_PORT": str(free_port_block(8))}
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", http_port))
        holder.listen()
        finished = subprocess.run(
            [sys.executable, "-m", "deploy.supervisor", "--no-dev-key"],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert finished.returncode == 1
    assert f"{http_port} (gateway)" in finished.stderr and "CELESTIAL_HTTP_PORT" in finished.stderr
    assert "service_started" not in finished.stdout + finished.stderr  # no process was started


def test_ports_free_now_are_not_reported():
    settings = load_settings(
        {
            "CELESTIAL_SERVICE_BASE_PORT": str(free_port_block(8)),
            "CELESTIAL_EPHEMERIS_PROCESSES": "1",
            "CELESTIAL_HTTP_PORT": str(free_port_block(1)),
        }
    )
    assert supervisor.busy_ports(settings) == []


class FinishedProcess:
    """Stands for a subprocess.Popen: exited with ``returncode``, or running when it is None."""

    def __init__(self, returncode: int | None):
        self.returncode = returncode

    def poll(self) -> int | None:
        return self.returncode


def child(
    returncode: int | None, started_at: float, healthy_at: float | None = None, first_probed_at: float | None = None
) -> supervisor.Child:
    """Return a supervised child started at ``started_at`` whose process exited with ``returncode`` (None: runs),
    first asked for its health at ``first_probed_at`` (by default as it started)."""
    return supervisor.Child(
        "ephemeris-0",
        ["true"],
        lambda: True,
        process=FinishedProcess(returncode),
        started_at=started_at,
        healthy_at=healthy_at,
        first_probed_at=started_at if first_probed_at is None else first_probed_at,
    )


LIMIT_S = 10.0


def test_a_process_that_exited_is_started_again_once_the_backoff_has_passed():
    assert (
        supervisor.restart_reason(child(1, started_at=100.0), 100.0 + supervisor.RESTART_BACKOFF_S / 2, LIMIT_S) is None
    )
    reason = supervisor.restart_reason(child(-9, started_at=100.0), 100.0 + supervisor.RESTART_BACKOFF_S, LIMIT_S)
    assert reason == "it exited with status -9"


def test_the_gateway_is_restarted_like_any_service_process():
    gateway = supervisor.plan(load_settings({}))[-1]
    assert gateway.name == "gateway"
    gateway.process, gateway.started_at = FinishedProcess(-9), 100.0
    assert supervisor.restart_reason(gateway, 200.0, LIMIT_S) == "it exited with status -9"


def test_a_process_silent_for_longer_than_the_limit_is_restarted_and_one_that_answered_within_it_is_not():
    assert supervisor.restart_reason(child(None, started_at=0.0, healthy_at=100.0), 100.0 + LIMIT_S, LIMIT_S) is None
    reason = supervisor.restart_reason(child(None, started_at=0.0, healthy_at=100.0), 100.0 + LIMIT_S + 0.5, LIMIT_S)
    assert reason == "it answered no health check for 10.5 s"


def test_a_starting_process_has_the_start_up_time_for_its_first_answer():
    late = 100.0 + supervisor.START_UP_S
    assert supervisor.restart_reason(child(None, started_at=100.0), late, LIMIT_S) is None
    assert supervisor.restart_reason(child(None, started_at=100.0), late + 1, LIMIT_S) is not None
    # A limit longer than the start-up time holds before the first answer too.
    assert supervisor.restart_reason(child(None, started_at=100.0), late + 1, supervisor.START_UP_S * 2) is None


def test_the_start_up_time_counts_from_the_first_health_probe_not_from_the_start():
    # `make run` asks nothing while it waits for the gateway to be ready: a process that took
    # 40 s to start on a busy machine is first asked then, and has its start-up time from then.
    waited = child(None, started_at=100.0, first_probed_at=140.0)
    assert supervisor.restart_reason(waited, 140.0 + supervisor.START_UP_S, LIMIT_S) is None
    assert supervisor.restart_reason(waited, 141.0 + supervisor.START_UP_S, LIMIT_S) is not None
    never_asked = supervisor.Child("ephemeris-0", ["true"], lambda: True, process=FinishedProcess(None), started_at=0.0)
    assert supervisor.restart_reason(never_asked, 1000.0, LIMIT_S) is None


def dev_settings(tmp_path):
    return load_settings({"CELESTIAL_DATA_DIR": str(tmp_path / "data")})


def dev_keys(settings) -> list:
    """Return the `dev` account's keys, oldest first."""

    async def listed():
        store = await open_configured_store(settings)
        try:
            return await store.list_keys(supervisor.DEV_ACCOUNT)
        finally:
            await store.close()

    return asyncio.run(listed())


def revoke(settings, key_id: str) -> None:
    async def revoked():
        store = await open_configured_store(settings)
        try:
            await store.revoke_key(key_id)
        finally:
            await store.close()

    asyncio.run(revoked())


def test_every_make_run_prints_the_same_development_key_while_it_is_active(tmp_path):
    settings = dev_settings(tmp_path)
    first = supervisor.development_key(settings)
    assert supervisor.development_key(settings) == supervisor.development_key(settings) == first
    assert [key.state() for key in dev_keys(settings)] == ["active"]
    kept = settings.data_dir / supervisor.DEV_KEY_FILE
    assert kept.read_text().strip() == first
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600


def test_a_revoked_development_key_is_replaced_by_a_new_one_kept_in_its_place(tmp_path):
    settings = dev_settings(tmp_path)
    first = supervisor.development_key(settings)
    revoke(settings, dev_keys(settings)[0].key_id)
    second = supervisor.development_key(settings)
    assert second != first
    assert supervisor.development_key(settings) == second
    assert [key.state() for key in dev_keys(settings)] == ["revoked", "active"]


def test_a_development_key_other_users_could_read_is_revoked_and_replaced(tmp_path):
    settings = dev_settings(tmp_path)
    first = supervisor.development_key(settings)
    (settings.data_dir / supervisor.DEV_KEY_FILE).chmod(0o644)
    assert supervisor.development_key(settings) != first
    assert [key.state() for key in dev_keys(settings)] == ["revoked", "active"]
    assert stat.S_IMODE((settings.data_dir / supervisor.DEV_KEY_FILE).stat().st_mode) == 0o600


def test_a_gateway_refusing_connections_over_its_limit_counts_as_answering():
    class Refusing(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(503)
            self.end_headers()

        def log_message(self, *args):
            pass

    with http.server.HTTPServer(("127.0.0.1", 0), Refusing) as server:
        threading.Thread(target=server.handle_request, daemon=True).start()
        assert supervisor.http_health(f"http://127.0.0.1:{server.server_port}/healthz") is supervisor.Health.ANSWERED


def test_a_gateway_whose_port_is_closed_refuses_and_one_that_accepts_but_never_answers_is_silent():
    # A gateway draining after a SIGTERM has closed its port; a frozen one's port still accepts.
    closed = f"http://127.0.0.1:{free_port_block(1)}/healthz"
    assert supervisor.http_health(closed) is supervisor.Health.REFUSED
    with socket.socket() as frozen:
        frozen.bind(("127.0.0.1", 0))
        frozen.listen()
        assert supervisor.http_health(f"http://127.0.0.1:{frozen.getsockname()[1]}/healthz") is supervisor.Health.SILENT


def test_a_process_draining_after_a_sigterm_has_its_shutdown_grace_before_it_is_killed():
    # It answered at 100, then refused from 101 (its port closed, or NOT_SERVING): a drain of a
    # long scan outlasts the unhealthy limit, and is killed only past the grace and its margin.
    drain_s = 25.0 + supervisor.DRAIN_MARGIN_S
    draining = child(None, started_at=0.0, healthy_at=100.0)
    draining.refusing_since = 101.0
    assert supervisor.restart_reason(draining, 101.0 + LIMIT_S + 5, LIMIT_S, drain_s) is None
    assert supervisor.restart_reason(draining, 101.0 + drain_s, LIMIT_S, drain_s) is None
    reason = supervisor.restart_reason(draining, 101.0 + drain_s + 0.5, LIMIT_S, drain_s)
    assert reason == "it has drained for 30.5 s, longer than its shutdown grace"
    # Silent (no answer at all, refusing_since None) is killed after the limit, grace or not.
    silent = child(None, started_at=0.0, healthy_at=100.0)
    assert supervisor.restart_reason(silent, 100.0 + LIMIT_S + 0.5, LIMIT_S, drain_s) is not None


def test_make_run_says_sign_up_is_off_without_smtp_and_how_owners_come():
    from deploy.supervisor import signup_line
    from shared.runtime.config import load_settings

    off = signup_line(load_settings({"CELESTIAL_SIGNUP": "open"}), "http://127.0.0.1:8080")
    assert "Sign-up: off (CELESTIAL_SMTP_URL is not set)" in off and "account invite" in off
    assert "CELESTIAL_SIGNUP is not open" in signup_line(load_settings({}), "http://127.0.0.1:8080")
    on = signup_line(
        load_settings({"CELESTIAL_SIGNUP": "open", "CELESTIAL_SMTP_URL": "smtp://127.0.0.1:2525"}), "http://x"
    )
    assert "Sign-up: open" in on


def test_make_run_catches_mail_in_development_when_no_mail_server_is_set():
    from deploy.supervisor import wants_mail_catcher

    assert wants_mail_catcher(load_settings({}))
    assert not wants_mail_catcher(load_settings({"CELESTIAL_SMTP_URL": "smtp://mail.example:25"}))
    assert not wants_mail_catcher(load_settings({"CELESTIAL_MODE": "production"}))


def test_the_gateway_sends_its_mail_to_the_catcher_and_opens_sign_up_unless_told_otherwise():
    from deploy.supervisor import catcher_environment

    extra = catcher_environment({}, "smtp://127.0.0.1:2525", "tok")
    assert extra == {
        "CELESTIAL_SMTP_URL": "smtp://127.0.0.1:2525",
        "CELESTIAL_DEV_OUTBOX_TOKEN": "tok",
        "CELESTIAL_SIGNUP": "open",
    }
    assert "CELESTIAL_SIGNUP" not in catcher_environment({"CELESTIAL_SIGNUP": "off"}, "smtp://127.0.0.1:2525", "tok")


def test_only_the_gateway_gets_the_catchers_settings_and_the_webhook_workers_its_mail():
    catcher = {"CELESTIAL_DEV_OUTBOX_TOKEN": "tok", "CELESTIAL_SMTP_URL": "smtp://127.0.0.1:1"}
    children = supervisor.plan(load_settings({}), catcher)
    assert children[-1].name == "gateway" and children[-1].env == catcher
    workers = [child for child in children if child.name.startswith("webhook-worker-")]
    assert [w.env["CELESTIAL_SMTP_URL"] for w in workers] == ["smtp://127.0.0.1:1"]
    assert all("CELESTIAL_DEV_OUTBOX_TOKEN" not in w.env for w in workers)
    assert all(child.env == {} for child in children[:-1] if child not in workers)


def test_make_run_prints_the_outbox_address_with_its_token():
    from deploy.supervisor import outbox_line

    line = outbox_line(load_settings({"CELESTIAL_DEV_OUTBOX_TOKEN": "tok"}), "http://127.0.0.1:8080")
    assert "http://127.0.0.1:8080/dashboard/outbox?token=tok" in line


def test_the_webhook_workers_are_a_process_kind_restarted_when_they_exit():
    children = supervisor.plan(
        load_settings({"CELESTIAL_WEBHOOK_WORKERS": "2"}), {"CELESTIAL_SMTP_URL": "smtp://127.0.0.1:1"}
    )
    workers = [c for c in children if c.name.startswith("webhook-worker-")]
    assert [w.argv[1:] for w in workers] == [["-m", "webhooks.worker"]] * 2
    assert all(w.env["CELESTIAL_SMTP_URL"] == "smtp://127.0.0.1:1" for w in workers)
    workers[0].process, workers[0].started_at = FinishedProcess(-9), 100.0
    assert supervisor.restart_reason(workers[0], 200.0, LIMIT_S) == "it exited with status -9"
    assert children[-1].name == "gateway"


def test_the_webhook_workers_are_told_the_search_processes_the_supervisor_starts():
    settings = load_settings({"CELESTIAL_SEARCH_PROCESSES": "2", "CELESTIAL_WEBHOOK_WORKERS": "2"})
    children = supervisor.plan(settings, {})
    searches = [child.argv[-1] for child in children if child.argv[1:3] == ["-m", "services.search.server"]]
    workers = [child for child in children if child.name.startswith("webhook-worker-")]
    assert len(searches) == 2 and len(workers) == 2
    for worker in workers:
        assert [
            address.rsplit(":", 1)[1] for address in worker.env["CELESTIAL_SEARCH_ADDRESSES"].split(",")
        ] == searches
