"""Where a body returns to its natal longitude, as /v1/returns finds it: the one search the
returns endpoint (services/search) and a chart wheel of kind return (services/ephemeris)
share, so both find the same instant."""

from __future__ import annotations

from dataclasses import replace

from kernel.crossings import crossings
from kernel.deadline import Deadline
from kernel.errors import OutOfRange
from kernel.positions import CalcFlags, Observer, compute_positions
from kernel.timescale import Moment
from shared.runtime.kernel_errors import naming_each

#: The parameter the errors about a return chart's moment name. The moment is an instant the
#: search found, sent by no parameter; its errors have always named ``jd`` (the name a moment
#: built from a Julian Day carried), kept so that every answer stays as it was.
RETURN_MOMENT_PARAM = "jd"


def find_returns(
    body: str,
    natal: Moment,
    search_from: Moment,
    count: int,
    deadline: Deadline,
    *,
    flags: CalcFlags,
    place: Observer,
    from_param: str | None,
) -> tuple[float, list[Moment]]:
    """Return ``body``'s natal longitude (degrees [0, 360)) and the moments of its next
    ``count`` returns to it after ``search_from``, every crossing counted, refined to 1 ms.

    The return is found in the frame its chart is cast in: the natal longitude is the body's
    under ``flags`` at ``place`` (topocentric there with ``topocentric``), and the search runs
    under the same flags at the same place, so each return chart's body lies on it.
    """
    # The chart's longitudes are ecliptic whatever equatorial adds beside them.
    frame = replace(flags, speed=True, equatorial=False)
    observer = place if frame.topocentric else None
    (record,) = compute_positions(natal, [body], frame, observer).records
    # The search's start outside the body's ephemeris is named as the parameter that sent it.
    with naming_each({"from_jd": from_param} if from_param else {}, also=(OutOfRange,)):
        found = crossings(body, record.longitude, search_from.jd_ut1, count, deadline, flags=frame, observer=observer)
    return record.longitude, [Moment.from_jd_ut1(crossing.jd) for crossing in found]
