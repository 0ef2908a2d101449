"""The events a webhook subscription delivers, asked of the search pool over gRPC like any
client asks it (issue 46, part 3).

A chart subscription's events are /v1/forecast's: the ``FindForecast`` request the API makes
for ``chart=<id>`` (the stored chart's ``parameters`` and the settings it takes,
``shared/runtime/stored_chart_parameters.py``) with the subscription's kinds, built by the
gateway's own transcoding (``shared/runtime/transcoder.py``), computed by the search pool
(validation included) and rendered by the gateway's own renderer
(``shared/runtime/reply_rendering.py``). The stored local datetime and its zone are sent as
they are, as the gateway sends them: the search service resolves them to an instant itself
(``shared/runtime/wire.py``), so the worker needs no tz database, no gazetteer and no
ephemeris. Each event is asked for over the UTC day of its instant (start that day's 00:00Z,
end the next day's), so a delivered event equals, member for member, the event of the same id
that ``/v1/forecast`` answers for that day with those kinds (a transit window's ``clamped_*``
depend on the range asked for: the day fixes it).

A sky subscription's events (ingresses, stations, lunations, eclipses) concern no chart: they
are the forecast's for a reference birth with what concerns the birth removed, and ids of
their own (``webhooks/forecast_requests.py``, which writes the request's body and reads the answer).

The call is the gateway's: the same channel (``shared/runtime/pool_channel.py``: round robin
over the healthy processes of ``CELESTIAL_SEARCH_ADDRESSES``, a busy or stopping process
retried on another, keepalive pings), the scan deadline (``CELESTIAL_SCAN_DEADLINE_S``,
FindForecast's deadline class) and an ``x-request-id`` naming the subscription and the day.
A call that fails (no process reachable, every one busy, the deadline passed, a refusal) is
logged and raised as :class:`EventsUnavailable`: the scheduler keeps nothing of that day and
asks again at its next tick.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import grpc
import structlog

from celestial.v1 import search_service_pb2 as pb
from shared.runtime.config import Settings
from shared.runtime.pool_channel import (
    REQUEST_ID_METADATA_KEY,
    channel_options,
    channel_target,
)
from shared.runtime.reply_rendering import render_message
from shared.runtime.stored_chart_parameters import stand_in
from shared.runtime.transcoder import request_from_json
from store.chart_records import StoredChart
from store.webhook_records import Webhook
from webhooks.forecast_requests import FORECAST_PATH, forecast_body, sky_event

log = structlog.get_logger("webhook_worker")

#: (subscription, its stored chart or None for a sky subscription, the UTC day's 00:00) ->
#: the day's events as delivered.
EventsOf = Callable[[Webhook, StoredChart | None, datetime], Awaitable[list[dict[str, Any]]]]

#: The search service's RPC of /v1/forecast (docs/grpc.md's table).
FIND_FORECAST = "/celestial.v1.SearchService/FindForecast"


def forecast_request(day: datetime, kinds: tuple[str, ...], chart: StoredChart | None) -> pb.FindForecastRequest:
    """Return the FindForecast request of one UTC day's events of ``kinds``: what the gateway
    sends for :func:`forecast_body` naming ``chart`` (its parameters and settings in place of
    ``chart``), or for the sky's reference birth when ``chart`` is None."""
    body = forecast_body(day, kinds, chart.chart_id if chart is not None else None)
    if chart is not None:
        given = set(body)
        del body["chart"]
        body.update(stand_in(chart.parameters, chart.settings, pb.FindForecastRequest, "chart", given))
    return request_from_json(pb.FindForecastRequest, body, FORECAST_PATH)


def delivered_events(reply: pb.FindForecastResponse, sky: bool) -> list[dict[str, Any]]:
    """Return a FindForecast reply's events as the gateway renders them in /v1/forecast's
    ``data.events``; a sky subscription's each as a :func:`sky_event`."""
    events = render_message(reply)["data"]["events"]
    return [sky_event(event) for event in events] if sky else events


class EventsUnavailable(Exception):
    """The search pool did not answer a day's forecast (unreachable, busy, past the deadline,
    or a refusal); nothing of that day is known, so it is asked again later."""


class SearchPoolEvents:
    """The events source of one worker process (an :data:`EventsOf`): each call asks the
    search pool for one subscription's events of one UTC day.

    One channel, opened on the first call (in the worker's event loop) and kept; ``close``
    closes it."""

    def __init__(self, addresses: tuple[str, ...], *, deadline_s: float, keepalive_s: float, ping_timeout_s: float):
        if not addresses:
            raise ValueError("The webhook worker needs the search pool's addresses (CELESTIAL_SEARCH_ADDRESSES).")
        self.addresses = addresses
        self.deadline_s = deadline_s
        self._options = channel_options(len(addresses), keepalive_s, ping_timeout_s)
        self._channel: grpc.aio.Channel | None = None
        self._find_forecast: Any = None

    @classmethod
    def of(cls, settings: Settings) -> SearchPoolEvents:
        """Return the events source the settings name: the search pool's addresses, the scan
        deadline, the gateway's keepalive."""
        return cls(
            settings.service_addresses["search"],
            deadline_s=settings.scan_deadline_s,
            keepalive_s=settings.service_keepalive_s,
            ping_timeout_s=settings.service_ping_timeout_s,
        )

    async def __call__(self, webhook: Webhook, chart: StoredChart | None, day: datetime) -> list[dict[str, Any]]:
        """Return the events of ``webhook``'s kinds whose instant lies on the UTC ``day`` (its
        00:00), of ``chart`` (None: the sky's), as delivered; raise EventsUnavailable when the
        search pool does not answer."""
        request = forecast_request(day, webhook.events, chart)
        request_id = f"webhook.{webhook.webhook_id}.{day:%Y-%m-%d}"
        try:
            reply = await self._call()(
                request, timeout=self.deadline_s, metadata=((REQUEST_ID_METADATA_KEY, request_id),)
            )
        except grpc.aio.AioRpcError as error:
            log.warning(
                "webhook_forecast_failed",
                webhook_id=webhook.webhook_id,
                day=f"{day:%Y-%m-%d}",
                code=error.code().name,
                details=error.details(),
            )
            raise EventsUnavailable(f"FindForecast failed: {error.code().name}") from None
        return delivered_events(reply, sky=chart is None)

    def _call(self):
        if self._find_forecast is None:
            self._channel = grpc.aio.insecure_channel(channel_target(self.addresses), options=self._options)
            self._find_forecast = self._channel.unary_unary(
                FIND_FORECAST,
                request_serializer=pb.FindForecastRequest.SerializeToString,
                response_deserializer=pb.FindForecastResponse.FromString,
            )
        return self._find_forecast

    async def close(self) -> None:
        """Close the channel, if one was opened."""
        if self._channel is not None:
            await self._channel.close()
            self._channel, self._find_forecast = None, None
