"""Mafia's day votes come by PM: a blue nickname in its thread is no vote, and the host hears of it
once per player and game day; `forumgm votes` shows the PM vote tally."""
from __future__ import annotations

from forumgm.daemon.cli import main
from forumgm.daemon.tick.clock import FixedClock
from forumgm.parsers.forums.base import ColoredFragment, Post
from mafia_daemon_support import GAME, daemon, drafts_of, example_installation, msk
from spine_fakes import MemoryForum, ScriptedPm

BLUE = "#0000ff"
NOTICE = "Голос в теме не засчитан: голосуют в ЛС."


def blue_post(post_id: str, author: str, at, nick: str, quoted: bool = False) -> Post:
    fragment = ColoredFragment(BLUE, nick, "quote" if quoted else "")
    return Post(id=post_id, author=author, author_id=None, posted_at=at, text=f"голосую за {nick}",
                colored=() if quoted else (fragment,), flagged=(fragment,) if quoted else ())


def test_a_blue_vote_in_a_mafia_thread_is_one_host_notice_per_player_and_day(tmp_path, monkeypatch):
    """...and none for a player whose day vote came by PM before (Лиса): he has voted as he should."""
    clock = FixedClock(msk(3, 10))
    posts = [blue_post("1", "Аскон", msk(3, 11), "Лиса"), blue_post("2", "Аскон", msk(3, 12), "Бук"),
             blue_post("3", "Хан", msk(3, 12), "Лиса", quoted=True),      # quoted: not his vote
             blue_post("4", "Гость", msk(3, 13), "Лиса"),                 # no player: no vote anyway
             blue_post("5", "Аскон", msk(4, 11), "Лиса"),                 # the next game day
             blue_post("6", "Лиса", msk(3, 12, 30), "Бук")]               # voted by PM at 11:30
    forum = MemoryForum(clock, pms=[ScriptedPm("Хан", "голос: Лиса", msk(3, 11)),
                                    ScriptedPm("Лиса", "голос: Бук", msk(3, 11, 30))], posts=posts)
    running = daemon(example_installation(tmp_path, monkeypatch), clock, forum)
    for at in (msk(3, 10), msk(3, 13), msk(3, 14), msk(3, 22, 50), msk(4, 12), msk(4, 13)):
        clock.set(at)
        assert not running.tick().errors
    notices = [d for d in drafts_of(running.store, "host_notice") if d["ref"].startswith("thread_vote:")]
    assert [(d["ref"], d["target"], d["status"]) for d in notices] == [
        ("thread_vote:round-1:Аскон", "Ведущий", "pending"), ("thread_vote:round-2:Аскон", "Ведущий", "pending")]
    assert notices[0]["body"].startswith(NOTICE)
    assert "Игрок Аскон выделил цветом в теме игры mafia-example (игровой день 1, 03.03.2026 11:00): «Лиса»" \
        in notices[0]["body"]
    assert running.store.votes(GAME) == []        # nothing counted from the thread


def test_votes_shows_the_pm_tally_of_a_mafia_round(tmp_path, monkeypatch, capsys):
    clock = FixedClock(msk(3, 10))
    pms = [ScriptedPm("Аскон", "голос: Лиса", msk(3, 11)), ScriptedPm("Хан", "голос: Лиса", msk(3, 11, 5)),
           ScriptedPm("Лиса", "голос: Хан", msk(3, 11, 10)), ScriptedPm("Аскон", "голос: Бук", msk(3, 11, 20)),
           ScriptedPm("Тора", "не судить", msk(3, 11, 30))]
    running = daemon(example_installation(tmp_path, monkeypatch), clock, MemoryForum(clock, pms=pms))
    running.tick()
    clock.set(msk(3, 12))
    running.tick()
    capsys.readouterr()
    assert main(["votes", "--config", str(tmp_path / "forumgm.toml"), GAME]) == 0
    shown = capsys.readouterr().out
    assert "Лиса — 2: Аскон, Хан" in shown and "Хан — 1: Лиса" in shown and "не судить — 1: Тора" in shown
    assert "Аскон: «голос: Бук» — голос уже учтён, менять нельзя" in shown
    assert "[b]Не проголосовали (4):[/b] Бук, Гор, Ива, Эф" in shown
