"""A game registry loads a part given `OnFirstUse` the first time it is read, and only then
(`core.registries`, issue 39.3)."""

from __future__ import annotations

import subprocess
import sys

from ofc_desk.core.registries import OnFirstUse, Registry


def counted_registry() -> tuple[Registry[str, str], list[str]]:
    """A registry of a part given as it is ("ofc") and two loaded on first use, with the loads made."""
    loads: list[str] = []

    def loader(name: str) -> OnFirstUse[str]:
        def load() -> str:
            loads.append(name)
            return f"{name}'s part"

        return OnFirstUse(load)

    return Registry({"ofc": "ofc's part", "chinese": loader("chinese"), "toy": loader("toy")}), loads


def test_asking_which_games_a_registry_has_loads_none_of_them() -> None:
    registry, loads = counted_registry()
    assert list(registry) == ["ofc", "chinese", "toy"]  # in the order given
    assert "chinese" in registry and "poker" not in registry and len(registry) == 3
    assert registry["ofc"] == "ofc's part"
    assert registry.get("poker") is None
    assert loads == []


def test_a_part_is_loaded_once_with_its_first_reading() -> None:
    registry, loads = counted_registry()
    assert registry["chinese"] == "chinese's part"
    assert registry.get("chinese") == "chinese's part"
    assert loads == ["chinese"]
    assert dict(registry) == {"ofc": "ofc's part", "chinese": "chinese's part", "toy": "toy's part"}
    assert loads == ["chinese", "toy"]


def test_a_reader_that_stops_at_the_first_part_it_wants_loads_no_other() -> None:
    registry, loads = counted_registry()
    assert next(part for part in registry.values() if part.startswith("ofc")) == "ofc's part"
    assert next(game for game, part in registry.items() if part == "chinese's part") == "chinese"
    assert loads == ["chinese"]


def test_a_game_registered_at_run_time_is_added_and_taken_out_as_in_a_dict() -> None:
    registry, loads = counted_registry()
    registry.update({"pusoy": "pusoy's part"})
    assert list(registry) == ["ofc", "chinese", "toy", "pusoy"]
    assert registry.pop("pusoy") == "pusoy's part"
    del registry["toy"]
    assert list(registry) == ["ofc", "chinese"]
    assert loads == []


def test_the_core_names_the_closed_game_without_loading_it() -> None:
    """Issue 39.3: the core's registries name the Chinese game's variant word, its label and its
    place in each registry, in a fresh process, without importing any of its modules; its parts
    load when asked for."""
    script = (
        "import sys\n"
        "from ofc_desk.core.games import GAME_OF_VARIANT, PRESET_LOADERS, VARIANT_LABELS\n"
        "from ofc_desk.core.presets import Game\n"
        "assert GAME_OF_VARIANT['chinese'] is Game.CHINESE and str(VARIANT_LABELS['chinese']) == 'chinese'\n"
        "assert Game.CHINESE in PRESET_LOADERS\n"
        "print(sorted(name for name in sys.modules if 'chinese' in name))\n"
        "PRESET_LOADERS[Game.CHINESE]('hawaiian-gardens')\n"
        "print('ofc_desk.core.chinese.presets' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.splitlines() == ["[]", "True"]
