"""/v1/dignities: each body's essential dignities, and its dispositors on request."""

from __future__ import annotations

from google.protobuf import struct_pb2

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.chart import cast_chart
from kernel.deadline import Deadline
from kernel.dignities import DispositorChain
from shared.runtime.chart_record import dignity_record


def compute(request: pb.ComputeDignitiesRequest, deadline: Deadline) -> pb.ComputeDignitiesResponse:
    """Return the dignities (sidereal places with ``sidereal``); the triplicity is assessed
    only with ``day_chart`` (no place, so no sect of its own)."""
    query = request.query
    chart = cast_chart(query.moment, query.place, query.settings, extras=query.extras)
    data = pb.DignitiesData(dignities=[dignity_record(d) for d in chart.dignities])
    if chart.dispositors is not None:
        found = chart.dispositors
        data.dispositors.CopyFrom(
            pb.Dispositors(
                chains=[_chain_record(chain) for chain in found.chains],
                mutual_receptions=[
                    pb.MutualReception(body_a=m.body_a, sign_a=m.sign_a, body_b=m.body_b, sign_b=m.sign_b)
                    for m in found.mutual_receptions
                ],
                final_dispositors=found.final_dispositors,
            )
        )
    return pb.ComputeDignitiesResponse(data=data, warnings=[c.message for c in chart.warnings])


def _chain_record(chain: DispositorChain) -> struct_pb2.ListValue:
    """Return a chain as the spec's array of links ``{body, sign, dispositor}``."""
    record = struct_pb2.ListValue()
    for link in chain.links:
        record.add_struct().update({"body": link.body, "sign": link.sign, "dispositor": link.dispositor})
    return record
