"""The public status page, ``/status`` (HTML, charts drawn on the server as SVG, no script
needed), and its JSON form ``/v1/status``: free, no key, the same figures on every gateway
(``status_report.py``). Nothing on them names an account, a key, a chart or a parameter: only
operation classes, windows, counts, durations and days.
"""

from __future__ import annotations

import asyncio
import math
import time
from datetime import date, timedelta

from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gateway.errors import request_id_of, with_error_body
from gateway.html_pages import render_page
from gateway.json_response import json_response
from gateway.status_figures import uptime_share
from gateway.status_recording import start_recording
from gateway.status_report import UPTIME_DAYS, WINDOWS, ReportCache, StatusReport, as_of, build_report, report_data
from shared.errors import InvalidParameter
from shared.runtime.config import Settings
from store.interfaces import StatusRecords
from store.status_records import ProbeDay, day_of

WIDTH_PX = 640
HEIGHT_PX = 200
_AXIS_PX = 24  # room under the bars for the labels
_TOP_PX = 16  # room above the bars for the scale's figure
_SCALE_PX = 52  # room left of the latency chart's bars for its scale
#: The latency chart's scale: a logarithmic axis from 1 ms to 60 s (the buckets' range).
_LOG_FLOOR_MS, _LOG_CEILING_MS = 1.0, 60_000.0
_WINDOW_TITLES = {"hour": "Last hour", "day": "Last day", "30_days": "Last 30 days"}


