"""The record anyone can check (daemon/record): the commitment posted at the deal, the seed and salt
kept secret until the game's record post reveals them with the archive attached, and `forumgm verify`
replaying that archive, failing on a changed roll or vote and naming the phase.

Games are played on the local forum over real HTTP (the e2e harnesses of Mafia and Legends); the
archive a player checks is the file attached to the record post, downloaded from the board."""
from __future__ import annotations

import copy
import hashlib
import json
import logging
import re
import sqlite3

import pytest
import requests

from forumgm.daemon.cli import main
from forumgm.daemon.record.commitment import commitment
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.web import create_app
import test_e2e_mafia as mafia
import test_e2e_legends as legends
from legends_forum_support import GAME as LEGENDS_GAME

SEED = 918273645          # a seed no other number of the game looks like
WEB_PASSWORD = "a-long-host-password-1"
HEX = re.compile(r"\b[0-9a-f]{64}\b")


def test_the_commitment_is_the_sha256_of_the_documented_text():
    rules = {"missed_votes_out": 2, "roles": {"Мафиози": 2}, "a": [1, "б"]}
    text = ('forumgm-commitment-1\nseed=42\nsalt=00ff\n'
            'rules={"a":[1,"б"],"missed_votes_out":2,"roles":{"Мафиози":2}}')
    assert commitment(42, "00ff", rules) == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert commitment(43, "00ff", rules) != commitment(42, "00ff", rules)
    assert commitment(42, "00fe", rules) != commitment(42, "00ff", rules)
    assert commitment(42, "00ff", {**rules, "missed_votes_out": 3}) != commitment(42, "00ff", rules)


# ---------------------------------------------------------------- Mafia

@pytest.fixture
def table(tmp_path, monkeypatch):
    table = mafia.Table(tmp_path, monkeypatch, seed=SEED)
    yield table
    table.store.close()
    table.server.stop()


def deal(table) -> None:
    table.tick(mafia.msk(2, 22))
    table.approve()
    table.tick(mafia.msk(2, 22, 10))


def secrets_of(table) -> tuple[str, str]:
    row = sqlite3.connect(table.store.path).execute("SELECT seed, salt FROM games WHERE id = ?", [mafia.GAME]).fetchone()
    return row[0], row[1]


def everything_but_the_games_row(table) -> str:
    """Every row of every table of the store but `games` (where the seed and salt are kept), as text."""
    db = sqlite3.connect(table.store.path)
    names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'games'")]
    return "\n".join(repr(row) for name in names for row in db.execute(f'SELECT * FROM "{name}"'))


def host_page(table) -> str:
    """The host's web page as he reads it: the games list, the game, the drafts."""
    app = create_app(table.store, WEB_PASSWORD)
    client = app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/login").get_data(as_text=True)).group(1)
    client.post("/login", data={"password": WEB_PASSWORD, "csrf_token": token})
    pages = [client.get(path) for path in ("/", f"/games/{mafia.GAME}", "/drafts")]
    assert all(page.status_code == 200 for page in pages)
    return "\n".join(page.get_data(as_text=True) for page in pages)


def posted_archive(table, tmp_path, name: str = "archive.json"):
    """The archive attached to the record post, downloaded from the board as a player would."""
    [record] = table.host_posts("Архив игры")
    [attached] = [f for f in table.server.board.files.values() if f.post_id is not None]
    answer = requests.get(f"{table.server.url}download/file.php?id={attached.id}", timeout=10)
    assert answer.status_code == 200 and attached.name == f"{mafia.GAME}.json"
    path = tmp_path / name
    path.write_bytes(answer.content)
    return record, path


def commitment_posted(table) -> str:
    [post] = table.host_posts("Жребий игры запечатан")
    return HEX.search(post.text).group(0)


