"""Reader of what a progressed chart request progresses: the birth, the target and the
progressed moment between them. Validation runs it in the gateway before any charge (the rule
of ComputeProgressedChartRequest, ``shared/runtime/request_rules.py``): a target before birth
is refused there. The ephemeris service calls it to read the request."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from shared.kernel.positions import Observer
from shared.kernel.progressions import progressed_moment
from shared.kernel.timescale import Moment
from shared.runtime.wire import birth_from, moment_from, sent_moment_name


@dataclass(frozen=True)
class Progression:
    """A secondary progression: the natal moment and place, the target, and the moment the
    progressed chart is cast for."""

    natal: Moment
    place: Observer
    target: Moment
    moment: Moment


def progression_from(request: Message) -> Progression:
    """Return the progression a request asks for: one day after birth for each ``year_days``
    to the target (InvalidProgression naming the target's parameter when it is before birth)."""
    natal, place = birth_from(request)
    target = moment_from(request, "target")
    moment = progressed_moment(natal, target, request.year_days, param=sent_moment_name(request, "target"))
    return Progression(natal, place, target, moment)
