"""The tally of the real phpBB fixture thread (tests/fixtures/forums/phpbb/README.md lists its posts)."""
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

from forumgm.engines.tally import VotePostVersion, VoteRules, count_votes
from forumgm.parsers.colors import normalize_color
from forumgm.parsers.forums import phpbb
from forumgm.parsers.names import Roster

PAGES = ("thread_page1.html", "thread_page2.html", "thread_page3_last.html")
FIXTURES = Path(__file__).parent / "fixtures" / "forums" / "phpbb"
PLAYERS = ("Аскон", "gosha100", "Robozik", "Ильмаринен", "Кума", "Гладиатор")
ROSTER = Roster(PLAYERS)
RULES = VoteRules(colors=frozenset({normalize_color("blue")}), voters=frozenset(PLAYERS),
                  candidates=frozenset(PLAYERS))
AFTER_ALL = datetime(2026, 11, 30, 5, 0, tzinfo=timezone.utc)


def thread_versions():
    """Every post as shown, plus post 3 as it was before Аскон edited gosha100 into Robozik."""
    posts = [p for page in PAGES for p in phpbb.posts((FIXTURES / page).read_text(encoding="utf-8"), ZoneInfo("UTC"))]
    edited = next(p for p in posts if p.id == "3")
    original = VotePostVersion.of_post(edited, edited.posted_at)
    original = replace(original, colored=(replace(original.colored[0], text="gosha100"),))
    return [original] + [VotePostVersion.of_post(p) for p in posts], edited


def test_the_thread_tally():
    versions, _ = thread_versions()
    tally = count_votes(versions, ROSTER, RULES, AFTER_ALL)
    assert {v.voter: (v.target, v.post_id) for v in tally.counted} == {
        "Аскон": ("Robozik", "3"),        # the edit before the deadline stands
        "gosha100": ("Robozik", "4"),
        "Robozik": ("gosha100", "12"),    # hex blue; the quoted "Robozik" of post 5 never counts
        "Гладиатор": ("Кума", "8"),
        "Ильмаринен": ("Кума", "9"),
        "Кума": ("Гладиатор", "10"),      # the red "Ильмаринен" of post 7 is not a vote
    }
    assert [d.as_json() for d in tally.discarded] == [
        {"voter": "Ведущий", "text": "ник", "reason": "non_player", "post_id": "2"},
        {"voter": "Robozik", "text": "Robozik", "reason": "quoted", "post_id": "5"},
        {"voter": "Кума", "text": "Кума", "reason": "quoted", "post_id": "10"},
        {"voter": "Robozik", "text": "gosha100", "reason": "superseded", "post_id": "5", "detail": "gosha100"},
    ]


def test_the_edit_after_the_deadline_does_not_count():
    versions, edited = thread_versions()
    deadline = edited.posted_at + (edited.edited_at - edited.posted_at) / 2
    tally = count_votes(versions, ROSTER, RULES, deadline)
    assert [(v.voter, v.target) for v in tally.counted] == [("Аскон", "gosha100")]
    assert [(d.voter, d.text, d.reason, d.post_id) for d in tally.discarded] == [
        ("Аскон", "Robozik", "after_deadline", "3"),
        ("Ведущий", "ник", "non_player", "2"),
        ("gosha100", "Robozik", "after_deadline", "4"),
        ("Robozik", "gosha100", "after_deadline", "5"),
        ("Гладиатор", "Кума", "after_deadline", "8"),
        ("Ильмаринен", "Кума", "after_deadline", "9"),
        ("Кума", "Гладиатор", "after_deadline", "10"),
        ("Robozik", "gosha100", "after_deadline", "12"),
    ]
