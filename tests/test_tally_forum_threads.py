"""The tally of the real fixture thread of each captured engine, post by post as its README lists them
(tests/fixtures/forums/<engine>/README.md: the same 13 posts on phpBB, MyBB, SMF and FluxBB)."""
from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from forumgm.engines.tally import VotePostVersion, VoteRules, count_votes
from forumgm.parsers.colors import normalize_color
from forumgm.parsers.forums import ENGINES
from forumgm.parsers.names import Roster
from forum_parser_fixtures import CAPTURED, page

PAGES = ("thread_page1", "thread_page2", "thread_page3_last")
PLAYERS = ("Аскон", "gosha100", "Robozik", "Ильмаринен", "Кума", "Гладиатор")
ROSTER = Roster(PLAYERS)
RULES = VoteRules(colors=frozenset({normalize_color("blue")}), voters=frozenset(PLAYERS),
                  candidates=frozenset(PLAYERS))
AFTER_ALL = datetime(2026, 11, 30, 5, 0, tzinfo=timezone.utc)
EDITED = 1   # Аскон's post: gosha100 edited into Robozik


def thread(engine):
    """Every post as shown, plus the edited post as it was before Аскон changed gosha100 into Robozik."""
    posts = [p for name in PAGES for p in ENGINES[engine].posts(page(engine, name), "UTC", CAPTURED)]
    edited = posts[EDITED]
    original = VotePostVersion.of_post(edited, edited.posted_at)
    original = replace(original, colored=(replace(original.colored[0], text="gosha100"),))
    return posts, [original] + [VotePostVersion.of_post(p) for p in posts]


@pytest.mark.parametrize("engine", ["phpbb", "mybb", "smf", "fluxbb"])
def test_every_post_counts_as_its_readme_says(engine):
    posts, versions = thread(engine)
    tally = count_votes(versions, ROSTER, RULES, AFTER_ALL)
    post = [p.id for p in posts]
    assert {v.voter: (v.target, v.post_id) for v in tally.counted} == {
        "Аскон": ("Robozik", post[1]),        # the edit before the deadline stands
        "gosha100": ("Robozik", post[2]),
        "Robozik": ("gosha100", post[10]),    # hex blue, the last of his two votes
        "Гладиатор": ("Кума", post[6]),       # the spoiler text beside it holds no colour
        "Ильмаринен": ("Кума", post[7]),
        "Кума": ("Гладиатор", post[8]),       # her red "Ильмаринен" (post[5]) is no vote
    }
    assert [(d.voter, d.text, d.reason, d.post_id, d.detail) for d in tally.discarded] == [
        ("Ведущий", "ник", "non_player", post[0], ""),      # the host's template in the opening post
        ("Robozik", "Robozik", "quoted", post[3], ""),      # gosha100's vote, quoted
        ("Кума", "Кума", "quoted", post[8], ""),            # Гладиатор's vote, quoted
        ("Robozik", "gosha100", "repeated", post[3], "gosha100"),
    ]


@pytest.mark.parametrize("engine", ["phpbb", "fluxbb"])   # MyBB and SMF show the edit in the posting minute
def test_the_edit_after_the_deadline_does_not_count(engine):
    posts, versions = thread(engine)
    edited = posts[EDITED]
    deadline = edited.posted_at + (edited.edited_at - edited.posted_at) / 2
    tally = count_votes(versions, ROSTER, RULES, deadline)
    assert next(v.target for v in tally.counted if v.voter == "Аскон") == "gosha100"
    late = [(d.voter, d.post_id) for d in tally.discarded if d.reason == "after_deadline"]
    assert ("Аскон", edited.id) in late
    assert all((p.author, p.id) in late for p in posts
               if p.posted_at > deadline and p.colored and p.colored[0].color == "#0000ff")
    assert all(v.at <= deadline for v in tally.counted)


@pytest.mark.parametrize("engine", ["phpbb", "mybb", "smf", "fluxbb"])
def test_a_vote_shown_at_the_deadline_itself_is_late(engine):
    """A deadline is the first moment that is too late, as for an order PM (tick/flow.py, tick/late.py). MyBB and
    SMF show the minute only: a post shown «04:29» was made from 04:29:00 to 04:29:59, and with a
    04:29 deadline it was counted, a whole minute late; a PM of the same second was refused as late."""
    posts, versions = thread(engine)
    deadline = posts[8].posted_at          # Кума's vote for Гладиатор
    tally = count_votes(versions, ROSTER, RULES, deadline)
    late = [(d.voter, d.post_id) for d in tally.discarded if d.reason == "after_deadline"]
    assert ("Кума", posts[8].id) in late and "Кума" not in {v.voter for v in tally.counted}
    assert all(v.at < deadline for v in tally.counted)
    just_before = count_votes(versions, ROSTER, RULES, deadline - timedelta(microseconds=1))
    assert tally.counted == just_before.counted       # the deadline's own moment adds no vote
