"""Before the deadline: the missing-vote reminder once per phase, the host's discipline digest."""
from __future__ import annotations

from dataclasses import replace
from functools import partial

import pytest

from forumgm.daemon.tick.clock import FixedClock
from forumgm.engines.base import OutgoingPm, Rules
from forumgm.parsers.forums.base import Post
from mafia_daemon_support import daemon, drafts_of, example_installation, msk
from spine_fakes import MemoryForum, ScriptedPm

VOTERS = ("Аскон", "Хан", "Лиса", "Бук", "Тора", "Эф")     # Гор and Ива send nothing


def post(post_id: str, author: str, at) -> Post:
    return Post(id=post_id, author=author, author_id=None, posted_at=at, text="подозреваю всех")


def game_day(tmp_path, monkeypatch, ticks, game_text=lambda text: text, later_posts=(), rules=lambda rules: rules):
    installation = example_installation(tmp_path, monkeypatch, game_text)
    clock = FixedClock(ticks[0])
    pms = [ScriptedPm(nick, "голос: Лиса", msk(3, 10 + i)) for i, nick in enumerate(VOTERS)]
    posts = [post("11", "Аскон", msk(3, 12)), post("12", "Лиса", msk(3, 13)), post("13", "Ведущий", msk(3, 14)),
             post("14", "Гость", msk(3, 15)), post("15", "Гость", msk(3, 16)), post("16", "Гость", msk(3, 17)),
             *later_posts]
    forum = MemoryForum(clock, pms=pms, posts=posts)
    run = daemon(installation, clock, forum)
    run.games = [replace(game, rules=rules(game.rules)) for game in run.games]
    for at in ticks:
        clock.set(at)
        assert not run.tick().errors
    return run.store


def test_the_reminder_is_drafted_once_an_hour_before_with_the_players_without_a_vote(tmp_path, monkeypatch):
    store = game_day(tmp_path, monkeypatch, [msk(3, 10), msk(3, 21, 30), msk(3, 21, 50), msk(3, 22, 10),
                                             msk(3, 22, 40), msk(3, 22, 50)])
    reminders = drafts_of(store, "reminder")
    post_drafts = [d for d in reminders if d["target"] == "thread"]
    assert len(post_drafts) == 1 and post_drafts[0]["phase_key"] == "round-1"
    assert "Гор, Ива" in post_drafts[0]["body"] and "Аскон" not in post_drafts[0]["body"]
    assert sorted(d["target"] for d in reminders if d["target"] != "thread") == ["Гор", "Ива"]


def test_no_reminder_when_the_window_passed_while_the_daemon_was_down(tmp_path, monkeypatch):
    store = game_day(tmp_path, monkeypatch, [msk(3, 10), msk(3, 22, 50)])
    assert drafts_of(store, "reminder") == []
    assert [d["ref"] for d in drafts_of(store, "discipline")] == ["discipline:round-1:deadline"]


def test_a_changed_reminder_offset_moves_the_window(tmp_path, monkeypatch):
    two_hours = lambda text: text.replace('reminder_before = "1h"', 'reminder_before = "2h"')   # noqa: E731
    store = game_day(tmp_path, monkeypatch, [msk(3, 10), msk(3, 20, 50)], two_hours)
    [post_draft] = [d for d in drafts_of(store, "reminder") if d["target"] == "thread"]
    assert post_draft["body"].startswith("До конца игрового дня 1 остался 1 час 55 минут.")


@pytest.mark.parametrize("offset, at, told", [
    ("2m", msk(3, 22, 43), "осталось 2 минуты"),
    ("3h", msk(3, 19, 45), "осталось 3 часа"),
    ("1h", msk(3, 22, 25), "осталось 20 минут"),     # a daemon started late in the window tells what is left
])
def test_the_reminder_tells_the_time_left_before_the_deadline(tmp_path, monkeypatch, offset, at, told):
    offset_config = lambda text: text.replace('reminder_before = "1h"', f'reminder_before = "{offset}"')   # noqa: E731
    store = game_day(tmp_path, monkeypatch, [msk(3, 10), at], offset_config)
    reminders = drafts_of(store, "reminder")
    [post_draft] = [d for d in reminders if d["target"] == "thread"]
    assert post_draft["body"].startswith(f"До конца игрового дня 1 {told}.")
    assert all(f"до конца игрового дня 1 {told}," in d["body"] for d in reminders if d["target"] != "thread")


