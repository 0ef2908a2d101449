"""The ayanamshas (sidereal zodiac origins) the service accepts, by name or Swiss Ephemeris id."""

from __future__ import annotations

from dataclasses import dataclass

from kernel.errors import UnreadableValue

# Source: spec/decisions.md "Ayanamshas", which follows the Swiss Ephemeris ids SE_SIDM_* of
# swephexp.h (0-46); the names are ours (two differ from the C constant names: 30 is
# SIDM_GALCENT_RGILBRAND, 45 is SIDM_KRISHNAMURTI_VP291).
AYANAMSHA_TABLE: tuple[tuple[int, str], ...] = (
    (0, "fagan_bradley"),
    (1, "lahiri"),
    (2, "deluce"),
    (3, "raman"),
    (4, "ushashashi"),
    (5, "krishnamurti"),
    (6, "djwhal_khul"),
    (7, "yukteshwar"),
    (8, "jn_bhasin"),
    (9, "babyl_kugler1"),
    (10, "babyl_kugler2"),
    (11, "babyl_kugler3"),
    (12, "babyl_huber"),
    (13, "babyl_etpsc"),
    (14, "aldebaran_15tau"),
    (15, "hipparchos"),
    (16, "sassanian"),
    (17, "galcent_0sag"),
    (18, "j2000"),
    (19, "j1900"),
    (20, "b1950"),
    (21, "suryasiddhanta"),
    (22, "suryasiddhanta_msun"),
    (23, "aryabhata"),
    (24, "aryabhata_msun"),
    (25, "ss_revati"),
    (26, "ss_citra"),
    (27, "true_citra"),
    (28, "true_revati"),
    (29, "true_pushya"),
    (30, "galcent_rgbrand"),
    (31, "galequ_iau1958"),
    (32, "galequ_true"),
    (33, "galequ_mula"),
    (34, "galalign_mardyks"),
    (35, "true_mula"),
    (36, "galcent_mula_wilhelm"),
    (37, "aryabhata_522"),
    (38, "babyl_britton"),
    (39, "true_sheoran"),
    (40, "galcent_cochrane"),
    (41, "galequ_fiorenza"),
    (42, "valens_moon"),
    (43, "lahiri_1940"),
    (44, "lahiri_vp285"),
    (45, "krishnamurti_senthilathiban"),
    (46, "lahiri_icrc"),
)


@dataclass(frozen=True)
class Ayanamsha:
    """A sidereal mode: its Swiss Ephemeris ``id`` (0-46) and our lowercase ``name``."""

    id: int
    name: str


AYANAMSHAS: tuple[Ayanamsha, ...] = tuple(Ayanamsha(i, n) for i, n in AYANAMSHA_TABLE)
_BY_NAME = {a.name: a for a in AYANAMSHAS}
_BY_ID = {a.id: a for a in AYANAMSHAS}
AYANAMSHA_NAMES: tuple[str, ...] = tuple(a.name for a in AYANAMSHAS)
#: The ids an ayanamsha may be given by (inclusive): every one but 0 and 1, which read as
#: booleans and go only by name (decisions.md, Ayanamshas).
NUMBERED_IDS: tuple[int, int] = (2, max(_BY_ID))


def ayanamsha_by_id(ayanamsha_id: int) -> Ayanamsha:
    """Return the ayanamsha with Swiss Ephemeris id ``ayanamsha_id`` (KeyError when unknown)."""
    return _BY_ID[ayanamsha_id]


#: Values that read as a boolean (decisions.md: booleans are true/false or 1/0). As an
#: ayanamsha they are refused, not read as the ids 0 and 1: a client sending sidereal=0 for
#: "off" would otherwise get Fagan-Bradley longitudes.
BOOLEAN_LOOKING = ("0", "1", "true", "false")


def parse_ayanamsha(text: str | int) -> Ayanamsha:
    """Return the ayanamsha named by ``text``: a name (any case; '-' or ' ' read as '_') or an id 2-46.

    An id may come as a decimal string without leading zeros, or an int. The ids 0 and 1
    (and true/false) read as booleans and raise UnreadableValue suggesting the names
    fagan_bradley and lahiri; unknown values raise UnreadableValue listing the names. Both
    are worded with the parameter's name, which the reader supplies.
    """
    if isinstance(text, bool):
        key = None
    elif isinstance(text, int):
        key = str(text)
    elif isinstance(text, str):
        key = text.strip().lower().replace("-", "_").replace(" ", "_")
    else:
        key = None
    if key in BOOLEAN_LOOKING:
        raise UnreadableValue(
            wording=lambda param: (
                f"{param}={text!r} reads as a boolean; {param} takes an ayanamsha name, and the ids 0 "
                "and 1 are accepted only as the names fagan_bradley and lahiri."
            ),
            suggesting=lambda param: (
                f"Send {param}=fagan_bradley (id 0) or {param}=lahiri (id 1); leave {param} "
                "out for the tropical zodiac."
            ),
        )
    if key:
        if key.isascii() and key.isdigit() and key == str(int(key)):
            found = _BY_ID.get(int(key))
        else:
            found = _BY_NAME.get(key)
        if found is not None:
            return found
    raise UnreadableValue(
        wording=lambda param: (
            f"Unknown ayanamsha {text!r} for {param}. Accepted: a name ({', '.join(AYANAMSHA_NAMES)}) "
            f"or a Swiss Ephemeris id {NUMBERED_IDS[0]}-{NUMBERED_IDS[1]} (0 and 1 only by name)."
        ),
        suggestion="Send an ayanamsha name such as lahiri or fagan_bradley.",
    )
