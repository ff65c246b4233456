"""The daemon's side of vote counting: when a stored post version's vote was cast, the game
config's overrides of the rule table, when running counts are due, and links to vote posts."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

from forumgm.config import load_texts
from forumgm.daemon.forum.permalink import post_url_builder
from forumgm.daemon.settings.games import rule_table
from forumgm.daemon.tick.votes import phase_vote_rules, running_slot, version_times
from forumgm.engines.base import CountedVote, DiscardedVote, Phase, PhaseInputs, Tally
from forumgm.engines.legends import make_rules
from forumgm.engines.tally import VoteRules

T0 = datetime(2026, 3, 4, 12, 0, tzinfo=timezone.utc)


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def version(vote: str, seen: int, posted: int = 0, edited: int | None = None, quoted: str = "",
            hidden: bool = False) -> dict:
    colored = [{"color": "#0000ff", "text": vote, "where": ""}]
    if quoted:
        colored.append({"color": "#0000ff", "text": quoted, "where": "quote"})
    return {"colored": colored, "posted_at": at(posted), "seen_at": at(seen),
            "edited_at": at(edited) if edited is not None else None, "hidden": int(hidden)}


def test_a_typo_fixed_later_keeps_the_time_of_the_vote():
    rows = [version("Хан", seen=1), version("Хан", seen=300, edited=299, quoted="Тор")]
    assert version_times(rows) == [at(0), at(0)]


def test_a_changed_vote_is_timed_at_the_edit_or_when_seen_without_a_newer_edit_mark():
    rows = [version("Хан", seen=1), version("Тор", seen=50, edited=45), version("Лиса", seen=90, edited=45)]
    assert version_times(rows) == [at(0), at(45), at(90)]


def test_a_post_shown_hidden_or_restored_is_timed_when_seen_so():
    """No board dates a soft delete or a restore: the sighting that showed it does."""
    rows = [version("Хан", seen=10), version("Хан", seen=50, hidden=True), version("Хан", seen=90)]
    assert version_times(rows) == [at(0), at(50), at(90)]


def test_a_post_first_seen_with_an_edit_mark_is_timed_at_the_edit():
    assert version_times([version("Хан", seen=100, edited=80)]) == [at(80)]
    assert version_times([{**version("Хан", seen=100), "posted_at": None}]) == [at(100)]


def game(**config) -> SimpleNamespace:
    values = {"vote_colors": (), "vote_policy": None, "vote_count_every": None, **config}
    rules = SimpleNamespace(vote_rules=lambda state, phase: VoteRules(frozenset({"#0000ff"}), frozenset("AB"),
                                                                       frozenset("AB"), policy="last"))
    return SimpleNamespace(rules=rules, config=SimpleNamespace(**values))


def test_the_game_config_overrides_the_rule_tables_colours_and_policy():
    row = {"opens_at": T0, "deadline": at(600)}
    table = phase_vote_rules(game(), None, Phase("day", 2), row)
    assert (table.colors, table.policy, table.opens) == (frozenset({"#0000ff"}), "last", T0)
    mine = phase_vote_rules(game(vote_colors=("red", "#00f"), vote_policy="first"), None, Phase("day", 2), row)
    assert (mine.colors, mine.policy) == (frozenset({"#ff0000", "#0000ff"}), "first")


def test_a_running_count_is_due_once_per_interval_while_the_phase_is_open():
    row = {"opens_at": T0, "deadline": at(600)}
    every = game(vote_count_every=timedelta(hours=3))
    assert [running_slot(every, row, at(m)) for m in (0, 179, 180, 359, 360, 599, 600)] == \
           [None, None, 1, 1, 2, 3, None]
    assert running_slot(game(), row, at(300)) is None


def test_the_lynch_report_links_each_vote_to_its_post():
    link = post_url_builder({"engine": "phpbb", "base_url": "https://f.example/forum", "account": "Ведущий"},
                            "https://f.example/forum/viewtopic.php?t=200")
    rules = make_rules(rule_table("legends"))
    state = rules.setup({"players": [{"nick": "A", "role": "Вампир"}, {"nick": "B", "role": "Дракон"},
                                     {"nick": "C", "role": "Лич"}]}, 1)
    tally = Tally((CountedVote("A", "B", "11"), CountedVote("C", "B", "12")), (DiscardedVote("B", "X", "unknown_name", "13"),))
    urls = {post_id: link(post_id) for post_id in ("11", "12", "13")}
    report = rules.resolve(state, Phase("day", 2), PhaseInputs(tally=tally, extra={"post_urls": urls}), 1,
                           load_texts()).reports["lynch"]
    assert "[url=https://f.example/forum/viewtopic.php?p=11#p11]A[/url]" in report
    assert "[url=https://f.example/forum/viewtopic.php?p=13#p13]B[/url]" in report
    plain = rules.resolve(state, Phase("day", 2), PhaseInputs(tally=tally), 1, load_texts()).reports["lynch"]
    assert "A (#11)" in plain and "[url=" not in plain
