"""One chart of a chart request: cast whole by the kernel, with the extras its options ask for, and rendered."""

from __future__ import annotations

from collections.abc import Callable

from celestial.v1 import common_pb2
from kernel.chart import Chart, cast_chart
from kernel.positions import Observer
from kernel.timescale import Moment
from shared.runtime.chart_inputs import ChartInputs
from shared.runtime.chart_record import chart_record


def chart_reply(
    inputs: ChartInputs,
    moment: Moment,
    place: Observer,
    *,
    chart_type: str = "natal",
    source: dict | None = None,
    turn: Callable[[Chart], Chart] | None = None,
) -> tuple[common_pb2.Chart, list[str], Chart]:
    """Return the Chart message of a chart request's chart at ``moment`` and ``place``
    (optionally ``turn``-ed, as the draconic chart is, whose patterns stay the unturned
    chart's), the prose warnings (the chart's conditions, then its extras' own) and the kernel
    chart itself. ``inputs`` is the request as its kind's reader read it (``chart_inputs.py``)."""
    chart = cast_chart(
        moment, place, inputs.settings, chart_type=chart_type, source=source, extras=inputs.extras, turn=turn
    )
    return chart_record(chart), [c.message for c in chart.warnings] + chart.notes, chart
