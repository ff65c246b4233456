"""`check-config` (and `run`) list a game's [setup] problems in the same run as its [rules] problems
and the installation's own, and name a game written inline in the installation by its
`games[N].` keys."""
from __future__ import annotations

import re

from forumgm.config import data_path
from forumgm.daemon.cli import main

MAFIA = data_path("games", "mafia.example.toml").read_text(encoding="utf-8")
ROLES = "expected one of Комиссар, Доктор, Мирный житель, Босс мафии, Мафиози, Маньяк"


def broken_mafia(broken_rules: bool = False) -> str:
    """The example Mafia game with a role no rule table has and a dead man who is no player, and
    with `broken_rules` a fraction where its [rules] take a whole number."""
    text = (MAFIA.replace('role = "Доктор"', 'role = "Доктр"')
            .replace("[setup]  ", '[setup]\ndead = ["Никто"]\n', 1))
    return text.replace("missed_votes_out = 2 ", "missed_votes_out = 2.5", 1) if broken_rules else text


def installation(tmp_path, monkeypatch, games: str, tail: str = "", poll: str = "600") -> str:
    """The shipped example installation with `games = …` as given and `tail` after its tables."""
    monkeypatch.setenv("FORUMGM_PASSWORD", "secret")
    monkeypatch.setenv("FORUMGM_WEB_PASSWORD", "page secret")
    text = data_path("forumgm.example.toml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^games = .*$", games, text, count=1)
    text = re.sub(r"(?m)^poll_interval = \S+", f"poll_interval = {poll}", text, count=1)
    path = tmp_path / "forumgm.toml"
    path.write_text(text + tail, encoding="utf-8")
    return str(path)


def inline(game: str) -> str:
    """A game file's text as a [[games]] entry of the installation: its tables under `games.`."""
    return "\n[[games]]\n" + re.sub(r"(?m)^\[(\[?)(?!\[)", r"[\1games.", game)


def test_a_game_files_rules_and_setup_problems_come_in_one_run(tmp_path, capsys):
    path = tmp_path / "game.toml"
    path.write_text(broken_mafia(broken_rules=True), encoding="utf-8")
    assert main(["check-config", str(path)]) == 1
    assert capsys.readouterr().err == (
        f"{path}: rules.missed_votes_out: expected a whole number (got 2.5)\n"
        f"{path}: players #2 (Хан).role: unknown role 'Доктр'; {ROLES}\n"
        f"{path}: setup.dead: not players: Никто\n"
        "3 problem(s)\n")


def test_the_installations_problems_and_its_games_setup_problems_come_in_one_run(tmp_path, monkeypatch, capsys):
    (tmp_path / "games").mkdir()
    game = tmp_path / "games" / "mafia.toml"
    game.write_text(broken_mafia(), encoding="utf-8")
    config = installation(tmp_path, monkeypatch, 'games = ["games/mafia.toml"]', poll="-5")
    for command in (["check-config", config], ["run", "--config", config, "--once"]):
        assert main(command) != 0
        assert capsys.readouterr().err.splitlines()[:3] == [
            f"{config}: daemon.poll_interval: expected a positive integer (got -5)",
            f"{game}: players #2 (Хан).role: unknown role 'Доктр'; {ROLES}",
            f"{game}: setup.dead: not players: Никто"], command


def test_a_game_written_inline_is_named_by_its_games_keys(tmp_path, monkeypatch, capsys):
    config = installation(tmp_path, monkeypatch, "", tail=inline(broken_mafia(broken_rules=True)))
    assert main(["check-config", config]) == 1
    assert capsys.readouterr().err == (
        f"{config}: games[0].rules.missed_votes_out: expected a whole number (got 2.5)\n"
        f"{config}: games[0].players #2 (Хан).role: unknown role 'Доктр'; {ROLES}\n"
        f"{config}: games[0].setup.dead: not players: Никто\n"
        "3 problem(s)\n")


def test_a_game_with_wrong_players_has_no_setup_checked_against_them(tmp_path, capsys):
    """The cast is what [setup] is checked against: a player without a nick is named alone."""
    path = tmp_path / "game.toml"
    path.write_text(broken_mafia().replace('nick = "Хан"\n', "", 1), encoding="utf-8")
    assert main(["check-config", str(path)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == f"{len(err) - 1} problem(s)"
    assert all(line.startswith(f"{path}: players #2") for line in err[:-1]), err
