"""The board's clock bounded by the posts it shows first (daemon/forum/board_time.py), on a board whose
answers carry no Date: only a post newer than everything a last page showed before bounds it."""
from datetime import datetime, timedelta, timezone

from forumgm.daemon.forum.board_time import ShownPosts
from forumgm.parsers.forums.base import PageInfo, Post

AT = datetime(2026, 3, 3, 7, 0, tzinfo=timezone.utc)
LAST = PageInfo(2, 2)
URL = "viewtopic.php?t=2&start=5"


class Clock:
    def __init__(self):
        self.seconds = 1000.0

    def __call__(self):
        return self.seconds


def post(post_id: int, minutes: int, hidden: bool = False) -> Post:
    return Post(str(post_id), "Аскон", None, AT + timedelta(minutes=minutes), hidden=hidden)


def test_a_post_newer_than_the_last_read_bounds_the_board_clock_which_runs_on_the_client_clock():
    clock = Clock()
    shown = ShownPosts(clock)
    shown.saw_thread(URL, clock(), LAST, [post(6, 0)])
    assert shown.board_at_most() is None            # one read proves nothing
    clock.seconds += 600
    shown.saw_thread(URL, clock(), LAST, [post(6, 0), post(7, 5)])
    bound = shown.board_at_most()
    # written after the read 600 s ago, dated 07:05 (to the minute): then the board said 07:06 at most
    assert bound == AT + timedelta(minutes=6) + timedelta(seconds=600)
    assert "post 7" in bound.why
    clock.seconds += 60
    assert shown.board_at_most() == bound + timedelta(seconds=60)


def test_a_post_shown_late_with_an_older_id_a_hidden_one_or_a_page_not_the_last_bounds_nothing():
    """A post approved after newer ones were shown keeps its id below theirs; a moderator's view of a
    hidden post, or a page before the last (a deletion shifts older posts onto it), tells nothing."""
    clock = Clock()
    shown = ShownPosts(clock)
    shown.saw_thread(URL, clock(), LAST, [post(6, 0), post(8, 10)])
    clock.seconds += 600
    shown.saw_thread(URL, clock(), LAST, [post(6, 0), post(7, -50), post(8, 10), post(9, 5, hidden=True)])
    assert shown.board_at_most() is None
    other = ShownPosts(clock)
    other.saw_thread("viewtopic.php?t=2", clock(), PageInfo(1, 2), [post(1, 0)])
    clock.seconds += 600
    other.saw_thread("viewtopic.php?t=2", clock(), PageInfo(1, 2), [post(1, 0), post(9, 5)])
    assert other.board_at_most() is None
