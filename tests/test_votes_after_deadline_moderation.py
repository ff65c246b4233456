"""What a moderator (or the thread's own posters) do to vote posts around a deadline, read from the
local forum over HTTP: a vote is counted as it stood at the deadline, as far as the pages read
before it show (and the board's own dates prove), whenever forumgm notices the change."""
from __future__ import annotations

from datetime import timedelta

import pytest

from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.tick.sync import accept_thread, sync_game
from forumgm.daemon.tick.votes import vote_versions
from forumgm.engines.tally import VoteRules, count_votes
from forumgm.parsers.names import Roster
from localforum_support import HOST, PLAYERS, game_store, host_forum, seeded_board

RULES = VoteRules(colors=frozenset({"#0000ff"}), voters=frozenset(PLAYERS), candidates=frozenset(PLAYERS))


@pytest.fixture
def server(clock):
    with LocalForum(seeded_board(clock, replies=11)) as running:   # 12 posts: pages of 5, 5, 2
        yield running


@pytest.fixture
def store(tmp_path, server, clock):
    return game_store(tmp_path, server, clock)


@pytest.fixture
def forum(server, clock):
    return host_forum(server, clock)


def sync(store, forum, clock):
    return sync_game(store.game("g1"), forum, store, clock.now(), edit_window=timedelta(0))


def tally(store, deadline):
    return count_votes(vote_versions(store, "g1", None, deadline, HOST), Roster(PLAYERS), RULES, deadline)


def targets(store, deadline) -> dict[str, str]:
    return {vote.voter: vote.target for vote in tally(store, deadline).counted}


def kumas_vote(server, clock):
    post = server.board.reply("Кума", 2, "Голосую за [color=blue]gosha100[/color]")
    clock.sleep(60)
    return post


def test_a_vote_seen_deleted_before_the_deadline_is_gone_when_the_host_accepts_the_thread_after_it(
        store, forum, server, clock):
    """Six players' posts went at once (more than anyone deletes by hand): the sync that saw them
    gone, before the deadline, stopped. The host accepts the thread after the deadline: the pages
    read before it proved the vote gone, and it is not counted."""
    vote = kumas_vote(server, clock)
    assert sync(store, forum, clock).ok
    deadline = clock.now() + timedelta(minutes=10)
    for post in server.board.visible_posts(2)[-6:]:
        server.board.delete_post(post.id)
    clock.sleep(60)
    assert not sync(store, forum, clock).ok
    clock.moment = deadline + timedelta(minutes=5)
    accept_thread(store, "g1", "host")
    report = sync(store, forum, clock)
    assert report.ok and str(vote.id) in report.deleted_posts
    [row] = [r for r in store.posts("g1") if r["post_id"] == str(vote.id)]
    assert row["deleted_at"] < deadline
    assert targets(store, deadline)["Кума"] == "Аскон"      # her vote before it (seeded_board) stands


def test_posts_shown_again_are_no_longer_proven_gone(store, forum, server, clock):
    """A read before the deadline missed six posts (a page read wrong), the next showed them again;
    a moderator removed them after the deadline: the vote stood at the deadline."""
    vote = kumas_vote(server, clock)
    assert sync(store, forum, clock).ok
    deadline = clock.now() + timedelta(minutes=10)
    gone = server.board.visible_posts(2)[-6:]
    for post in gone:
        server.board.delete_post(post.id)
    assert not sync(store, forum, clock).ok
    for post in gone:
        server.board.posts[post.id].deleted = False
    assert sync(store, forum, clock).ok
    clock.moment = deadline + timedelta(minutes=5)
    for post in gone:
        server.board.delete_post(post.id)
    assert not sync(store, forum, clock).ok
    accept_thread(store, "g1", "host")
    assert sync(store, forum, clock).ok
    [row] = [r for r in store.posts("g1") if r["post_id"] == str(vote.id)]
    assert row["deleted_at"] > deadline
    assert targets(store, deadline)["Кума"] == "gosha100"


def test_a_soft_delete_after_the_deadline_changes_nothing(store, forum, server, clock):
    vote = kumas_vote(server, clock)
    assert sync(store, forum, clock).ok
    deadline = clock.now() + timedelta(minutes=1)
    clock.moment = deadline + timedelta(seconds=30)
    server.board.soft_delete_post(vote.id)
    assert sync(store, forum, clock).ok
    assert str(vote.id) in store.hidden_post_ids("g1")
    assert targets(store, deadline)["Кума"] == "gosha100"
    assert "hidden_post" not in {v.reason for v in tally(store, deadline).discarded}


def test_a_soft_delete_seen_before_the_deadline_takes_the_vote_and_a_restore_after_it_does_not_bring_it_back(
        store, forum, server, clock):
    vote = kumas_vote(server, clock)
    assert sync(store, forum, clock).ok
    server.board.soft_delete_post(vote.id)
    clock.sleep(60)
    assert sync(store, forum, clock).ok
    deadline = clock.now() + timedelta(minutes=1)
    clock.moment = deadline + timedelta(seconds=30)
    server.board.posts[vote.id].soft_deleted = False
    assert sync(store, forum, clock).ok
    assert targets(store, deadline)["Кума"] == "Аскон"      # her vote before it (seeded_board)
    assert [(v.voter, v.text, v.reason) for v in tally(store, deadline).discarded
            if v.reason == "hidden_post"] == [("Кума", "gosha100", "hidden_post")]
