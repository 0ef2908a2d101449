"""The Hermetic lots (interface.md, GET/POST /v1/lots), each value worked out by hand."""

from __future__ import annotations

import pytest

from kernel.errors import UnreadableValue
from kernel.lots import bodies_needed, compute_lots, is_day_chart, parse_lots

ALL = parse_lots(["default"])
# Made-up places (degrees): easy sums to follow by hand.
ASC = 100.0
PLACES = {"sun": 40.0, "moon": 130.0, "mercury": 55.0, "venus": 20.0, "mars": 250.0, "jupiter": 310.0, "saturn": 200.0}


def by_id(lots):
    return {lot.id: lot for lot in lots}


def test_the_evaluation_order_is_fortune_spirit_eros_necessity_courage_victory_nemesis():
    assert ALL == (
        "part_of_fortune",
        "part_of_spirit",
        "part_of_eros",
        "part_of_necessity",
        "part_of_courage",
        "part_of_victory",
        "part_of_nemesis",
    )


def test_every_lot_by_day_is_ascendant_plus_a_minus_b():
    lots = by_id(compute_lots(ALL, PLACES, ASC, day=True))
    fortune = (100 + 130 - 40) % 360  # 190
    spirit = (100 + 40 - 130) % 360  # 10
    assert lots["part_of_fortune"].longitude == fortune == 190
    assert lots["part_of_spirit"].longitude == spirit == 10
    assert lots["part_of_eros"].longitude == (100 + 20 - spirit) % 360 == 110
    assert lots["part_of_necessity"].longitude == (100 + fortune - 55) % 360 == 235
    assert lots["part_of_courage"].longitude == (100 + fortune - 250) % 360 == 40
    assert lots["part_of_victory"].longitude == (100 + 310 - spirit) % 360 == 40
    assert lots["part_of_nemesis"].longitude == (100 + fortune - 200) % 360 == 90
    assert not any(lot.reversed for lot in lots.values())


def test_every_lot_reverses_at_night():
    lots = by_id(compute_lots(ALL, PLACES, ASC, day=False))
    fortune = (100 + 40 - 130) % 360  # 10
    spirit = (100 + 130 - 40) % 360  # 190
    assert lots["part_of_fortune"].longitude == fortune
    assert lots["part_of_spirit"].longitude == spirit
    assert lots["part_of_eros"].longitude == (100 + spirit - 20) % 360 == 270
    assert lots["part_of_necessity"].longitude == (100 + 55 - fortune) % 360 == 145
    assert lots["part_of_courage"].longitude == (100 + 250 - fortune) % 360 == 340
    assert lots["part_of_victory"].longitude == (100 + spirit - 310) % 360 == 340
    assert lots["part_of_nemesis"].longitude == (100 + 200 - fortune) % 360 == 290
    eros = lots["part_of_eros"]
    assert (eros.body_a, eros.body_b, eros.ascendant, eros.reversed) == ("part_of_spirit", "venus", ASC, True)


def test_a_lot_operand_is_named_by_its_id_and_computed_earlier():
    lots = compute_lots(ALL, PLACES, ASC, day=True)
    seen: set[str] = set()
    for lot in lots:
        for operand in (lot.body_a, lot.body_b):
            if operand.startswith("part_of_"):
                assert operand in seen
        seen.add(lot.id)


@pytest.mark.parametrize(
    ("asked", "answered"),
    [
        (["eros"], ("part_of_spirit", "part_of_eros")),
        (["victory"], ("part_of_spirit", "part_of_victory")),
        (["nemesis", "courage"], ("part_of_fortune", "part_of_courage", "part_of_nemesis")),
        (["part_of_necessity"], ("part_of_fortune", "part_of_necessity")),
        (["fortune", "FORTUNE"], ("part_of_fortune",)),
    ],
)
def test_a_lot_built_on_fortune_or_spirit_brings_it_along(asked, answered):
    assert parse_lots(asked) == answered


def test_an_unknown_lot_is_invalid_parameter_naming_lots():
    with pytest.raises(UnreadableValue) as refused:
        parse_lots(["fortune", "basis"])
    assert "fortune" in refused.value.suggestion


def test_the_bodies_a_set_of_lots_needs():
    assert bodies_needed(parse_lots(["courage"])) == ("moon", "sun", "mars")
    assert bodies_needed(ALL) == ("moon", "sun", "venus", "mercury", "mars", "jupiter", "saturn")


@pytest.mark.parametrize(
    ("sun", "asc", "day"),
    [
        (100.0, 100.0, True),  # on the Ascendant
        (280.0, 100.0, True),  # on the Descendant
        (10.0, 100.0, True),  # 90 degrees behind the Ascendant: at the Midheaven's side
        (190.0, 100.0, False),  # 90 degrees ahead: below, at the lower heaven's side
        (100.5, 100.0, False),  # half a degree into the 1st house: below the horizon
        (279.5, 100.0, False),  # still in the 6th house, about to set
        (280.5, 100.0, True),  # in the 7th house: above
    ],
)
def test_day_is_the_sun_on_or_above_the_horizon_along_the_ecliptic_from_the_ascendant(sun, asc, day):
    assert is_day_chart(sun, asc) is day


def test_a_sidereal_lot_is_the_tropical_lot_minus_the_ayanamsha():
    ayanamsha = 24.1234
    sidereal = {body: (lon - ayanamsha) % 360 for body, lon in PLACES.items()}
    tropical_lots = compute_lots(ALL, PLACES, ASC, day=True)
    sidereal_lots = compute_lots(ALL, sidereal, (ASC - ayanamsha) % 360, day=True)
    for t, s in zip(tropical_lots, sidereal_lots):
        assert s.longitude == pytest.approx((t.longitude - ayanamsha) % 360, abs=1e-9)
