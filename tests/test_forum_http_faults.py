"""Forum faults through a real HTTP proxy (fault_proxy.py) between forumgm and the local forum.

GETs: 5xx, resets, truncated bodies and timeouts are retried; past the retries the game's sync
fails with a message (a visible sync problem), never with a traceback out of the tick. POSTs:
whatever goes wrong, the board never receives the same message twice.
"""
import re
from datetime import timedelta

import pytest

from forumgm.daemon.forum import open_forum
from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.store import Store
from forumgm.daemon.tick.sync import sync_game
from fault_proxy import FaultProxy
from localforum_support import HOST, PLAYERS, seeded_board

RETRIES = 2
# the client's timeout: a stalled answer (fault_proxy's "stall") lasts until the client gives up,
# so this only needs to be far longer than a local request takes on a loaded machine
TIMEOUT = 1.0


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
              "timeout": TIMEOUT, "retries": RETRIES}
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
    ("stall", {}),
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
    from forumgm.daemon.tick.sync import sync_inbox
    board.send_pm("Аскон", HOST, "Ночь", "проверить Кума")
    proxy.inject("GET", "folder=inbox", "truncate")
    report = sync_inbox("local", forum, store, clock.now())
    assert report.ok, report.error
    assert report.new_pms and proxy.injected


@pytest.mark.parametrize("kind", ["status", "reset", "truncate", "stall"])     # status: 502 after posting
def test_a_reply_whose_answer_is_lost_is_never_posted_twice(store, forum, proxy, board, clock, kind):
    from forumgm.daemon.forum import ForumError
    proxy.inject("POST", "posting.php", kind)
    try:
        forum.reply(proxy.url + "viewtopic.php?t=2", "Итоги ночи 1")
    except ForumError:
        pass       # the answer was lost: publishing reconciles it (find_own_post) before any new try
    proxy.settle()
    assert proxy.injected
    assert max(proxy.posted.values()) == 1
    assert sum(post.bbcode == "Итоги ночи 1" for post in board.posts.values()) == 1


# ---------------------------------------------------------------- pages that disagree with the store

def without_pagination(html: str) -> str:
    """The theme lost its page list: a parser reads any such page as page 1 of 1."""
    return re.sub(r'<div class="pagination">.*?</div>', "", html, flags=re.S)


def test_a_page_without_its_page_list_is_a_sync_problem_not_a_one_page_thread(store, forum, proxy, clock):
    assert sync_game(store.game("g1"), forum, store, clock.now()).ok
    before, cursor = live_posts(store), store.thread_cursor("g1")
    for _ in range(2):      # the last known page, then page 1 on the tick after: neither is taken as fact
        proxy.inject("GET", "viewtopic.php", "rewrite", times=5, edit=without_pagination)
        report = sync_game(store.game("g1"), forum, store, clock.now())
        assert not report.ok and "the game waits for the host" in report.error
        assert "players' posts are gone at once" in report.error
        assert live_posts(store) == before and store.thread_cursor("g1") == cursor
        proxy.faults.clear()
    assert sync_game(store.game("g1"), forum, store, clock.now()).ok


def test_fewer_pages_than_the_store_knows_without_their_posts_deleted_is_a_sync_problem(store, forum, proxy, clock):
    """A page that says the thread has one page where three were read: its later posts would all
    be gone, more than anyone deletes by hand."""
    assert sync_game(store.game("g1"), forum, store, clock.now()).ok
    before = live_posts(store)
    page_one = forum.client.get(proxy.url + "viewtopic.php?t=2").text     # page 1 of 3, its page list cut to 1
    one_page = re.sub(r'<div class="pagination">.*?</div>', '<div class="pagination">12 posts '
                      '&bull; Page <strong>1</strong> of <strong>1</strong></div>', page_one, flags=re.S)
    store.set_thread_cursor("g1", last_page=1)
    proxy.inject("GET", "viewtopic.php", "rewrite", times=5, edit=lambda html: one_page)
    report = sync_game(store.game("g1"), forum, store, clock.now())
    assert not report.ok and "7 players' posts are gone at once" in report.error
    assert live_posts(store) == before and store.thread_cursor("g1")["pages"] == 3