def test_a_mafia_game_reveals_its_seed_only_in_its_record_and_its_archive_checks_out(table, tmp_path, caplog, capsys):
    caplog.set_level(logging.DEBUG)
    deal(table)
    seed, salt = secrets_of(table)
    assert seed == str(SEED) and re.fullmatch(r"[0-9a-f]{32}", salt)
    digest = commitment_posted(table)
    assert digest == commitment(seed, salt, table.store.game_rules(mafia.GAME)["table"])
    mafia.play_round(table, 1, mafia.ROUND_1, 3)
    mafia.play_round(table, 2, mafia.ROUND_2, 4)

    # before the end: nowhere but in the games row
    forum = [p.text for p in table.thread()] + [m.text for nick in mafia.ROLES for m in table.inbox(nick)]
    places = {"the store's other tables": everything_but_the_games_row(table), "the log": caplog.text,
              "the host's page": host_page(table), "the drafts": "\n".join(d["body"] for d in table.store.drafts()),
              "the forum": "\n".join(forum)}
    for secret in (seed, salt):
        assert [where for where, text in places.items() if secret in text] == []

    mafia.play_round(table, 3, mafia.ROUND_3, 5)       # the town wins: the record post is drafted, approved, posted
    record, archive = posted_archive(table, tmp_path)
    assert "Зерно (seed)" in record.text and seed in record.text and salt in record.text
    assert "Лиса — Босс мафии" in record.text and "Аскон → Лиса" in record.text
    assert "«голос: Бук» не засчитан — голос уже учтён, менять нельзя" in record.text

    capsys.readouterr()
    assert main(["verify", str(archive), "--commitment", digest]) == 0
    out = capsys.readouterr().out
    assert "ok  deal" in out and "ok  round-3" in out and "all 3 phase(s) check out" in out
    assert main(["verify", str(archive), "--commitment", "0" * 64]) == 1     # not the posted one

    # the host's export says the same
    exported = tmp_path / "export.json"
    assert main(["export", "--config", str(table.config), mafia.GAME, "--output", str(exported)]) == 0
    assert main(["verify", str(exported)]) == 0
    assert json.loads(exported.read_text())["phases"][0]["inputs"] == json.loads(archive.read_text())["phases"][0]["inputs"]


def restarted(table):
    """The daemon started again on the same store, its game file read anew, and one tick."""
    table.daemon = Daemon(load_installation(table.config), table.store, table.host, table.clock, table.daemon.edges)
    table.tick(table.clock.now())
    return table


def changed(path, tmp_path, edit) -> str:
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    out = tmp_path / "changed.json"
    out.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(out)


def phase(data: dict, key: str) -> dict:
    return next(p for p in data["phases"] if p["key"] == key)


def differs(capsys, path: str) -> str:
    capsys.readouterr()
    assert main(["verify", path]) == 1
    return capsys.readouterr().out.splitlines()[-1]


def test_a_changed_vote_or_order_of_a_mafia_archive_fails_naming_its_round(table, tmp_path, capsys):
    deal(table)
    for number, moves, day in ((1, mafia.ROUND_1, 3), (2, mafia.ROUND_2, 4), (3, mafia.ROUND_3, 5)):
        mafia.play_round(table, number, moves, day)
    _, archive = posted_archive(table, tmp_path)

    def vote_for_tora(data):         # Гор's PM said «голос: Бук»: now «голос: Тора»
        order = next(o for o in phase(data, "round-1")["inputs"]["orders"] if o["seat"] == "Гор")
        order["text"] = order["text"].replace("Бук", "Тора")
    assert differs(capsys, changed(archive, tmp_path, vote_for_tora)) == f"{tmp_path}/changed.json: differs in round-1"

    def counted_for_tora(data):      # only the archived count says so
        vote = next(v for v in phase(data, "round-2")["inputs"]["votes"]["counted"] if v["voter"] == "Гор")
        vote["target"] = "Хан"
    assert differs(capsys, changed(archive, tmp_path, counted_for_tora)).endswith("differs in round-2")

    def another_salt(data):
        data["salt"] = "0" * 32
    assert differs(capsys, changed(archive, tmp_path, another_salt)).endswith("differs in commitment")