def test_the_discipline_digest_goes_to_the_host_before_and_at_the_deadline(tmp_path, monkeypatch):
    store = game_day(tmp_path, monkeypatch, [msk(3, 10), msk(3, 21, 50), msk(3, 22, 0), msk(3, 22, 50)],
                     later_posts=[post("17", "Хан", msk(3, 22, 30))])
    digests = {d["ref"]: d for d in drafts_of(store, "discipline")}
    assert set(digests) == {"discipline:round-1:before", "discipline:round-1:deadline"}
    body = digests["discipline:round-1:deadline"]["body"]
    assert digests["discipline:round-1:deadline"]["target"] == "Ведущий"
    assert digests["discipline:round-1:deadline"]["status"] == "pending"
    silent = next(line for line in body.splitlines() if line.startswith("Живые игроки без сообщений"))
    assert "Аскон" not in silent and "Лиса" not in silent and "Хан" not in silent and "Ведущий" not in silent
    assert "Хан" in digests["discipline:round-1:before"]["body"]      # his post came after it
    assert "Гость (гость) — сообщений: 3" in body


def test_a_digest_unchanged_since_the_one_before_the_deadline_is_not_drafted_twice(tmp_path, monkeypatch):
    store = game_day(tmp_path, monkeypatch, [msk(3, 10), msk(3, 21, 50), msk(3, 22, 0), msk(3, 22, 50), msk(3, 23)])
    [digest] = drafts_of(store, "discipline")
    assert digest["ref"] == "discipline:round-1:before" and "Хан" in digest["body"]


class Delegating:
    """The game's own engine with its host digest replaced, or taken away (Rules' default: none)."""

    def __init__(self, rules, host_digest=None):
        self._rules = rules
        self.host_digest = host_digest or partial(Rules.host_digest, rules)

    def __getattr__(self, name):
        return getattr(self._rules, name)


def test_a_game_whose_engine_has_no_host_digest_gets_none(tmp_path, monkeypatch):
    store = game_day(tmp_path, monkeypatch, [msk(3, 10), msk(3, 21, 50), msk(3, 22, 50)], rules=Delegating)
    assert drafts_of(store, "discipline") == []
    assert drafts_of(store, "reminder")          # the rest of the day is drafted as before


def test_the_digest_is_whatever_the_engine_drafts_for_the_host(tmp_path, monkeypatch):
    seen = []

    def host_digest(state, phase, posts, start, end, host, texts):
        seen.append((phase.key, sorted(p.id for p in posts), start, end, host))
        return OutgoingPm(host, "order_digest", f"{len(seen)} of {phase.key}", subject="Сводка")

    store = game_day(tmp_path, monkeypatch, [msk(3, 10), msk(3, 21, 50), msk(3, 22, 50)],
                     rules=lambda rules: Delegating(rules, host_digest))
    [(key, posts, opens, before, host), (_, _, _, deadline, _)] = seen
    assert key == "round-1" and host == "Ведущий" and posts == ["11", "12", "13", "14", "15", "16"]
    assert opens < msk(3, 12) and before == msk(3, 21, 50) and deadline == msk(3, 22, 45)
    drafts = {d["ref"]: d for d in drafts_of(store, "order_digest")}
    assert set(drafts) == {"order_digest:round-1:before", "order_digest:round-1:deadline"}
    assert drafts["order_digest:round-1:before"]["body"] == "1 of round-1"
    assert drafts["order_digest:round-1:deadline"]["subject"] == "Сводка"
    assert drafts["order_digest:round-1:deadline"]["target"] == "Ведущий"
