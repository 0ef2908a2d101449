"""shared/runtime/name_or_id.py: the ids a "name or id" parameter takes are the kernel's, and
a field takes them through its vocabulary or its ``(field).ids_of``."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1 import options_pb2
from kernel.ayanamshas import AYANAMSHAS, NUMBERED_IDS, parse_ayanamsha
from shared.runtime.name_or_id import IDS, taken_ids


def test_the_ayanamsha_ids_are_those_the_kernel_reads_by_number():
    low, high = IDS[options_pb2.VOCABULARY_AYANAMSHA]
    assert (low, high) == NUMBERED_IDS
    assert [parse_ayanamsha(str(i)).id for i in range(low, high + 1)] == [a.id for a in AYANAMSHAS if a.id >= low]
    assert high == max(a.id for a in AYANAMSHAS)


def _rule(message, name: str) -> options_pb2.FieldRule:
    return message.DESCRIPTOR.fields_by_name[name].GetOptions().Extensions[options_pb2.field]


def test_a_field_takes_ids_through_its_vocabulary_or_its_ids_of_and_no_other_does():
    assert taken_ids(_rule(pb.ComputePositionsRequest, "sidereal")) == NUMBERED_IDS  # vocabulary
    assert taken_ids(_rule(pb.ComputeAyanamshaRequest, "system")) == NUMBERED_IDS  # ids_of
    assert taken_ids(_rule(pb.ComputePositionsRequest, "bodies")) is None
    assert taken_ids(_rule(pb.ComputeHousesRequest, "system")) is None


def test_every_name_or_id_parameter_reads_a_json_integer_id_as_its_text():
    from gateway.endpoints import discover_endpoints
    from shared.runtime.request_model import message_spec
    from shared.runtime.transcoder import request_from_json

    read = 0
    for endpoint in discover_endpoints():
        for name, field in message_spec(endpoint.request_cls.DESCRIPTOR).fields.items():
            if taken_ids(field.rule) is None:
                continue
            as_number = request_from_json(endpoint.request_cls, {name: 3}, endpoint.path)
            assert as_number == request_from_json(endpoint.request_cls, {name: "3"}, endpoint.path), endpoint.path
            read += 1
    assert read > 20
