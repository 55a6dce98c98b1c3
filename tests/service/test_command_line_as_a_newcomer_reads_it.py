"""The command line as a newcomer reads it (issue 34): `--lang` after the command as before it,
`--db` after every command that uses a database, an unknown command's refusal naming what was
typed (and the command meant), and the top-level help saying that a command never opens the desk."""

from __future__ import annotations

from pathlib import Path

import pytest

from ofc_desk.cli.main import build_parser, main
from ofc_desk.i18n import active_language, use_language

Capture = pytest.CaptureFixture[str]
COMMANDS = "score, replay, verify, anchor, report, demo, floor, db"


def refused(capsys: Capture, *args: str) -> tuple[int, str]:
    """Exit status and standard error of a command line argparse refuses."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    return int(str(exit_info.value.code)), capsys.readouterr().err


@pytest.mark.parametrize(
    "args",
    [["verify", "--lang", "ru", "--db", "{url}"], ["--lang", "ru", "verify", "--db", "{url}"],
     ["verify", "--db", "{url}", "--lang=ru"], ["--lang", "vi", "verify", "--lang", "ru", "--db", "{url}"]],
    ids=["after", "before", "after, with =", "the last one said"],
)  # fmt: skip
def test_lang_is_taken_after_the_command_as_before_it(
    tmp_path: Path, capsys: Capture, args: list[str]
) -> None:
    missing = tmp_path / "none.db"
    url = f"sqlite:///{missing}"
    assert main([word.replace("{url}", url) for word in args]) == 2
    assert capsys.readouterr().err == f"база данных: нет базы данных по пути {missing}\n"


@pytest.mark.parametrize(
    "command",
    [["verify"], ["report"], ["anchor", "--to", "anchors.txt"], ["floor"], ["replay", "script.json"]],
    ids=lambda words: words[0],
)
def test_db_is_taken_after_every_command_that_uses_a_database(command: list[str]) -> None:
    url = "sqlite:///room.db"
    for argv in (["--db", url, *command], [*command, "--db", url]):
        assert build_parser(argv).parse_args(argv).db == url, argv


def test_an_unknown_command_is_refused_naming_what_was_typed(capsys: Capture) -> None:
    assert refused(capsys, "verfy", "--db", "sqlite:///room.db") == (
        2,
        f"ofc-desk: 'verfy' is not a command (did you mean verify?): {COMMANDS}\n",
    )
    assert refused(capsys, "shuffle") == (2, f"ofc-desk: 'shuffle' is not a command: {COMMANDS}\n")
    assert refused(capsys, "db", "stauts") == (
        2,
        "ofc-desk db: 'stauts' is not a command (did you mean status?): upgrade, status, roles\n",
    )


def test_the_top_level_help_says_that_no_command_opens_the_desk(capsys: Capture) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "Without a COMMAND, ofc-desk opens the desk, the dealer's window" in said
    assert "a COMMAND does its work on the command line and never opens the desk" in said


def test_a_word_in_a_commands_place_that_may_be_a_pin_is_still_held_back(capsys: Capture) -> None:
    assert refused(capsys, "8642097") == (2, f"ofc-desk: '…' is not a command: {COMMANDS}\n")
    assert refused(capsys, "pass!word") == (2, f"ofc-desk: '…' is not a command: {COMMANDS}\n")


@pytest.mark.parametrize(
    "command", [[], ["verify"], ["db", "status"], ["report"]], ids=lambda words: " ".join(words)
)
def test_each_command_line_is_read_in_its_own_language_as_a_new_parser_reads_it(
    capsys: Capture, command: list[str]
) -> None:
    """`main` keeps the parser it built for a language and a command: a later command line in
    another language, or the same again, is helped and refused as a parser built for it would."""
    spoken = active_language()
    try:
        for language in ("ru", "en", "vi", "ru", "zh_CN"):
            argv = ["--lang", language, *command]
            for extra, stream in ((["--help"], "out"), (["--no-such-option"], "err")):
                with pytest.raises(SystemExit):
                    main([*argv, *extra])
                said = getattr(capsys.readouterr(), stream)
                fresh = build_parser([*argv, *extra])  # in the language `main` made active
                with pytest.raises(SystemExit):
                    fresh.parse_args([*argv, *extra])
                assert said == getattr(capsys.readouterr(), stream) != ""
    finally:
        use_language(spoken)
