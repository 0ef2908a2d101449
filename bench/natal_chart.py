"""Service time of a natal chart beside kerykeion's natal chart for the same births, in the same run.

The common content (positions of the ten planets and the mean node, Placidus houses, the
aspects among them) is computed by the ephemeris service's own handler, in process, for
200 births at distinct moments, and by kerykeion (a bench-only dependency; pip's pyswisseph
is the same library) for the same births. Then the same natal charts with every option on
(patterns, derived points with all seven lots, dignities, parallels). Goals (issue 11):
5x faster than kerykeion or better on the common content; every option under 1 ms.
"""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime, timedelta

from bench.figures import record
from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Birth, Moment, Place
from kernel import engine
from kernel.deadline import Deadline
from services.ephemeris import natal
from shared.runtime.config import load_settings
from shared.runtime.request_model import message_spec
from shared.runtime.validation import validate

BIRTHS = 200
ROUNDS = 3


def births(count: int = BIRTHS) -> list[tuple[datetime, float, float]]:
    """Return ``count`` births (UTC moment, latitude, longitude) from 1900 to 2050 (fixed seed)."""
    generator = random.Random(20261123)
    start = datetime(1900, 1, 1, tzinfo=UTC)
    return [
        (
            start + timedelta(minutes=generator.randrange(150 * 525_960)),
            generator.uniform(-60, 60),
            generator.uniform(-180, 180),
        )
        for _ in range(count)
    ]


def _requests(moments, **options) -> list[pb.ComputeNatalChartRequest]:
    built = []
    for moment, lat, lon in moments:
        request = pb.ComputeNatalChartRequest(
            birth=Birth(moment=Moment(datetime=moment.strftime("%Y-%m-%dT%H:%M:%SZ")), location=Place(lat=lat, lon=lon))
        )
        for name, value in options.items():
            field = message_spec(request.DESCRIPTOR).fields[name].owner(request)
            if isinstance(value, list):
                getattr(field, name).extend(value)
            else:
                setattr(field, name, value)
        built.append(validate(request))
    return built


def _ours(requests) -> float:
    """Return the median seconds per chart of the service's handler over ROUNDS rounds."""
    rounds = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        for request in requests:
            natal.compute(request, Deadline.never())
        rounds.append((time.perf_counter() - started) / len(requests))
    return sorted(rounds)[len(rounds) // 2]


def _kerykeion(moments) -> float | None:
    """Return the median seconds per natal chart (subject and its aspects) of kerykeion, or
    None when it is not installed."""
    try:
        from kerykeion import AspectsFactory, AstrologicalSubjectFactory
    except ImportError:
        return None
    rounds = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        for moment, lat, lon in moments:
            subject = AstrologicalSubjectFactory.from_birth_data(
                "bench",
                moment.year,
                moment.month,
                moment.day,
                moment.hour,
                moment.minute,
                lng=lon,
                lat=lat,
                tz_str="Etc/UTC",
                online=False,
            )
            AspectsFactory.single_chart_aspects(subject)
        rounds.append((time.perf_counter() - started) / len(moments))
    return sorted(rounds)[len(rounds) // 2]


def main() -> None:
    engine.use_ephemeris_files(load_settings().ephe_path)
    moments = births()
    common = _ours(_requests(moments, parallels=False))
    everything = _ours(
        _requests(moments, patterns=True, derived_points=True, lots=["default"], dignities=True, parallels=True)
    )
    theirs = _kerykeion(moments)
    print(f"natal chart service time ({BIRTHS} births, median of {ROUNDS} rounds, in process)")
    print(f"  ours, positions + houses + aspects:        {common * 1e3:7.3f} ms")
    if theirs is None:
        print("  kerykeion not installed (pip install -r requirements-dev.txt)")
    else:
        print(
            f"  kerykeion, the same content:               {theirs * 1e3:7.3f} ms  ratio kerykeion/ours "
            f"{record('natal_kerykeion_over_ours', theirs / common):5.1f}  (goal >= 5)"
        )
    print(
        "  ours, every option (patterns, derived points with 7 lots, dignities, parallels): "
        f"{record('natal_every_option_ms', everything * 1e3):7.3f} ms  (goal < 1 ms)"
    )


if __name__ == "__main__":
    main()