def test_a_dealt_games_seed_cannot_change_and_an_accepted_rule_change_is_a_new_public_commitment(table, tmp_path, capsys):
    deal(table)
    game_file = tmp_path / "mafia.toml"
    original = game_file.read_text(encoding="utf-8")
    game_file.write_text(original.replace(f"seed = {SEED}", "seed = 11"), encoding="utf-8")
    held = restarted(table)
    assert [h["cause"] for h in held.store.holds(mafia.GAME)] == ["seed_changed"]
    assert secrets_of(table)[0] == str(SEED)            # the store keeps the dealt seed
    [notice] = [d for d in held.store.drafts(game_id=mafia.GAME) if (d["ref"] or "").startswith("seed_changed:")]
    assert "другое зерно" in notice["body"] and str(SEED) not in notice["body"] and "11" not in notice["body"]

    game_file.write_text(original.replace("[approval]", "[rules]\nmissed_votes_out = 3\n\n[approval]"), encoding="utf-8")
    table = restarted(table)
    assert [h["cause"] for h in table.store.holds(mafia.GAME)] == ["rules_changed"]
    assert main(["rules", "accept", "--config", str(table.config), mafia.GAME]) == 0
    seed, salt = secrets_of(table)
    new = commitment(seed, salt, table.store.game_rules(mafia.GAME)["table"])
    [notice] = [d for d in table.store.drafts(game_id=mafia.GAME) if d["ref"] == f"commitment:{new}"]
    assert "missed_votes_out: 2 → 3" in notice["body"] and new in notice["body"]
    assert seed not in notice["body"] and salt not in notice["body"]

    table = restarted(table)
    for number, moves, day in ((1, mafia.ROUND_1, 3), (2, mafia.ROUND_2, 4), (3, mafia.ROUND_3, 5)):
        mafia.play_round(table, number, moves, day)
    _, archive = posted_archive(table, tmp_path)
    assert [c["after_phase"] for c in json.loads(archive.read_text())["commitments"]] == ["setup", "setup"]
    assert main(["verify", str(archive), "--commitment", new]) == 0


# ---------------------------------------------------------------- Legends

def test_a_legends_game_ends_with_its_seed_revealed_and_a_changed_roll_or_vote_fails_naming_the_phase(legends_game, tmp_path,
                                                                                                     capsys):
    server, _clock, config, _players = legends_game
    legends.test_a_legends_game_on_the_local_forum(legends_game, capsys)       # played to the Nature clan's win
    [attached] = [f for f in server.board.files.values() if f.post_id is not None]
    answer = requests.get(f"{server.url}download/file.php?id={attached.id}", timeout=10)
    archive = tmp_path / f"{LEGENDS_GAME}.json"
    archive.write_bytes(answer.content)
    capsys.readouterr()
    assert main(["verify", str(archive)]) == 0
    assert "all 4 phase(s) check out" in capsys.readouterr().out

    def another_spell_holder(data):      # the deal's last roll gave the spell «Тень» to another enemy
        roll = data["deal"]["rolls"][-1]
        assert roll[0] == "setup/spell/Тень"
        roll[2] = (roll[2] + 1) % roll[1]
    assert differs(capsys, changed(archive, tmp_path, another_spell_holder)).endswith("differs in deal")

    def a_roll_night_1_never_made(data):
        phase(data, "night-1")["rolls"].append(["night/1/kill/attack/Кума", 2, 1])
    assert differs(capsys, changed(archive, tmp_path, a_roll_night_1_never_made)).endswith("differs in night-1")

    def robozik_votes_for_kuma(data):    # day 2 lynched Аскон by 3 votes of 4
        vote = next(v for v in phase(data, "day-2")["inputs"]["votes"]["counted"] if v["voter"] == "Robozik")
        vote["target"] = "Кума"
    assert differs(capsys, changed(archive, tmp_path, robozik_votes_for_kuma)).endswith("differs in day-2")
