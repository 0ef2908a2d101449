"""Reader of what a progressed chart request progresses: the birth, the target and the
progressed moment between them. Validation runs it in the gateway before any charge (the rule
of ComputeProgressedChartRequest, ``shared/runtime/request_readers.py``): a target before birth
is refused there. The ephemeris service calls it to read the request."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from kernel.errors import InvalidProgression
from kernel.positions import Observer
from kernel.progressions import progressed_moment
from kernel.timescale import Moment
from shared.runtime.chart_inputs import ChartInputs, chart_inputs
from shared.runtime.kernel_errors import naming
from shared.runtime.wire import birth_from, moment_from, sent_moment_name


@dataclass(frozen=True)
class Progression:
    """A secondary progression: the natal moment and place, the target, and the moment the
    progressed chart is cast for, with its settings and extras."""

    natal: Moment
    place: Observer
    target: Moment
    moment: Moment
    chart: ChartInputs


def progression_from(request: Message) -> Progression:
    """Return the progression a request asks for: one day after birth for each ``year_days``
    to the target (InvalidProgression naming the target's parameter when it is before birth),
    then its chart's settings and extras (:func:`shared.runtime.chart_inputs.chart_inputs`)."""
    natal, place = birth_from(request)
    target = moment_from(request, "target")
    with naming(sent_moment_name(request, "target"), also=(InvalidProgression,)):
        moment = progressed_moment(natal, target, request.year_days)
    return Progression(natal, place, target, moment, chart_inputs(request))
