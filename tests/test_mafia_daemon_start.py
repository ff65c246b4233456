"""The game's start: frozen rules at every daemon start, role links, the sign-up proposal."""
from __future__ import annotations

import re

import pytest

from forumgm.daemon.cli import main
from forumgm.daemon.settings.records import ConfigError
from forumgm.daemon.tick.clock import FixedClock
from forumgm.daemon.drafts.publish import publish_approved
from forumgm.daemon.store.role_links import LinkUsed, RoleShown, key_path
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
        # the draft (the store, the drafts page, `drafts show`) holds the link's mark, never its token
        assert re.search(r"https://gm\.example\.org/role/\{role-link:[\w-]+\}\n", draft["body"])
        run.store.approve(draft["id"], by="host")
    publish_approved(run.forum, run.store, clock.now())
    sent = {pm["to"]: pm["body"] for pm in run.forum.sent}
    tokens = set()
    for draft in roles:
        token = re.search(r"https://gm\.example\.org/role/([\w-]{43})\n", sent[draft["target"]]).group(1)
        tokens.add(token)
        shown = run.store.open_role_link(token)
        assert isinstance(shown, RoleShown) and shown.nick == draft["target"]
        assert draft["target"] in shown.text and "ваша роль" in shown.text
        assert isinstance(run.store.open_role_link(token), LinkUsed)
    assert len(tokens) == 8
    stored = "\n".join(run.store.db.conn.iterdump())
    assert not any(token in stored for token in tokens)          # the PMs were sent, the tokens kept nowhere


def test_a_role_link_whose_key_is_lost_is_not_sent(tmp_path, monkeypatch):
    """Made again with another key, the token would open nothing: the PM waits, saying why."""
    installation = example_installation(tmp_path, monkeypatch, top_level('role_delivery = "link"'),
                                        public_url="https://gm.example.org/")
    clock = FixedClock(msk(2, 20))
    run = daemon(installation, clock, MemoryForum(clock))
    run.tick()
    draft = drafts_of(run.store, "role")[0]
    run.store.approve(draft["id"], by="host")
    key_path(run.store.path).unlink()
    report = publish_approved(run.forum, run.store, clock.now())
    assert run.forum.sent == [] and "не открывается ключом из" in report.failed[draft["id"]]
    assert run.store.draft(draft["id"])["status"] == "approved"      # tried again at every tick, never sent blind


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
