"""The status page's charts (gateway/status_page.py), drawn on the server as SVG."""

from __future__ import annotations

from datetime import date, timedelta
from types import SimpleNamespace

from gateway.status_page import latency_chart_svg, start_status, uptime_chart_svg
from gateway.status_report import UPTIME_DAYS, WINDOWS, build_report, report_data
from shared.runtime.config import load_settings
from store.memory_store import MemoryStore
from store.status_records import DOWN, MINUTES_A_DAY, NOT_PROBED, UP, ProbeDay

TODAY = date(2026, 12, 6)


def test_the_uptime_chart_has_a_bar_per_day_of_the_last_30():
    svg = uptime_chart_svg([], TODAY)
    assert svg.count("<rect") == UPTIME_DAYS
    assert (TODAY - timedelta(days=UPTIME_DAYS - 1)).isoformat() in svg and TODAY.isoformat() in svg


def test_a_day_with_a_minute_down_is_drawn_apart():
    marks = UP * 99 + DOWN + NOT_PROBED * (MINUTES_A_DAY - 100)
    svg = uptime_chart_svg([ProbeDay(TODAY, marks)], TODAY)
    assert svg.count('class="bar bar-down"') == 1 and "99.000% up (1 minutes down)" in svg
    assert svg.count('class="bar unprobed"') == UPTIME_DAYS - 1


def test_the_latency_chart_draws_no_bar_for_a_class_without_answers():
    classes = report_data(build_report({w: [] for w in WINDOWS}, [], 0, 60))["classes"]
    assert "<title>quick" not in latency_chart_svg(classes, "day")


def test_a_store_without_status_records_gives_a_page_without_figures_and_no_tasks():
    app = SimpleNamespace(state=SimpleNamespace())
    assert start_status(app, load_settings({}), MemoryStore()) == []
    assert (app.state.status_reports, app.state.status_recorder) == (None, None)
