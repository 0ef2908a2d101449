"""The time-lords service process: each built RPC and the module that computes it."""

from __future__ import annotations

from celestial.v1 import timelords_service_pb2
from services.timelords import (
    ashtakavarga,
    firdaria,
    kundali_match,
    panchang,
    profections,
    releasing,
    shadbala,
    vedic_chart,
    vimshottari_dasha,
)
from shared.runtime.server import serve_main

SERVICE = timelords_service_pb2.DESCRIPTOR.services_by_name["TimeLordsService"]

HANDLERS = {
    "ComputeProfections": profections.compute,
    "ComputeZodiacalReleasing": releasing.compute,
    "ComputeFirdaria": firdaria.compute,
    "ComputeVedicChart": vedic_chart.compute,
    "ComputeVimshottariDasha": vimshottari_dasha.compute,
    "ComputePanchang": panchang.compute,
    "ComputeKundaliMatch": kundali_match.compute,
    "ComputeAshtakavarga": ashtakavarga.compute,
    "ComputeShadbala": shadbala.compute,
}


def main(argv: list[str] | None = None) -> None:
    serve_main("timelords", SERVICE, HANDLERS, argv)


if __name__ == "__main__":
    main()
