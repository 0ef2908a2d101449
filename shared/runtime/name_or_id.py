"""The parameters that take a name or an id (docs/conventions.md, "A name or an id"): a
vocabulary whose values also go by an integer id, and the ids a value may be given by, so
that a JSON body may send the id as a JSON integer.

Kernel-free (the transcoder reads it, and the webhooks import the transcoder without the
kernel); the ranges restate the kernel's, held equal by tests/unit/runtime/test_name_or_id.py.
"""

from __future__ import annotations

from celestial.v1 import options_pb2

#: Vocabulary → the ids (inclusive) a value may be given by. Ayanamshas: decisions.md,
#: Ayanamshas (kernel/ayanamshas.py NUMBERED_IDS): ids 2-46, 0 and 1 only by name.
IDS: dict[int, tuple[int, int]] = {options_pb2.VOCABULARY_AYANAMSHA: (2, 46)}


def taken_ids(rule: options_pb2.FieldRule) -> tuple[int, int] | None:
    """Return the ids (an inclusive range) a string parameter also takes as a JSON integer:
    its ``(field).ids_of`` vocabulary's, else its own vocabulary's; None when it takes none."""
    for enum in (rule.ids_of, rule.vocabulary):
        if enum in IDS:
            return IDS[enum]
    return None
