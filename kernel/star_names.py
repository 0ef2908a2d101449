"""The names the stars of the Swiss Ephemeris star file (``data/ephe/sefstars.txt``) are
looked up by, without the file: every traditional name and every nomenclature (Bayer or
Flamsteed designation), lowercase. With them the body vocabulary tells a star from an unknown
name wherever the ephemeris files are absent, as in the gateway, which validates without them.

The list is data beside this module (``star_names.txt``), copied from the star file;
tests/unit/kernel/test_star_names.py fails, naming the difference, when the file and the list part.
"""

from __future__ import annotations

from importlib import resources

#: Every lowercase traditional name and nomenclature of the star file.
STAR_NAMES: frozenset[str] = frozenset(
    line
    for line in resources.files(__package__).joinpath("star_names.txt").read_text(encoding="utf-8").splitlines()
    if line and not line.startswith("#")
)
