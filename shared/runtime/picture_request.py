"""How a request asks for a picture (issue 51): the rules every endpoint whose ``format=json``
answers data and whose ``format=svg`` or ``png`` draws it shares (/v1/vedic/chart's Indian
charts, /v1/natal-chart/sensitivity's timeline), read by each request's reader
(``shared/runtime/vedic_inputs.py``, ``sensitivity_inputs.py``) in the gateway before any charge.

- The parameters that say how the picture is drawn (``style``, ``theme``, ``size``, ``lang``)
  draw nothing with format=json: sent with it, each is refused (InvalidParameter naming it)
  rather than silently ignored, unless the request's switch for the SVG beside the JSON
  (``svg=true``, which both take) is on, as /v1/chart-wheel's format=json always has it. The
  switch is refused with a picture format, whose answer is the picture itself.
- A PNG has at most MAX_PNG_PIXELS pixels: a larger one is refused naming ``size``, suggesting
  the largest size whose picture fits.

/v1/chart-wheel's every format draws (its format=json has the SVG beside the chart) and its
PNG is bounded by its ``size`` alone, so its reader needs neither rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from google.protobuf.message import Message

from shared.errors import InvalidParameter
from shared.runtime.wire import sent_or_default

#: The largest PNG drawn, in pixels: the chart wheel's square at its largest ``size``, 4000 by
#: 4000 (the default pair of Indian charts up to size 2828). Rasterised and encoded in about
#: 3 s here, within the 10 s deadline of a single computation on a busy machine; twice as many
#: pixels took 6 to 7 s. The SVG, drawn by the caller, has no such bound.
MAX_PNG_PIXELS = 4000 * 4000


def picture_parameters(
    request: Message, names: Sequence[str], *, drawing: str, json_answers: str, beside_json: str = ""
) -> dict[str, Any] | None:
    """Return the values (sent, or their defaults) of the picture parameters ``names`` of a
    request whose answer draws a picture, or None for format=json, which draws none unless the
    request's boolean ``beside_json`` (the name of its switch for the SVG beside the JSON, if
    it has one) is true. A picture parameter sent with a format=json that draws nothing is
    InvalidParameter naming it (the first in ``names``), and so is the switch on with a picture
    format: ``drawing`` is what the picture draws ("the chart"), ``json_answers`` what the JSON
    holds ("the chart's points")."""
    values = {name: sent_or_default(request, name) for name in names}
    switched_on = bool(beside_json) and getattr(request, beside_json)
    if request.format != "json" and switched_on:
        raise InvalidParameter(
            f"{beside_json}=true puts the SVG beside format=json's answer; format={request.format} answers "
            f"{drawing} drawn, nothing beside it.",
            suggestion=f"Drop {beside_json}, or send format=json to have {json_answers} with the SVG beside them.",
            param=beside_json,
        )
    if request.format != "json" or switched_on:
        return {name: value for name, (value, _sent) in values.items()}
    beside = f" (or {beside_json}=true to have its SVG beside the JSON)" if beside_json else ""
    for name, (value, sent) in values.items():
        if sent:
            draw = f"Send format=svg or format=png to draw {drawing} with {name}={value}{beside}"
            raise InvalidParameter(
                f"{name} is how {drawing} is drawn; format=json answers {json_answers}, no picture.",
                suggestion=f"{draw}, or drop {name}.",
                param=name,
            )
    return None


def refuse_oversized_png(size: int, dimensions: Callable[[int], tuple[int, int]], *, picture: str, fewer: str) -> None:
    """Refuse a PNG drawn at ``size`` whose ``dimensions(size)`` (width and height, pixels)
    hold more than MAX_PNG_PIXELS: InvalidParameter naming size, suggesting the largest size
    whose picture fits, ``fewer`` ("fewer vargas") or format=svg. ``picture`` describes the
    PNG asked for ("A PNG of 2 charts of 2829 pixels")."""
    width, height = dimensions(size)
    if width * height <= MAX_PNG_PIXELS:
        return
    largest = largest_fitting_size(dimensions, size)
    raise InvalidParameter(
        f"{picture} is {width} by {height} pixels, more than the {MAX_PNG_PIXELS:,} pixels a PNG may have.",
        suggestion=f"Send size={largest} or less, {fewer}, or format=svg (no such bound).",
        param="size",
    )


def largest_fitting_size(dimensions: Callable[[int], tuple[int, int]], too_large: int) -> int:
    """Return the largest size below ``too_large`` whose picture, ``dimensions(size)`` pixels
    wide and tall (growing with the size), holds at most MAX_PNG_PIXELS pixels (0 if none)."""
    fits, exceeds = 0, too_large
    while exceeds - fits > 1:
        middle = (fits + exceeds) // 2
        width, height = dimensions(middle)
        if width * height <= MAX_PNG_PIXELS:
            fits = middle
        else:
            exceeds = middle
    return fits
