"""kernel/delta_t_table.py: the span of Swiss Ephemeris's Delta T table, derived by hand from
swephlib.c (2.10: TABSTART 1620, TABEND 2028, Y = 2000 + (jd - 2451544.5) / 365.25), and the
conditions of clock times outside it."""

from __future__ import annotations

import pytest

from kernel import engine
from kernel.conditions import LOW_PRECISION
from kernel.delta_t_table import (
    MODELLED_TEXT,
    PREDICTED_TEXT,
    TABLE_END_JD,
    TABLE_START_JD,
    beyond_table,
    clock_time_conditions,
)
from kernel.timescale import Moment

SECONDS_PER_DAY = 86400.0


def test_the_table_spans_the_years_1620_to_2028_as_swiss_ephemeris_counts_them():
    # 2451544.5 + (2028 - 2000) * 365.25 = 2451544.5 + 10227 = 2461771.5, 2028-01-01T00:00Z;
    # 2451544.5 + (1620 - 2000) * 365.25 = 2451544.5 - 138795 = 2312749.5, 1619-12-29T00:00Z.
    # (The Julian Day of the clock: UT1 differs from UTC by under a second.)
    assert TABLE_END_JD == 2461771.5 and Moment.from_iso("2028-01-01T00:00:00Z").clock_jd == TABLE_END_JD
    assert TABLE_START_JD == 2312749.5 and Moment.from_iso("1619-12-29T00:00:00Z").clock_jd == TABLE_START_JD


@pytest.mark.parametrize(
    ("year", "tabulated_s"),
    # swephlib.c dt[]: the last values, the table's predictions for 2024-2028.
    [(2024, 69.10), (2025, 69.00), (2026, 68.90), (2027, 68.80), (2028, 68.80)],
)
def test_the_engine_gives_the_tables_values_up_to_its_end(year, tabulated_s):
    jd = 2451544.5 + (year - 2000) * 365.25
    assert engine.delta_t_days(jd) * SECONDS_PER_DAY == pytest.approx(tabulated_s, abs=0.01)


def test_past_the_end_the_engine_extrapolates_away_from_the_last_value():
    # The table holds 68.80 s for 2027 and 2028; the long-term formula takes over after it.
    a_year_on = engine.delta_t_days(TABLE_END_JD + 365.25) * SECONDS_PER_DAY
    assert a_year_on != pytest.approx(68.80, abs=0.1)


def test_within_the_table_no_condition():
    assert clock_time_conditions([TABLE_START_JD, 2461000.5, TABLE_END_JD]) == []
    assert not beyond_table(TABLE_END_JD) and not beyond_table(TABLE_START_JD)


def test_after_the_end_the_clock_time_is_a_prediction():
    (condition,) = clock_time_conditions([2461000.5, TABLE_END_JD + 1e-5])
    assert condition.kind == LOW_PRECISION and condition.message == PREDICTED_TEXT
    assert "2028-01-01" in PREDICTED_TEXT and "prediction" in PREDICTED_TEXT


def test_before_the_start_the_clock_time_is_a_models_estimate():
    (condition,) = clock_time_conditions([TABLE_START_JD - 1e-5])
    assert condition.kind == LOW_PRECISION and condition.message == MODELLED_TEXT
    assert "1620" in MODELLED_TEXT


def test_both_sides_give_both_conditions_once_each_earlier_first():
    conditions = clock_time_conditions([TABLE_END_JD + 1, TABLE_START_JD - 1, TABLE_END_JD + 2])
    assert [c.message for c in conditions] == [MODELLED_TEXT, PREDICTED_TEXT]
