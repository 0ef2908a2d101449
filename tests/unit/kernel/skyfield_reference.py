"""Offline Skyfield set-up (DE421 from the skyfield-data package, builtin timescale) for the tests."""

from __future__ import annotations

import functools
import warnings
from pathlib import Path

from skyfield.api import Loader

# DE421 (JPL, Folkner et al. 2008) spans 1899-07-29 to 2053-10-09; our comparison dates stay inside.
DE421_FIRST_YEAR = 1900
DE421_LAST_YEAR = 2050


@functools.cache
def skyfield_data_dir() -> Path:
    """Return the folder of the skyfield-data package's files (de421.bsp, finals2000A.all)."""
    import skyfield_data

    with warnings.catch_warnings():
        # skyfield-data warns that its bundled finals2000A.all (IERS Earth orientation) has
        # expired; we never read that file (the timescale is builtin), only de421.bsp.
        warnings.filterwarnings("ignore", message=r"The file finals2000A\.all has expired", category=RuntimeWarning)
        return Path(skyfield_data.get_skyfield_data_path())


@functools.cache
def loader() -> Loader:
    """Return a Skyfield Loader on the skyfield-data folder (never downloads: the file is there)."""
    return Loader(str(skyfield_data_dir()), verbose=False)


@functools.cache
def timescale():
    """Return Skyfield's timescale built from its builtin Delta T and leap-second tables (offline)."""
    return loader().timescale(builtin=True)


@functools.cache
def de421():
    """Return the DE421 ephemeris, opened from the local file."""
    from skyfield.api import load_file

    return load_file(str(skyfield_data_dir() / "de421.bsp"))


# Our body name -> DE421 target. Mars..Pluto are system barycentres in DE421, and Swiss
# Ephemeris also returns the barycentre of a planet's system unless asked for the centre.
DE421_TARGETS = {
    "sun": "sun",
    "moon": "moon",
    "mercury": "mercury",
    "venus": "venus",
    "mars": "mars barycenter",
    "jupiter": "jupiter barycenter",
    "saturn": "saturn barycenter",
    "uranus": "uranus barycenter",
    "neptune": "neptune barycenter",
    "pluto": "pluto barycenter",
}
