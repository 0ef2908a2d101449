"""The gateway's probes of itself (gateway/status_probes.py): up on a 200 within the timeout, down
on anything else."""

from __future__ import annotations

import asyncio

import yaml

from gateway.status_probes import PROBE_PATH, probe_every, probe_once
from shared.runtime.config import REPO_ROOT, load_settings


def answering(status: int, *, delay_s: float = 0.0, fail: bool = False):
    asked = []

    async def app(scope, receive, send):
        asked.append((scope["method"], scope["path"]))
        if fail:
            raise RuntimeError("broken")
        await asyncio.sleep(delay_s)
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    return app, asked


def test_the_probe_asks_for_readiness_through_the_application():
    app, asked = answering(200)
    assert asyncio.run(probe_once(app)) is True
    assert asked == [("GET", PROBE_PATH)]


def test_a_probe_answered_other_than_200_is_down():
    assert asyncio.run(probe_once(answering(503)[0])) is False


def test_a_probe_that_fails_is_down():
    assert asyncio.run(probe_once(answering(200, fail=True)[0])) is False


def test_a_probe_not_answered_in_time_is_down():
    assert asyncio.run(probe_once(answering(200, delay_s=1.0)[0], timeout_s=0.01)) is False


def test_probes_count_from_the_first_one_up():
    answers = iter([503, 503, 200, 503])
    recorded = []

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": next(answers), "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def body():
        task = asyncio.create_task(probe_every(app, recorded.append, 0))
        while len(recorded) < 2:
            await asyncio.sleep(0)
        task.cancel()

    asyncio.run(body())
    assert [result.up for result in recorded] == [True, False]


def test_probes_are_off_by_default_and_on_in_the_image_and_on_kubernetes():
    assert load_settings({}).status_probe_s == 0
    assert "CELESTIAL_STATUS_PROBE_S=60" in (REPO_ROOT / "deploy" / "Containerfile").read_text()
    config = yaml.safe_load((REPO_ROOT / "deploy" / "k8s" / "base" / "config.yaml").read_text())
    assert config["data"]["CELESTIAL_STATUS_PROBE_S"] == "60"
