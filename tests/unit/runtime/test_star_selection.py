"""The star a stars request asks for (shared/runtime/star_selection.py).

References: the ``star`` field of ComputeStarsRequest (ephemeris_service.proto: a star of the
Swiss Ephemeris star file by traditional name or nomenclature, or ``all``; unknown:
body_not_found).
"""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.errors import BodyNotFound
from shared.runtime.star_selection import star_selection


@pytest.mark.parametrize("text", ["all", "ALL", " All "])
def test_all_in_any_case_selects_every_named_star(text):
    assert star_selection(pb.ComputeStarsRequest(star=text)) is None


@pytest.mark.parametrize("text", ["Aldebaran", ",alTau"])
def test_a_star_by_name_or_nomenclature_is_kept_as_sent(text):
    assert star_selection(pb.ComputeStarsRequest(star=text)) == text


def test_an_unknown_star_is_body_not_found_naming_star():
    with pytest.raises(BodyNotFound) as caught:
        star_selection(pb.ComputeStarsRequest(star="Nostar Majoris"))
    assert caught.value.param == "star"
