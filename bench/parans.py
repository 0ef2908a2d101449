"""/v1/parans service time in process (request read, the day sampled, events solved, reply
built) for the default request (the planets and Brady's twelve stars at 51.5° N), beside the
default astrocartography map measured in the same run: parans are priced as a map (5
credits), so their work should be of a map's order. Also the latitude view of one pair."""

from __future__ import annotations

import statistics
import time

from bench.astrocartography import default_request as map_request
from bench.figures import record
from celestial.v1 import astrocartography_service_pb2 as pb
from celestial.v1 import common_pb2
from kernel import engine
from kernel.deadline import Deadline
from services.astrocartography import lines, parans
from shared.runtime.config import load_settings
from shared.runtime.validation import validate

ROUNDS = 7
MOMENT = "2024-03-20T12:00:00Z"


def default_request() -> pb.ComputeParansRequest:
    return validate(
        pb.ComputeParansRequest(
            moment=common_pb2.Moment(datetime=MOMENT), location=common_pb2.Location(lat=51.5, lon=0)
        )
    )


def latitude_request() -> pb.ComputeParansRequest:
    return validate(
        pb.ComputeParansRequest(
            moment=common_pb2.Moment(datetime=MOMENT), format="geojson", pair=["venus:asc", "Regulus:mc"]
        )
    )


def _median_ms(compute, request) -> float:
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        compute(request, Deadline.never())
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    engine.use_ephemeris_files(load_settings().ephe_path)
    print("parans service time (in process, median of rounds)")
    day = record("parans_default_service_ms", _median_ms(parans.compute, default_request()))
    band = record("parans_latitudes_service_ms", _median_ms(parans.compute, latitude_request()))
    acg = _median_ms(lines.compute, map_request())
    ratio = record("parans_default_over_acg_default", day / acg)
    print(f"  default (planets and 12 stars, 51.5° N) {day:7.2f} ms; the default map {acg:7.2f} ms: ratio {ratio:5.1f}")
    print(f"  one pair's paran latitudes             {band:7.2f} ms")


if __name__ == "__main__":
    main()
