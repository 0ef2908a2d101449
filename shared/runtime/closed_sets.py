"""The closed sets a request's ``(field).choices`` name, each bound to the one Python table
that gives its names a meaning (a theme's palette, a year length's days, a varga's division).

One source: where the Python needs only the names, it reads the proto's choices
(:func:`choices_of`); where each name carries data, the table declares the names with their
meaning and the proto's choices are the contract's copy of them (OpenAPI, clients, the
validation that refuses any other name), which :func:`bound_to_choices` holds equal to the
table where the table is used, when its module is imported: a service whose table and
contract disagree does not start. The kernel imports no protobuf, so its tables are bound by
the runtime module that reads them into a request's query.
``tests/unit/runtime/test_closed_sets.py`` lists every binding and finds any other pair of
declarations of one set that disagree.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TypeVar

from celestial.v1 import options_pb2

Table = TypeVar("Table", bound=Collection[str])


@dataclass(frozen=True)
class Binding:
    """A Python table bound to the choices of request fields: where it lives (``module.NAME``),
    its names, and the fields (message full name, field name) whose choices they are."""

    table: str
    names: frozenset[str]
    fields: tuple[tuple[str, str], ...]


#: Every binding made so far in this process (each module binds its tables on import).
BINDINGS: list[Binding] = []


def choices_of(message_cls, field: str) -> tuple[str, ...]:
    """Return the ``(field).choices`` of a request message's field, in the proto's order."""
    return tuple(message_cls.DESCRIPTOR.fields_by_name[field].GetOptions().Extensions[options_pb2.field].choices)


def bound_to_choices(table: Table, name: str, *fields: tuple[type, str]) -> Table:
    """Return ``table`` (a collection of names, or a mapping keyed by them) once its names are
    exactly the choices of each of ``fields`` (a message class and a field name); ValueError
    naming both sides otherwise. ``name`` says where the table lives (``kernel.vargas.VARGA_CODES``)."""
    names = frozenset(table)
    for message_cls, field in fields:
        choices = frozenset(choices_of(message_cls, field))
        if names != choices:
            raise ValueError(
                f"{name} names {sorted(names)} but {message_cls.DESCRIPTOR.full_name}.{field} chooses among "
                f"{sorted(choices)}: a closed set is declared once; change both together."
            )
    BINDINGS.append(
        Binding(name, names, tuple((message_cls.DESCRIPTOR.full_name, field) for message_cls, field in fields))
    )
    return table
