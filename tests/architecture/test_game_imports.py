"""No new generic module imports one game's package, and no game another's (issue 37): a generic
module asks a game's part through a registry (`service.table.games.choose`, `desk.games`,
`reports.games`), which alone imports every game. The importers there are today are listed in
known.py, and the lists only shrink."""

from __future__ import annotations

from pathlib import Path

from ofc_desk.core.presets import Game
from tests.architecture.known import GAME_IMPORTS_OF_ANOTHER_GAME, GENERIC_GAME_IMPORTS
from tests.architecture.source import ROOT, SOURCE_TREES, game_imports, game_of_module, plant

pytestmark = SOURCE_TREES

GAMES = [game.value for game in Game]


def found_importers(root: Path, games: list[str]) -> tuple[set[str], set[str]]:
    """The generic modules that import a game, and the games' modules that import another game."""
    importers = set(game_imports(root, games))
    generic = {module for module in importers if game_of_module(module, games) is None}
    return generic, importers - generic


def test_no_generic_module_imports_a_game_but_the_known_ones() -> None:
    generic, _ = found_importers(ROOT, GAMES)
    new = sorted(generic - GENERIC_GAME_IMPORTS)
    gone = sorted(GENERIC_GAME_IMPORTS - generic)
    assert not new, f"generic modules importing a game's package (ask its part through a registry): {new}"
    assert not gone, f"no longer importing a game: delete them from tests/architecture/known.py: {gone}"


def test_no_game_imports_another_but_the_known_ones() -> None:
    _, games = found_importers(ROOT, GAMES)
    new = sorted(games - GAME_IMPORTS_OF_ANOTHER_GAME)
    gone = sorted(GAME_IMPORTS_OF_ANOTHER_GAME - games)
    assert not new, f"a game's modules importing another game's (move the shared piece to the core): {new}"
    assert not gone, f"no longer importing another game: delete them from tests/architecture/known.py: {gone}"


def test_planted_imports_are_told_apart(tmp_path: Path) -> None:
    planted = {
        "core/__init__.py": "",
        "core/rows.py": "",
        "core/ofc/__init__.py": "",
        "core/ofc/scoring.py": "from ofc_desk.core import rows\n",  # the core: generic
        "core/toy/__init__.py": "",
        "core/toy/deal.py": "from ofc_desk.core.ofc.scoring import SetHand\n",  # another game's
        "core/results.py": "def f():\n    from ofc_desk.core.toy import deal\n",  # generic, lazily
        "service/__init__.py": "",
        "service/table/games/__init__.py": "",
        # the registry
        "service/table/games/choose.py": "from ofc_desk.service.table.games.toy import game\n",
        "service/table/games/toy/__init__.py": "",
        "service/table/games/toy/game.py": "from ofc_desk.core.toy.deal import x\n",  # its own game
        "service/table/games/base.py": "from ofc_desk.core.ofc import scoring\n",  # generic by name
        "desk/__init__.py": "",
        "desk/games/__init__.py": "",
        "desk/games/toy_controls.py": "from ofc_desk.core.toy.deal import x\n",  # its own game
        "desk/panel.py": "from ofc_desk.desk.games.toy_controls import y\n",  # generic
    }
    plant(tmp_path, planted)
    generic, games = found_importers(tmp_path, ["ofc", "toy"])
    assert generic == {"core.results", "service.table.games.base", "desk.panel"}
    assert games == {"core.toy.deal"}
