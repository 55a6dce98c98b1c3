"""A command that adds no field to its base is not decorated again (issue 39.3): it still behaves
as a frozen dataclass of its own class, as it did when it was one."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from ofc_desk.service.table.commands import CashOut, CloseSession, Command, SitIn, SitOut, StartHand
from ofc_desk.service.table.games.ofc.commands import Place, Reveal


def _every_command(base: type[Command] = Command) -> list[type[Command]]:
    found = []
    for subclass in base.__subclasses__():
        found += [subclass, *_every_command(subclass)]
    return found


def test_every_command_is_a_frozen_dataclass() -> None:
    commands = _every_command()
    assert {StartHand, CashOut, SitOut, CloseSession, Place} <= set(commands)
    for command in commands:
        assert dataclasses.is_dataclass(command)
        assert command.__dataclass_params__.frozen  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("made", "same", "other"),
    [
        (StartHand(), StartHand(), CashOut("Ann")),
        (CashOut("Ann"), CashOut("Ann"), SitOut("Ann")),
        (SitOut("Ann"), SitOut("Ann"), SitOut("Bo")),
        (CloseSession(supervisor="Sam", pin="1234"), CloseSession(supervisor="Sam", pin="1234"), StartHand()),
        (Place("Ann", "Qh Qd", "f f"), Place("Ann", "Qh Qd", "f f"), Reveal("Ann", "Qh Qd", "f f")),
    ],
)
def test_a_command_without_fields_of_its_own_compares_hashes_and_prints_as_its_own_class(
    made: Command, same: Command, other: Command
) -> None:
    assert made == same and hash(made) == hash(same)
    assert made != other  # another class, even with the same fields
    assert repr(made).startswith(f"{type(made).__qualname__}(")
    assert "1234" not in repr(made)  # a supervisor's PIN is never printed
    assert dataclasses.replace(made) == made


def test_a_command_without_fields_of_its_own_keeps_its_fields_frozen() -> None:
    place = Place("Ann", "Qh Qd", "f f")
    with pytest.raises(dataclasses.FrozenInstanceError):
        place.player = "Bo"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del SitIn("Ann").player
    assert list(inspect.signature(Place).parameters) == ["player", "cards", "rows"]
    assert [field.name for field in dataclasses.fields(SitIn)] == ["player"]