def test_posts_vanishing_en_masse_is_a_sync_problem(store, forum, proxy, board, clock):
    assert sync_game(store.game("g1"), forum, store, clock.now()).ok
    before = live_posts(store)
    for post in board.visible_posts(2)[-7:-1]:
        board.delete_post(post.id)
    for n in range(6):              # as many new ones: the thread keeps its three pages
        board.reply(PLAYERS[n % 4], 2, f"новый пост {n}")
    # a deadline in half a minute: the pages of the last hour are read again, and show them gone
    store.ensure_phase("g1", "day-1", "day", 1, None, clock.now() + timedelta(seconds=30))
    report = sync_game(store.game("g1"), forum, store, clock.now())
    assert not report.ok and "6 players' posts are gone at once" in report.error
    assert "the game waits for the host" in report.error
    assert set(before) <= set(live_posts(store))     # the new posts are read, nothing is marked deleted


def test_every_known_post_of_a_page_gone_is_a_sync_problem(store, forum, proxy, board, clock):
    assert sync_game(store.game("g1"), forum, store, clock.now()).ok
    before = live_posts(store)
    last_page = board.visible_posts(2)[-2:]
    for post in last_page:
        board.delete_post(post.id)
    board.reply("Кума", 2, "новый пост")
    board.reply("Кума", 2, "ещё один")
    report = sync_game(store.game("g1"), forum, store, clock.now())
    assert not report.ok and "all 2 posts known on page 3 are gone" in report.error
    assert set(before) <= set(live_posts(store))


def test_a_non_player_deleting_all_his_posts_at_once_stops_nothing(store, forum, proxy, board, clock):
    """A member who is no player (or a spammer a moderator cleans up) removes eight posts, two whole
    pages of them: his posts are his to delete, the game reads on and records when they went."""
    board.add_user("Гость", "guest-pw")
    spam = [board.reply("Гость", 2, f"реклама {n}").id for n in range(8)]
    assert sync_game(store.game("g1"), forum, store, clock.now()).ok
    for post_id in spam:
        board.delete_post(post_id)
    clock.sleep(60)
    report = sync_game(store.game("g1"), forum, store, clock.now())
    assert report.ok, report.error
    assert report.deleted_posts == [str(post_id) for post_id in spam]
    assert store.thread_cursor("g1")["pages"] == 3
    gone = {row["post_id"]: row["deleted_at"] for row in store.posts("g1") if row["deleted_at"]}
    assert set(gone) == {str(post_id) for post_id in spam} and min(gone.values()) > clock.now() - timedelta(seconds=60)


def test_players_posts_gone_with_a_non_players_still_count_as_many(store, forum, proxy, board, clock):
    board.add_user("Гость", "guest-pw")
    board.reply("Гость", 2, "реклама")
    assert sync_game(store.game("g1"), forum, store, clock.now()).ok
    for post in board.visible_posts(2)[-7:]:
        board.delete_post(post.id)
    report = sync_game(store.game("g1"), forum, store, clock.now())
    assert not report.ok and "6 players' posts are gone at once" in report.error


def test_the_host_accepts_a_thread_that_really_lost_posts(store, forum, proxy, board, clock):
    from forumgm.daemon.tick.sync import accept_thread
    assert sync_game(store.game("g1"), forum, store, clock.now()).ok
    gone = [str(post.id) for post in board.visible_posts(2)[-7:-1]]
    for post_id in gone:
        board.delete_post(int(post_id))
    assert not sync_game(store.game("g1"), forum, store, clock.now()).ok
    accept_thread(store, "g1", "host")
    report = sync_game(store.game("g1"), forum, store, clock.now())
    assert report.ok and sorted(report.deleted_posts) == sorted(gone)
    assert len(live_posts(store)) == 6 and store.thread_cursor("g1")["pages"] == 2
    assert store.audit_log()[0]["action"] == "thread.accept"


@pytest.mark.parametrize("kind", ["status", "reset", "truncate"])
def test_publishing_after_a_lost_answer_posts_once(store, forum, proxy, board, clock, kind):
    """The board carried the reply out and its answer was lost: the next ticks find it, never re-post it."""
    from forumgm.daemon.drafts.publish import publish_approved
    draft = store.insert_draft("g1", "vote_count", "thread", "Подсчёт голосов: Аскон — 2", "day-1", False)
    proxy.inject("POST", "posting.php", kind)
    for _ in range(3):
        publish_approved(forum, store, clock.now())
        clock.sleep(60)
    proxy.settle()
    assert max(proxy.posted.values()) == 1
    assert sum(post.bbcode.startswith("Подсчёт голосов: Аскон — 2") for post in board.posts.values()) == 1
    assert store.draft(draft)["status"] == "sent"


