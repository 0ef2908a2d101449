"""Positions kept by one search for another (kernel/sampled_positions.py): a kept date answers
with the engine's own value, any other date or frame goes to the engine, and a search that
reads the void-of-course samples finds the very instants it finds alone, with fewer calls."""

from __future__ import annotations

import pytest
import swisseph

from kernel import bodies as body_table
from kernel import engine
from kernel.crossings import GEOCENTRIC, crossings_until, sign_ingresses_until
from kernel.deadline import Deadline
from kernel.lunations import find_lunations
from kernel.positions import CalcFlags, ecliptic_longitude_flags
from kernel.sampled_positions import NOTHING_SAMPLED, SampledPositions
from kernel.timescale import Moment
from kernel.void_of_course_periods import sample_span

NEVER = Deadline.never()
FLAGS = ecliptic_longitude_flags(GEOCENTRIC)
START = Moment.from_iso("2024-01-01T00:00:00Z").jd_ut1
END = START + 120.0
OTHERS = ["sun", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto", "mean_node"]


def engine_value(body: str, jd: float, flags: int = FLAGS) -> tuple[float, float]:
    return engine.longitude_and_speed(body_table.engine_number(body), flags)(jd)


@pytest.fixture(scope="module")
def sampled() -> SampledPositions:
    return sample_span(START, END, OTHERS, NEVER).sampled_positions()


class CountedCalls:
    """Counts the engine's position calls while installed (the one door, swisseph.calc_ut)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.count = 0
        calc = swisseph.calc_ut

        def counted(*args):
            self.count += 1
            return calc(*args)

        monkeypatch.setattr(swisseph, "calc_ut", counted)


def test_a_sampled_date_answers_with_the_value_kept():
    kept = SampledPositions(FLAGS, {"sun": {START: (123.0, 0.5)}})
    assert kept.longitude_and_speed("sun", FLAGS)(START) == (123.0, 0.5)


def test_another_date_body_or_frame_is_asked_of_the_engine():
    kept = SampledPositions(FLAGS, {"sun": {START: (123.0, 0.5)}})
    assert kept.longitude_and_speed("sun", FLAGS)(START + 0.25) == engine_value("sun", START + 0.25)
    assert kept.longitude_and_speed("mars", FLAGS)(START) == engine_value("mars", START)
    j2000 = FLAGS | engine.FLG_J2000
    assert kept.longitude_and_speed("sun", j2000)(START) == engine_value("sun", START, j2000)
    assert NOTHING_SAMPLED.longitude_and_speed("sun", FLAGS)(START) == engine_value("sun", START)


def test_the_void_of_course_samples_are_the_engines_values_bit_for_bit(sampled):
    for body in ["moon", *OTHERS]:
        kept = sampled.by_body[body]
        assert len(kept) > 2 * (END - START)
        assert all(value == engine_value(body, jd) for jd, value in list(kept.items())[::37])


def test_ingresses_read_from_the_samples_are_the_instants_found_alone_with_fewer_calls(sampled, monkeypatch):
    alone = [sign_ingresses_until(body, START, END, NEVER) for body in ("sun", "mercury", "mars")]
    calls = CountedCalls(monkeypatch)
    read = [sign_ingresses_until(body, START, END, NEVER, sampled=sampled) for body in ("sun", "mercury", "mars")]
    with_samples = calls.count
    calls.count = 0
    [sign_ingresses_until(body, START, END, NEVER) for body in ("sun", "mercury", "mars")]
    assert read == alone and with_samples < calls.count / 2


def test_returns_and_lunations_read_from_the_samples_are_the_instants_found_alone(sampled):
    speed = CalcFlags(speed=True)
    assert crossings_until("moon", 201.5, START, END, NEVER, flags=speed, sampled=sampled) == crossings_until(
        "moon", 201.5, START, END, NEVER, flags=speed
    )
    phases = ["new_moon", "first_quarter", "full_moon", "last_quarter"]
    assert find_lunations(START, END, phases, NEVER, sampled=sampled) == find_lunations(START, END, phases, NEVER)
