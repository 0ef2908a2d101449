"""Reader of what a returns search follows: one body a return can follow, with an ephemeris at
the natal moment and the search's start, and how many of its returns are cast (at most 13 of
the Moon, 5 of any other body). Validation runs it in the
gateway before any charge (the reader of FindReturnsRequest, `shared/runtime/request_readers.py`);
the search service calls it to read the request."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from kernel.bodies import RETURNS, check_span, refuse_group, require_use
from kernel.errors import OutOfRange
from shared.errors import InvalidParameter
from shared.runtime.chart_inputs import ChartInputs, chart_inputs
from shared.runtime.kernel_errors import BODY_ERRORS, naming
from shared.runtime.wire import flags_from, listed_bodies, moment_from, sent_moment_name

# Source: the FindReturns RPC comment (search_service.proto): a chart is cast per return.
MAX_COUNT = {"moon": 13}
MAX_COUNT_OTHERS = 5


def return_body(request: Message) -> str:
    """Return the body a returns search follows (body_not_eligible for one no return
    follows under the request's centre), refusing a ``count`` over that body's cap and an
    asteroid whose ephemeris lacks the natal moment or the search's start (OutOfRange naming
    that moment's parameter)."""
    heliocentric = flags_from(request, "chart.options").heliocentric
    with naming("body", also=BODY_ERRORS):
        # The body validation read (and kept), checked for one body and the returns' use, as
        # kernel.bodies.resolve_body would, without reading it again.
        refuse_group(request.body, RETURNS, heliocentric=heliocentric)
        (body,) = listed_bodies(request, "body", heliocentric=heliocentric)
        require_use((body,), RETURNS, heliocentric=heliocentric, named=(request.body,))
    limit = MAX_COUNT.get(body, MAX_COUNT_OTHERS)
    if request.count > limit:
        raise InvalidParameter(
            f"At most {limit} returns of {body} are cast per request; {request.count} were asked for.",
            suggestion=f"Send count of {limit} or less, and search on from the last return for more.",
            param="count",
        )
    natal, search_from = moment_from(request), moment_from(request, "search_start")
    with naming(sent_moment_name(request), also=(OutOfRange,), reading=False):
        check_span(body, natal.jd_ut1)
    with naming(sent_moment_name(request, "search_start"), also=(OutOfRange,), reading=False):
        check_span(body, search_from.jd_ut1)
    return body


@dataclass(frozen=True)
class ReturnInput:
    """A returns request read once: the body it follows and how each return's chart is cast."""

    body: str
    chart: ChartInputs


def return_input(request: Message) -> ReturnInput:
    """Return the body of a returns search (:func:`return_body`), then its charts' settings and
    extras (:func:`shared.runtime.chart_inputs.chart_inputs`)."""
    return ReturnInput(return_body(request), chart_inputs(request))
