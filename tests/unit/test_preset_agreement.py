"""Each preset agrees with the program it names (docs/presets.md): over the fixed births, every
quantity within its tolerance (tests/preset_agreement.py says why each), and the page's
generated part is what the agreement module generates now. The references run in child
processes (kerykeion and PyJHora set Swiss Ephemeris's globals), so these run in
``make test-all``."""

from __future__ import annotations

import pytest

from shared.runtime.presets import PRESETS
from tests import preset_agreement
from tests.preset_agreement import DOCS, markdown, page_with, rows


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_quantity_of_a_preset_agrees_with_its_program_within_its_tolerance(processes, preset):
    found = rows(preset)
    assert found
    beyond = [row for row in found if row.tolerance is not None and row.largest > row.tolerance]
    assert beyond == []


def test_the_agreement_compares_fifty_births_from_1900_to_2050_over_the_globe():
    births = preset_agreement.births()
    assert len(births) == 50
    years = sorted(int(b["datetime"][:4]) for b in births)
    assert years[0] < 1920 and years[-1] > 2030
    assert min(b["lon"] for b in births) < -90 < 90 < max(b["lon"] for b in births)
    assert min(b["lat"] for b in births) < 0 < max(b["lat"] for b in births)


def test_docs_presets_md_is_what_the_agreement_module_generates(processes):
    assert DOCS.read_text() == page_with(markdown()), "run: python -m tests.preset_agreement --docs"