def uptime_chart_svg(days: list[ProbeDay], today: date) -> Markup:
    """Return the SVG chart of the last UPTIME_DAYS days' uptime ending ``today``: one bar per
    day, its height the share of probed minutes that were up (a short grey bar for a day not
    probed), a day with a minute down drawn in the error colour."""
    by_day = {day.day: day for day in days}
    slot_px = WIDTH_PX / UPTIME_DAYS
    bar_px = slot_px * 0.7
    plot_px = HEIGHT_PX - _AXIS_PX - _TOP_PX
    first = today - timedelta(days=UPTIME_DAYS - 1)
    title = f"Uptime per day as the gateways' probes saw it, {first.isoformat()} to {today.isoformat()}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH_PX} {HEIGHT_PX}" role="img" '
        f'aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<line class="axis" x1="0" y1="{HEIGHT_PX - _AXIS_PX}" x2="{WIDTH_PX}" y2="{HEIGHT_PX - _AXIS_PX}"/>',
        f'<text x="{WIDTH_PX}" y="12" text-anchor="end">100%</text>',
    ]
    for position in range(UPTIME_DAYS):
        day = first + timedelta(days=position)
        share = uptime_share(by_day[day]) if day in by_day else None
        x = position * slot_px + (slot_px - bar_px) / 2
        if share is None:
            height, kind, label = 2.0, "bar unprobed", f"{day.isoformat()}: not probed"
        else:
            height = max(plot_px * share, 2.0)
            kind = "bar" if share == 1 else "bar bar-down"
            label = f"{day.isoformat()}: {share:.3%} up ({by_day[day].down_minutes} minutes down)"
        y = HEIGHT_PX - _AXIS_PX - height
        parts.append(
            f'<rect class="{kind}" x="{x:.1f}" y="{y:.1f}" width="{bar_px:.1f}" height="{height:.1f}">'
            f"<title>{escape(label)}</title></rect>"
        )
    parts.append(f'<text x="0" y="{HEIGHT_PX - 6}">{first.isoformat()}</text>')
    parts.append(f'<text x="{WIDTH_PX}" y="{HEIGHT_PX - 6}" text-anchor="end">{today.isoformat()}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _log_height(ms: float, plot_px: float) -> float:
    """Return the height of a bar of ``ms`` milliseconds on the latency chart's log scale."""
    clipped = min(max(ms, _LOG_FLOOR_MS), _LOG_CEILING_MS)
    return plot_px * math.log(clipped / _LOG_FLOOR_MS) / math.log(_LOG_CEILING_MS / _LOG_FLOOR_MS)


def latency_chart_svg(classes: list[dict], window: str) -> Markup:
    """Return the SVG chart of each class's p50, p95 and p99 (milliseconds, log scale) over
    ``window``, from ``report_data``'s classes; a class without answers has no bars."""
    title = f"p50, p95 and p99 by operation class, {_WINDOW_TITLES[window].lower()} (milliseconds, log scale)"
    plot_left = _SCALE_PX
    slot_px = (WIDTH_PX - plot_left) / max(len(classes), 1)
    bar_px = slot_px * 0.22
    plot_px = HEIGHT_PX - _AXIS_PX - _TOP_PX
    baseline = HEIGHT_PX - _AXIS_PX
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH_PX} {HEIGHT_PX}" role="img" '
        f'aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<line class="axis" x1="{plot_left}" y1="{baseline}" x2="{WIDTH_PX}" y2="{baseline}"/>',
    ]
    for tick_ms, text in ((1, "1 ms"), (10, "10 ms"), (100, "100 ms"), (1000, "1 s"), (10_000, "10 s")):
        y = baseline - _log_height(tick_ms, plot_px)
        parts.append(f'<line class="grid" x1="{plot_left}" y1="{y:.1f}" x2="{WIDTH_PX}" y2="{y:.1f}"/>')
        parts.append(f'<text x="{plot_left - 4}" y="{y + 4:.1f}" text-anchor="end">{text}</text>')
    for rank, name in enumerate(("p50", "p95", "p99")):
        x = WIDTH_PX - (3 - rank) * 48
        parts.append(f'<rect class="bar bar-{name}" x="{x}" y="2" width="10" height="10"/>')
        parts.append(f'<text x="{x + 14}" y="11">{name}</text>')
    for position, op_class in enumerate(classes):
        figures = next(w for w in op_class["windows"] if w["window"] == window)
        left = plot_left + position * slot_px + slot_px * 0.15
        for rank, name in enumerate(("p50_ms", "p95_ms", "p99_ms")):
            value = figures[name]
            if value is None:
                continue
            height = max(_log_height(value, plot_px), 1.0)
            parts.append(
                f'<rect class="bar bar-{name[:3]}" x="{left + rank * bar_px:.1f}" y="{baseline - height:.1f}" '
                f'width="{bar_px * 0.9:.1f}" height="{height:.1f}">'
                f"<title>{escape(op_class['name'])} {name[:3]}: {value} ms</title></rect>"
            )
        parts.append(
            f'<text x="{plot_left + position * slot_px + slot_px / 2:.1f}" y="{HEIGHT_PX - 6}" text-anchor="middle">'
            f"{escape(op_class['name'])}</text>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def _empty_report(probe_interval_s: float) -> StatusReport:
    """Return the report of a gateway whose store keeps no status records: no figures."""
    return build_report({window: [] for window in WINDOWS}, [], time.time(), probe_interval_s)


async def current_report(request: Request) -> StatusReport:
    """Return the report this gateway answers now (from its cache of the store's figures)."""
    cache: ReportCache | None = request.app.state.status_reports
    if cache is None:
        return _empty_report(request.app.state.gateway.settings.status_probe_s)
    return await cache.report()


async def _page(request: Request) -> Response:
    report = await current_report(request)
    data = report_data(report)
    context = {
        "title": "Status",
        "who": None,
        "as_of": as_of(report),
        "classes": data["classes"],
        "uptime": data["uptime"],
        "window_titles": _WINDOW_TITLES,
        "uptime_chart": uptime_chart_svg(report.days, day_of(report.as_of_s)),
        "latency_chart": latency_chart_svg(data["classes"], "day"),
    }
    return render_page(request, "status.html", context)


@with_error_body
async def _as_json(request: Request) -> Response:
    if request.query_params:
        name = next(iter(request.query_params))
        # The figures take no parameter: one named is a mistake to say, as on every /v1 operation.
        raise InvalidParameter(
            f"/v1/status takes no parameter; got {name[:40]!r}.",
            suggestion="Send GET /v1/status alone.",
            param=name[:40],
        )
    report = await current_report(request)
    return json_response(
        {"data": report_data(report), "meta": {"request_id": request_id_of(request), "as_of": as_of(report)}}
    )


def status_routes() -> list[Route]:
    """Return the routes of ``/status`` and ``/v1/status``."""
    return [Route("/status", _page, methods=["GET"]), Route("/v1/status", _as_json, methods=["GET"])]


def start_status(app, settings: Settings, store: object) -> list[asyncio.Task]:
    """Set up the status page on ``app`` for ``store`` (its report cache, the recorder) and
    return the tasks that flush and probe (``status_recording.start_recording``); the page has
    no figures on a store that keeps no status records."""
    app.state.status_reports = ReportCache(store, settings.status_probe_s) if isinstance(store, StatusRecords) else None
    return start_recording(app, settings, store)
