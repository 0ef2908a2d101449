"""The ayanamshas an ayanamsha request asks for (shared/runtime/ayanamsha_systems.py).

References: ComputeAyanamshaRequest.system (ephemeris_service.proto: a name, a Swiss Ephemeris
id 2-46, 0 and 1 only by name, or ``all`` in id order); decisions.md, Ayanamshas; the Swiss
Ephemeris' SE_SIDM_* numbers (swisseph.SIDM_RAMAN is 3).
"""

from __future__ import annotations

import pytest
import swisseph as swe

from celestial.v1 import ephemeris_service_pb2 as pb
from shared.errors import InvalidParameter
from shared.runtime.ayanamsha_systems import ayanamsha_systems


def systems(text: str):
    return ayanamsha_systems(pb.ComputeAyanamshaRequest(system=text))


def test_all_is_every_ayanamsha_in_id_order_from_0_to_46():
    assert [a.id for a in systems("ALL")] == list(range(47))


def test_a_name_in_any_case_is_that_ayanamsha():
    (found,) = systems("Lahiri")
    assert (found.id, found.name) == (swe.SIDM_LAHIRI, "lahiri")


def test_an_id_from_2_is_read_as_that_ayanamsha():
    (found,) = systems(str(swe.SIDM_RAMAN))
    assert found.name == "raman"


@pytest.mark.parametrize("text", ["0", "1", "true", "false"])
def test_ids_0_and_1_read_as_booleans_and_are_refused_naming_system(text):
    with pytest.raises(InvalidParameter) as caught:
        systems(text)
    assert caught.value.param == "system"
    assert "fagan_bradley" in caught.value.suggestion and "lahiri" in caught.value.suggestion


@pytest.mark.parametrize("text", ["47", "astrology", "02"])
def test_an_unknown_name_or_id_is_invalid_naming_system(text):
    with pytest.raises(InvalidParameter) as caught:
        systems(text)
    assert caught.value.param == "system"