def pm_notifier_with_an_event(store):
    """A notifier telling the host by PM (to a player's account here), and a draft waiting for him."""
    from forumgm.config import load_texts
    from forumgm.daemon.settings.notify import NotifyConfig
    from forumgm.daemon.notify.notifier import Notifier
    store.insert_draft("g1", "result", PLAYERS[1], "Итог", "r1", True, subject="Итог")
    return Notifier(NotifyConfig(channels=("pm",), pm_to=PLAYERS[0]), "", load_texts(), "local")


def notices(board):
    return [pm for pm in board.pms.values() if board.users[pm.recipient_id].name == PLAYERS[0]]


@pytest.mark.parametrize("kind", ["status", "reset", "truncate"])
def test_a_notice_pm_whose_answer_is_lost_is_found_in_the_sent_folder_and_never_sent_twice(
        store, forum, proxy, board, clock, kind):
    """The board took the host's notice PM and its answer was lost: the notice is found in the
    account's sent folder, told once, its copy recorded; it used to count as failed and go again at
    the next tick, so the host got it twice."""
    notifier = pm_notifier_with_an_event(store)
    proxy.inject("POST", "mode=compose", "delay", seconds=0)   # passed on: phpBB's form adds the recipient first
    proxy.inject("POST", "mode=compose", kind)                 # the PM itself
    assert len(notifier.run(store, forum, [], clock.now())) == 1
    proxy.settle()
    clock.sleep(notifier.config.quiet.total_seconds() + 60)
    assert notifier.run(store, forum, [], clock.now()) == []
    [notice] = notices(board)
    assert proxy.injected and store.sent_copies("local", None, 10) == [str(notice.id)]


def test_a_notice_pm_the_board_failed_before_taking_goes_again_at_the_next_tick(
        store, forum, proxy, board, clock, monkeypatch):
    """The board fails with a 5xx before taking the PM, so the sent folder holds none: the notice
    is not told, and the next tick sends it, once."""
    notifier = pm_notifier_with_an_event(store)
    send = board.send_pm

    def fails_once(*args, **kwargs):
        monkeypatch.setattr(board, "send_pm", send)
        raise RuntimeError("the board's database went away")
    monkeypatch.setattr(board, "send_pm", fails_once)
    assert notifier.run(store, forum, [], clock.now()) == []
    assert notifier.run(store, forum, [], clock.now()) != []
    assert len(notices(board)) == 1


# ---------------------------------------------------------------- pages cut short without an error

def before_post(post_id: int):
    """A cut point between two posts: just before post `post_id`'s container."""
    return lambda body: body.index(f'<div id="p{post_id}"'.encode())


def test_a_page_cut_between_posts_without_an_error_is_read_again_not_taken_as_whole(store, forum, proxy, board,
                                                                                   clock):
    """A close-delimited answer that ends between two posts parses as a page with fewer posts: at a
    deadline the votes after the cut would be lost (a 2:2 tie counted 2:0)."""
    assert sync_game(store.game("g1"), forum, store, clock.now()).ok
    late = [board.reply(nick, 2, f"Голосую за [color=blue]Аскон[/color] {n}") for n, nick in enumerate(PLAYERS[1:3])]
    proxy.inject("GET", "viewtopic.php", "cut", cut=before_post(late[0].id))
    report = sync_game(store.game("g1"), forum, store, clock.now())
    assert report.ok, report.error
    assert proxy.injected and proxy.injected[0].kind == "cut"
    assert {str(post.id) for post in late} <= set(live_posts(store))
    assert len(live_posts(store)) == 14


def test_a_page_cut_short_every_time_is_a_sync_problem_and_nothing_of_it_is_taken(store, forum, proxy, board, clock):
    assert sync_game(store.game("g1"), forum, store, clock.now()).ok
    before, cursor = live_posts(store), store.thread_cursor("g1")
    new = board.reply("Кума", 2, "Голосую за [color=blue]Аскон[/color]")
    proxy.inject("GET", "viewtopic.php", "cut", times=RETRIES + 1, cut=before_post(new.id))
    report = sync_game(store.game("g1"), forum, store, clock.now())
    assert not report.ok and "the forum did not answer for game g1" in report.error
    assert "cut short" in report.error
    assert live_posts(store) == before and store.thread_cursor("g1") == cursor


