"""`ofc-desk replay` without `--db` (issue 34): played into a throw-away database, never the desk's
own, which keeps asking for its first accounts; with `--db`, before or after the command, the
session is stored there."""

from __future__ import annotations

import json
from pathlib import Path

import platformdirs
import pytest

from ofc_desk.service import list_open_tables
from ofc_desk.storage.database import Database
from tests.helpers.replay_helpers import load_example, run_cli, write_script

TWO_SEATS = {"table": "T1", "seats": [{"name": "Ann", "buy_in": 100}, {"name": "Bob", "buy_in": 100}]}


@pytest.fixture
def desk_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the desk's own database would be: this test's folder."""
    folder = tmp_path / "desk data"
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *_args, **_kwargs: str(folder))
    return folder


def test_a_replay_without_db_never_touches_the_desks_own_database(
    tmp_path: Path, desk_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = write_script(tmp_path, {**load_example(), "hands": load_example()["hands"][:2]})
    status, out, err = run_cli(capsys, "replay", str(script))
    assert (status, err) == (0, "")
    assert [hand["number"] for hand in json.loads(out)["hands"]] == [1, 2]
    assert not desk_data.exists()  # neither the file nor its folder was made


@pytest.mark.parametrize("before", [True, False], ids=["--db before replay", "--db after it"])
def test_a_replay_with_db_stores_the_session_there(
    tmp_path: Path, desk_data: Path, capsys: pytest.CaptureFixture[str], before: bool
) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    script = str(write_script(tmp_path, {**TWO_SEATS, "hands": []}))
    args = ["--db", url, "replay", script] if before else ["replay", script, "--db", url]
    assert run_cli(capsys, *args)[0] == 0
    database = Database(url)
    assert [table.table for table in list_open_tables(database)] == ["T1"]
    database.dispose()
    assert not desk_data.exists()
