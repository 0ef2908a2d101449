"""The star names the body vocabulary reads without the star file are exactly the file's."""

from __future__ import annotations

from kernel import engine
from kernel.star_names import STAR_NAMES
from kernel.stars import find_star, is_star


def names_in_the_star_file() -> set[str]:
    """Return every traditional name and nomenclature of the star file, lowercase."""
    names = set()
    for star in engine.fixed_star_catalogue():
        names.add(star.nomenclature.lower())
        if star.name:
            names.add(star.name.lower())
    return names


def test_the_star_names_are_exactly_the_names_and_nomenclatures_of_the_star_file():
    in_file = names_in_the_star_file()
    assert not in_file - STAR_NAMES, (
        f"names of the star file missing from star_names.py: {sorted(in_file - STAR_NAMES)}"
    )
    assert not STAR_NAMES - in_file, f"names in star_names.py the star file lacks: {sorted(STAR_NAMES - in_file)}"


def test_every_name_is_star_accepts_is_a_star_find_star_finds():
    for name in STAR_NAMES:
        assert is_star(name) and find_star(name).nomenclature
    assert is_star(" ,alTau ") and find_star(" ,alTau ").name == "Aldebaran"
    assert not is_star("vulcan") and not is_star("sun")