def test_an_order_pm_cut_inside_its_text_is_read_again_and_stored_whole(store, forum, proxy, board, clock):
    from forumgm.daemon.tick.sync import sync_inbox
    text = "Атака 5 Кума\nЗащита 3\nШпионаж Robozik"
    pm = board.send_pm("Аскон", HOST, "Ночь 1", text)
    proxy.inject("GET", f"mode=view&p={pm.id}", "cut", cut=lambda body: body.index("Защита".encode()))
    report = sync_inbox("local", forum, store, clock.now())
    assert report.ok, report.error
    assert proxy.injected and proxy.injected[0].kind == "cut"
    [stored] = store.pms("local")
    assert "Шпионаж Robozik" in stored["text"]


# ---------------------------------------------------------------- a lost reply looked for on a disturbed read

def host_copies(board, text):
    return sum(post.bbcode == text for post in board.posts.values() if not post.deleted)


@pytest.mark.parametrize("disturbance", ["page list gone", "last page cut before the post"])
def test_a_lost_reply_looked_for_on_a_disturbed_read_is_not_taken_for_unsent(store, forum, proxy, board, clock,
                                                                           disturbance):
    """The reply went, its answer was lost; the read that looks for it shows page 1 without its page
    list (read as the only page), or the last page cut just before the reply: "not there" would
    post it again. The draft waits, visibly, and the next publishing finds it."""
    from forumgm.daemon.drafts.publish import publish_approved
    assert sync_game(store.game("g1"), forum, store, clock.now()).ok        # 3 pages known
    text = "Итоги ночи 1: никто не погиб"
    draft = store.insert_draft("g1", "report", "thread", text, "n1", False)
    proxy.inject("POST", "posting.php", "reset")
    assert not publish_approved(forum, store, clock.now()).ok
    proxy.settle()
    assert store.draft(draft)["status"] == "sending" and host_copies(board, text) == 1
    [reply] = [post for post in board.posts.values() if post.bbcode == text]
    if disturbance == "page list gone":
        proxy.inject("GET", "viewtopic.php", "rewrite", times=10, edit=without_pagination)
    else:
        proxy.inject("GET", "viewtopic.php?t=2&start=10", "cut", times=10, cut=before_post(reply.id))
    disturbed = publish_approved(forum, store, clock.now())
    proxy.settle()
    assert host_copies(board, text) == 1 and draft not in disturbed.sent
    assert store.draft(draft)["status"] == "sending" and store.draft(draft)["send_error"]
    proxy.faults.clear()
    clock.sleep(60)
    calm = publish_approved(forum, store, clock.now())
    assert calm.reconciled == {draft: str(reply.id)} and host_copies(board, text) == 1
    assert store.draft(draft)["status"] == "sent"


def pm_copies(board, text):
    return sum(pm.bbcode == text for pm in board.pms.values())


def test_a_lost_pm_looked_for_in_a_sent_folder_without_its_page_list_is_not_taken_for_unsent(
        store, forum, proxy, board, clock):
    """The receipt went, its answer was lost, and 25 PMs went after it (a rush of receipts): it is on
    the outbox's page 2. The read that looks for it shows the outbox without its page list, read as
    a folder of one page: "not there" would send it again. The draft waits, visibly, and the next
    publishing finds it."""
    from forumgm.daemon.drafts.publish import publish_approved
    text = "Приказ принят: Атака 5 Кума"
    draft = store.insert_draft("g1", "receipt", PLAYERS[1], text, "n1", False, subject="Re: Ночь 1")
    proxy.inject("POST", "mode=compose", "delay", seconds=0)   # passed on: phpBB's form adds the recipient first
    proxy.inject("POST", "mode=compose", "reset")              # the PM itself
    assert not publish_approved(forum, store, clock.now()).ok
    proxy.settle()
    assert store.draft(draft)["status"] == "sending" and pm_copies(board, text) == 1
    [lost] = [pm for pm in board.pms.values() if pm.bbcode == text]
    for n in range(25):
        board.send_pm(HOST, PLAYERS[2], "Re: Ночь 1", f"Приказ принят: Защита {n}")
    proxy.inject("GET", "folder=outbox", "rewrite", times=10, edit=without_pagination)
    disturbed = publish_approved(forum, store, clock.now())
    proxy.settle()
    assert proxy.injected and pm_copies(board, text) == 1 and draft not in disturbed.sent
    assert store.draft(draft)["status"] == "sending" and "page list" in store.draft(draft)["send_error"]
    proxy.faults.clear()
    clock.sleep(60)
    calm = publish_approved(forum, store, clock.now())
    assert calm.reconciled == {draft: str(lost.id)} and pm_copies(board, text) == 1
    assert store.draft(draft)["status"] == "sent"
