"""The game's start: frozen rules at every daemon start, role links, the sign-up proposal."""
from __future__ import annotations

import re

import pytest

from forumgm.daemon.cli import main
from forumgm.daemon.settings.records import ConfigError
from forumgm.daemon.tick.clock import FixedClock
from forumgm.daemon.store.role_links import LinkUsed, RoleShown
from mafia_daemon_support import GAME, daemon, drafts_of, example_installation, msk, top_level
from forumgm.parsers.forums.base import Post
from spine_fakes import MemoryForum, ScriptedPm


def changed_rules(text: str) -> str:
    return text.replace("missed_votes_out = 2                 #", "missed_votes_out = 3                 #")


def test_changed_rules_stop_a_running_game_until_the_host_accepts_them(tmp_path, monkeypatch, capsys):
    clock = FixedClock(msk(3, 10))
    forum = MemoryForum(clock, pms=[ScriptedPm("Аскон", "голос: Лиса", msk(3, 10))])
    first = daemon(example_installation(tmp_path, monkeypatch), clock, forum)
    first.tick()
    assert first.store.latest_snapshot(GAME) is not None

    changed = example_installation(tmp_path, monkeypatch, changed_rules)
    refused = daemon(changed, clock, forum)
    held = [a for a in refused.store.audit_log() if a["action"] == "game.held"]
    assert len(held) == 1 and "forumgm rules accept" in held[0]["detail"]["message"]
    assert refused.tick().resolved == [] and len(refused.store.orders(GAME)) == 1     # nothing more is read

    assert main(["rules", "accept", "--config", str(tmp_path / "forumgm.toml"), GAME]) == 0
    assert main(["rules", "accept", "--config", str(tmp_path / "forumgm.toml"), GAME]) == 1
    capsys.readouterr()
    accepted = daemon(changed, clock, forum)
    assert [g.id for g in accepted.games] == [GAME] and accepted.store.holds(GAME) == []
    clock.set(msk(3, 22, 50))
    assert accepted.tick().resolved == [f"{GAME}/round-1"]
    report = drafts_of(accepted.store, "round_report")[0]["body"]
    assert "Ведущий изменил правила" in report
    state = accepted.store.latest_snapshot(GAME)["state"]
    assert state["rules"]["missed_votes_out"] == 3


def test_unchanged_rules_run_and_the_report_says_nothing(tmp_path, monkeypatch):
    clock = FixedClock(msk(3, 10))
    forum = MemoryForum(clock)
    installation = example_installation(tmp_path, monkeypatch)
    daemon(installation, clock, forum).tick()
    again = daemon(installation, clock, forum)
    assert [g.id for g in again.games] == [GAME]
    clock.set(msk(3, 22, 50))
    again.tick()
    assert "изменил правила" not in drafts_of(again.store, "round_report")[0]["body"]


def test_role_links_instead_of_roles_in_the_pms(tmp_path, monkeypatch):
    installation = example_installation(tmp_path, monkeypatch, top_level('role_delivery = "link"'),
                                        public_url="https://gm.example.org/")
    clock = FixedClock(msk(2, 20))
    run = daemon(installation, clock, MemoryForum(clock))
    run.tick()
    roles = drafts_of(run.store, "role")
    assert len(roles) == 8
    for draft in roles:
        assert "Мирный житель" not in draft["body"] and "Комиссар" not in draft["body"]
        token = re.search(r"https://gm\.example\.org/role/(\S+)", draft["body"]).group(1)
        shown = run.store.open_role_link(token)
        assert isinstance(shown, RoleShown) and shown.nick == draft["target"]
        assert draft["target"] in shown.text and "ваша роль" in shown.text
        assert isinstance(run.store.open_role_link(token), LinkUsed)


def test_role_links_need_the_pages_public_address(tmp_path, monkeypatch):
    with pytest.raises(ConfigError, match="web.public_url"):
        example_installation(tmp_path, monkeypatch, top_level('role_delivery = "link"'))


def without_players(text: str) -> str:
    start = text.index("[[players]]")
    end = text.index("# roles may live")
    return top_level("players = []")(text[:start] + text[end:])


def test_signup_drafts_the_proposed_players_for_the_host(tmp_path, monkeypatch, capsys):
    installation = example_installation(tmp_path, monkeypatch, without_players)
    clock = FixedClock(msk(1, 20))
    posts = [Post("1", "Ведущий", None, msk(1, 10), text="Набор в игру! Пишите «в игре»."),
             Post("2", "Аскон", None, msk(1, 11), text="в игре"),
             Post("3", "Хан", None, msk(1, 12), text="+"),
             Post("4", "Лиса", None, msk(1, 13), text="записываюсь"),
             Post("5", "Хан", None, msk(1, 14), text="простите, выписываюсь"),
             Post("6", "Бук", None, msk(1, 15), text="а кто уже в игре?")]
    run = daemon(installation, clock, MemoryForum(clock, posts=posts))
    assert not run.tick().errors
    assert run.store.latest_snapshot(GAME) is None          # nothing dealt while the sign-up is open
    assert main(["signup", "--config", str(tmp_path / "forumgm.toml"), GAME]) == 0
    assert "Аскон, Лиса" in capsys.readouterr().out
    [draft] = drafts_of(run.store, "signup")
    assert draft["target"] == "Ведущий" and draft["status"] == "pending"
    assert 'nick = "Аскон"' in draft["body"] and 'nick = "Хан"' not in draft["body"]
    assert "#5 Хан — выписался" in draft["body"] and "Бук" not in draft["body"]
    assert main(["signup", "--config", str(tmp_path / "forumgm.toml"), GAME]) == 0
    assert [d["status"] for d in drafts_of(run.store, "signup")] == ["superseded", "pending"]
