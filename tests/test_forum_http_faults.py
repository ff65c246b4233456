"""Forum faults through a real HTTP proxy (fault_proxy.py) between forumgm and the local forum.

GETs: 5xx, resets, truncated bodies and timeouts are retried; past the retries the game's sync
fails with a message (a visible sync problem), never with a traceback out of the tick. POSTs:
whatever goes wrong, the board never receives the same message twice.
"""
import pytest

from forumgm.daemon.forum import open_forum
from forumgm.daemon.localforum import LocalForum
from forumgm.daemon.store import Store
from forumgm.daemon.sync import sync_game
from fault_proxy import FaultProxy
from localforum_support import HOST, PLAYERS, FakeClock, seeded_board

RETRIES = 2


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def board(clock):
    return seeded_board(clock, replies=11)      # 12 posts: pages of 5, 5, 2


@pytest.fixture
def proxy(board):
    with LocalForum(board) as server, FaultProxy(server.url) as running:
        yield running


@pytest.fixture
def forum(proxy, clock):
    config = {"engine": "phpbb", "base_url": proxy.url, "username": HOST, "posts_per_page": 5,
              "timeout": 0.3, "retries": RETRIES}
    return open_forum(config, "host-secret", clock=clock.monotonic, sleep=clock.sleep)


@pytest.fixture
def store(tmp_path, proxy, clock):
    store = Store(tmp_path / "forumgm.sqlite", now=clock.now)
    store.register_forum("local", "phpbb", proxy.url, HOST)
    store.register_game("g1", "mafia", "local", proxy.url + "viewtopic.php?t=2", "UTC", 1,
                        {nick: [] for nick in PLAYERS})
    return store


def live_posts(store):
    return sorted(row["post_id"] for row in store.posts("g1") if not row["deleted_at"])


@pytest.mark.parametrize("kind, details", [
    ("status", {"status": 502}), ("status", {"status": 503}), ("reset", {}), ("truncate", {}),
    ("delay", {"seconds": 0.5}),
])
def test_a_get_fault_is_retried_and_the_sync_reads_everything(store, forum, proxy, clock, kind, details):
    proxy.inject("GET", "viewtopic.php", kind, times=RETRIES, **details)
    report = sync_game(store.game("g1"), forum, store, clock.now())
    assert report.ok, report.error
    assert len(proxy.injected) == RETRIES
    assert len(live_posts(store)) == 12


@pytest.mark.parametrize("kind", ["truncate", "reset", "status"])
def test_a_fault_past_the_retries_is_a_sync_problem_and_nothing_is_deleted(store, forum, proxy, clock, kind):
    assert sync_game(store.game("g1"), forum, store, clock.now()).ok
    before = live_posts(store)
    proxy.inject("GET", "viewtopic.php", kind, times=RETRIES + 1)
    report = sync_game(store.game("g1"), forum, store, clock.now())
    assert not report.ok and "the forum did not answer for game g1" in report.error
    assert "Traceback" not in report.error
    assert live_posts(store) == before


def test_a_truncated_inbox_page_is_retried(store, forum, proxy, board, clock):
    from forumgm.daemon.sync import sync_inbox
    board.send_pm("Аскон", HOST, "Ночь", "проверить Кума")
    proxy.inject("GET", "folder=inbox", "truncate")
    report = sync_inbox("local", forum, store, clock.now())
    assert report.ok, report.error
    assert report.new_pms and proxy.injected


@pytest.mark.parametrize("kind", ["reset", "truncate", "delay"])
def test_a_reply_whose_answer_is_lost_is_never_posted_twice(store, forum, proxy, board, clock, kind):
    from forumgm.daemon.forum import ForumError
    proxy.inject("POST", "posting.php", kind, seconds=0.5)
    try:
        forum.reply(proxy.url + "viewtopic.php?t=2", "Итоги ночи 1")
    except ForumError:
        pass       # the answer was lost: publishing reconciles it (find_own_post) before any new try
    proxy.settle()
    assert proxy.injected
    assert max(proxy.posted.values()) == 1
    assert sum(post.bbcode == "Итоги ночи 1" for post in board.posts.values()) == 1
