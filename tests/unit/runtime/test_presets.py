"""The presets' table (shared/runtime/presets.py): names, sources and parameters each request
takes, and the refusal of a name it does not."""

from __future__ import annotations

import re

import pytest

from celestial.v1 import ephemeris_service_pb2, search_service_pb2, vedic_pb2
from shared.errors import InvalidParameter
from shared.runtime.closed_sets import choices_of
from shared.runtime.parameter_text import parse_scalar
from shared.runtime.presets import PRESETS, PRESETS_OF, preset_parameters
from shared.runtime.request_model import message_spec
from shared.runtime.validation import _split_csv

MESSAGES = {
    cls.DESCRIPTOR.full_name: cls
    for cls in (
        ephemeris_service_pb2.ComputeNatalChartRequest,
        vedic_pb2.ComputeVedicChartRequest,
        vedic_pb2.ComputeVimshottariDashaRequest,
        search_service_pb2.FindForecastRequest,
    )
}


def test_preset_names_are_lowercase_snake_case():
    assert all(re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", name) for name in PRESETS)


def test_the_four_programs_of_the_issue_have_a_preset():
    assert {"astro_com", "kerykeion", "immanuel", "jhora"} <= set(PRESETS)


def test_every_convention_names_its_source():
    for preset in PRESETS.values():
        assert preset.conventions
        assert all(c.what and c.value and c.source for c in preset.conventions)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_parameter_a_preset_gives_is_a_parameter_of_its_request_with_a_value_it_takes(name):
    for message_name, parameters in PRESETS[name].parameters.items():
        spec = message_spec(MESSAGES[message_name].DESCRIPTOR)
        for param, text in parameters.items():
            field = spec.fields[param]
            values = _split_csv(text) if field.repeated else [parse_scalar(field, text)]
            choices = field.rule.choices
            assert not choices or all(v in choices for v in values), (param, text)


def test_each_request_takes_the_presets_whose_parameters_it_holds():
    assert PRESETS_OF == {
        "celestial.v1.ComputeNatalChartRequest": ("astro_com", "kerykeion", "immanuel"),
        "celestial.v1.ComputeVedicChartRequest": ("jhora",),
        "celestial.v1.ComputeVimshottariDashaRequest": ("jhora",),
        "celestial.v1.FindForecastRequest": ("astro_com", "kerykeion", "immanuel"),
    }


@pytest.mark.parametrize("message_name", sorted(MESSAGES))
def test_the_presets_a_request_takes_are_its_preset_fields_choices(message_name):
    assert PRESETS_OF[message_name] == choices_of(MESSAGES[message_name], "preset")


def test_a_name_is_read_in_any_case():
    assert preset_parameters("celestial.v1.ComputeVedicChartRequest", "JHora")[0] == "jhora"


@pytest.mark.parametrize("text", ["astrodienst", "jhora"])
def test_an_unknown_name_or_another_endpoints_preset_is_invalid_parameter_naming_preset(text):
    with pytest.raises(InvalidParameter) as refused:
        preset_parameters("celestial.v1.ComputeNatalChartRequest", text)
    assert refused.value.param == "preset"
