"""What a stored chart gives a request that names it (``chart``, ``chart_a``, ``chart_b``):
the stored parameters the request takes and, for ``chart``, the stored settings it takes and
did not send (issue 40, part 1). Kernel-free: the gateway expands ``chart=<id>`` with it
(``gateway/stored_charts.py``) and the webhook worker builds a chart subscription's forecast
with it (``webhooks/events.py``), so both send the search pool the same request.

A stored chart's ``parameters`` are texts: the birth as given (``datetime``, ``jd``,
``fold``), its place read once into ``lat`` and ``lon`` (and ``alt``), and, for a datetime
without an offset, its zone ``tz``. The local datetime and its zone travel as they are: the
service that computes resolves them to an instant itself (``shared/runtime/wire.py``
``birth_from``, with the kernel's tz database), as it does for any request sending ``tz``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from celestial.v1 import options_pb2
from shared.runtime.presets import PRESETS_OF
from shared.runtime.request_model import message_spec


def stored_chart_names(request_cls) -> tuple[str, ...]:
    """Return the parameters of a request message that name a stored chart (``chart``,
    ``chart_a`` ...), from its ``(message).stored_charts``; () for a request taking no birth."""
    return tuple(request_cls.DESCRIPTOR.GetOptions().Extensions[options_pb2.message].stored_charts)


def stand_in(
    parameters: Mapping[str, str],
    settings: Mapping[str, str],
    request_cls,
    name: str = "chart",
    given: Iterable[str] = (),
    *,
    with_settings: bool = True,
    chart_name: str = "",
) -> dict[str, str]:
    """Return the parameters (name -> text) a stored chart of ``parameters`` and ``settings``
    gives a ``request_cls`` through its parameter ``name``: each stored parameter the request
    takes, suffixed as ``name`` is (``lat_a`` for ``chart_a``), and, for ``chart`` when
    ``with_settings``, each stored setting it takes and did not send (in ``given``). The
    stored chart's own name ``chart_name`` (when not empty) becomes the request's ``name``
    where the request takes one (a wheel's header: the inner chart's name, so through
    ``chart`` or ``chart_a``) and did not send it."""
    suffix = name[len("chart") :]
    accepted = message_spec(request_cls.DESCRIPTOR).fields
    sent = set(given)
    expanded = {f"{key}{suffix}": value for key, value in parameters.items() if f"{key}{suffix}" in accepted}
    if chart_name and suffix in ("", "_a") and "name" in accepted and "name" not in sent:
        expanded["name"] = chart_name
    if with_settings and suffix == "":
        # The request's own settings win: a stored chart's are its defaults. A stored preset
        # applies where the endpoint takes that preset (docs/presets.md), not where another
        # endpoint's presets share its parameter's name.
        takes = PRESETS_OF.get(request_cls.DESCRIPTOR.full_name, ())
        expanded.update(
            {
                key: value
                for key, value in settings.items()
                if key in accepted and key not in sent and (key != "preset" or value.lower() in takes)
            }
        )
    return expanded
