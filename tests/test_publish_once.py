"""Approved drafts reach the local forum exactly once, including after a crash mid-send."""
import time

import pytest

from forumgm.daemon.forum import ForumError, open_forum
from forumgm.daemon.forum.errors import Unreachable
from forumgm.parsers.forums.base import PageLayoutError
from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.drafts.publish import publish_approved
from forumgm.daemon.runtime.loop import StopFlag
from localforum_support import HOST, game_store, host_forum, seeded_board


@pytest.fixture
def server(clock):
    with LocalForum(seeded_board(clock, replies=3)) as running:
        yield running


@pytest.fixture
def store(tmp_path, server, clock):
    return game_store(tmp_path, server, clock)


def host_posts(server):
    return [p for p in server.board.visible_posts(2) if server.board.users[p.author_id].admin]


def test_only_approved_drafts_are_published_exactly_as_written(store, server, clock):
    thread = store.insert_draft("g1", "vote_count", "thread", "Итоги: [color=blue]Кума[/color] — 2", "d1", True)
    pending = store.insert_draft("g1", "lynch_report", "thread", "Не одобрено", "d1", True)
    pm = store.insert_draft("g1", "receipt", "Аскон", "Принято: Атака 5 → Кума", "n1", False, subject="Квитанция")
    store.approve(thread, by="host")
    report = publish_approved(host_forum(server, clock), store, clock.now())
    assert report.ok and set(report.sent) == {thread, pm}
    post = host_posts(server)[-1]
    assert post.bbcode == "Итоги: [color=blue]Кума[/color] — 2"      # nothing hidden added
    assert store.draft(thread)["status"] == "sent" and store.draft(thread)["forum_ref"] == str(post.id)
    sent_pm = server.board.pms[int(store.draft(pm)["forum_ref"])]
    assert (sent_pm.subject, server.board.users[sent_pm.recipient_id].name) == ("Квитанция", "Аскон")
    assert store.draft(pending)["status"] == "pending"


def test_drafts_published_after_a_sigterm_still_wait_out_the_boards_pauses_and_go_once(store, server, clock):
    """A SIGTERM lets the tick finish, and wakes the client's sleeps at once (`forumgm run` gives it
    the stop flag's wait): a form went in the second it was fetched, the board refused it twice, and
    every draft left in the tick went back to the host as refused, receipts too (found by killing a
    real daemon: bench/probe.py kills)."""
    stop = StopFlag()
    stop.set()
    server.board.form_clock = time.time     # the board times its forms in real seconds, as the client waits
    config = {"engine": "phpbb", "base_url": server.url, "username": HOST, "posts_per_page": 5, "min_interval": 0.1}
    forum = open_forum(config, "host-secret", sleep=stop.wait, stopping=lambda: stop.stopped)
    post = store.insert_draft("g1", "vote_count", "thread", "Итоги дня", "d1", False)
    receipt = store.insert_draft("g1", "receipt", "Аскон", "Принято: Атака 5 → Кума", "n1", False,
                                 subject="Квитанция")
    report = publish_approved(forum, store, clock.now())
    assert set(report.sent) == {post, receipt} and report.refused == {}
    assert [p.bbcode for p in host_posts(server)].count("Итоги дня") == 1
    assert [m.bbcode for m in server.board.pms.values()].count("Принято: Атака 5 → Кума") == 1


def test_publishing_twice_posts_once(store, server, clock):
    draft = store.insert_draft("g1", "vote_count", "thread", "Итоги", "d1", False)
    forum = host_forum(server, clock)
    publish_approved(forum, store, clock.now())
    again = publish_approved(forum, store, clock.now())
    assert again.sent == {} and again.reconciled == {}
    assert [p.bbcode for p in host_posts(server)].count("Итоги") == 1


class LostAnswer:
    """The forum carries out the request, then the answer is lost (the daemon dies mid-send)."""

    def __init__(self, forum):
        self.forum = forum

    def reply(self, url, bbcode, attachments=()):
        self.forum.reply(url, bbcode, attachments)
        raise ForumError("connection reset")

    def send_pm(self, to, subject, bbcode):
        self.forum.send_pm(to, subject, bbcode)
        raise ForumError("connection reset")

    def __getattr__(self, name):
        return getattr(self.forum, name)


# the deal's commitment post: a board writes its "Code: Select all" inside the text, before each block
COMMITMENT = ("[b]Жребий игры запечатан[/b]\n\nОтпечаток SHA-256:\n\n[code]409f6e4d5fbd91fa[/code]\n\nПроверка:\n\n"
              "[code]forumgm verify g1.json --commitment 409f6e4d5fbd91fa[/code]\n\nЗерно раскроем в конце.")


@pytest.mark.parametrize("target, body", [("thread", "Отчёт за ночь"), ("Кума", "Отчёт за ночь"),
                                          ("thread", COMMITMENT), ("Кума", "[quote=Кума]Атака 5[/quote] Принято.")],
                         ids=["post", "pm", "post with code blocks", "pm with a quote"])
def test_a_crash_between_sending_and_sent_is_reconciled_without_a_duplicate(store, server, clock, target, body):
    draft = store.insert_draft("g1", "report", target, body, "n1", False, subject="Отчёт")
    forum = host_forum(server, clock)
    crashed = publish_approved(LostAnswer(forum), store, clock.now())
    assert not crashed.ok and store.draft(draft)["status"] == "sending"
    recovered = publish_approved(forum, store, clock.now())
    assert recovered.sent == {} and draft in recovered.reconciled
    assert store.draft(draft)["status"] == "sent"
    on_forum = [p.bbcode for p in server.board.visible_posts(2)] + [m.bbcode for m in server.board.pms.values()]
    assert on_forum.count(body) == 1
    assert store.draft(draft)["forum_ref"] == recovered.reconciled[draft]


def test_a_report_with_its_map_lost_mid_send_is_found_by_its_words_and_posted_once(tmp_path, store, server, clock):
    """The board shows the map as a picture, not its address: the post is found by the report's words."""
    from forumgm.daemon.drafts.pictures import with_mark
    from localforum_support import PLAYERS, thread_url

    store.register_game("g1", "mafia", "local", thread_url(server), "UTC", 1, {nick: [] for nick in PLAYERS},
                        {"web_url": "https://gm.example.org/forumgm/"})
    picture = tmp_path / "map.png"
    picture.write_bytes(b"\x89PNG")
    draft = store.insert_draft("g1", "literary_report", "thread", with_mark("[b]375 год[/b]\nГунны идут на запад."),
                            "t1", False, pictures=[picture])
    forum = host_forum(server, clock)
    assert not publish_approved(LostAnswer(forum), store, clock.now()).ok
    recovered = publish_approved(forum, store, clock.now())
    assert recovered.sent == {} and draft in recovered.reconciled
    [post] = [p for p in host_posts(server) if "Гунны" in p.bbcode]
    assert post.bbcode.endswith(f"[img]https://gm.example.org/forumgm/maps/g1/{draft}/0[/img]\n")


def test_a_post_lost_mid_send_is_found_even_after_the_thread_grew_many_pages(store, server, clock):
    """The daemon was down long: players posted four pages after the host's report."""
    draft = store.insert_draft("g1", "report", "thread", "Итоги ночи", "n1", False)
    forum = host_forum(server, clock)
    assert not publish_approved(LostAnswer(forum), store, clock.now()).ok
    for n in range(20):
        clock.sleep(600)
        server.board.reply("Кума", 2, f"флуд {n}")
    recovered = publish_approved(forum, store, clock.now())
    assert recovered.sent == {} and draft in recovered.reconciled
    assert [p.bbcode for p in host_posts(server)].count("Итоги ночи") == 1


def test_a_draft_left_sending_before_the_request_is_sent_once(store, server, clock):
    draft = store.insert_draft("g1", "report", "thread", "Отчёт", "n1", False)
    store.mark_sending(draft, clock.now())       # the daemon died right after this
    report = publish_approved(host_forum(server, clock), store, clock.now())
    assert draft in report.sent and report.reconciled == {}
    assert [p.bbcode for p in host_posts(server)].count("Отчёт") == 1


@pytest.mark.parametrize("target", ["thread", "Кума"])
def test_the_same_text_sent_before_is_not_taken_for_a_lost_one(store, server, clock, target):
    """Reconciliation looks only after what the board showed before sending, at texts no other
    draft has claimed: yesterday's identical report does not make today's count as sent."""
    forum = host_forum(server, clock)
    earlier = store.insert_draft("g1", "report", target, "Ночь прошла спокойно", "n1", False, subject="Отчёт")
    assert earlier in publish_approved(forum, store, clock.now()).sent
    clock.sleep(600)
    lost = store.insert_draft("g1", "report", target, "Ночь прошла спокойно", "n2", False, subject="Отчёт")
    store.mark_sending(lost, clock.now(), after=_newest(server, target))   # died before the request
    report = publish_approved(forum, store, clock.now())
    assert lost in report.sent and report.reconciled == {}
    on_forum = [p.bbcode for p in host_posts(server)] + [m.bbcode for m in server.board.pms.values()]
    assert on_forum.count("Ночь прошла спокойно") == 2
    assert store.draft(lost)["forum_ref"] != store.draft(earlier)["forum_ref"]


def _newest(server, target) -> str:
    ids = [p.id for p in server.board.visible_posts(2)] if target == "thread" else list(server.board.pms)
    return str(max(ids))


def test_a_pm_lost_to_another_player_with_the_same_text_is_not_this_ones(store, server, clock):
    """The recipient is part of what is matched: the same receipt text to Кума is not Аскон's."""
    forum = host_forum(server, clock)
    to_kuma = store.insert_draft("g1", "receipt", "Кума", "Принято.", "n1", False, subject="Квитанция")
    to_askon = store.insert_draft("g1", "receipt", "Аскон", "Принято.", "n1", False, subject="Квитанция")
    crashed = publish_approved(LostAnswer(forum), store, clock.now())
    assert set(crashed.failed) == {to_kuma, to_askon}     # each sent, each answer lost
    server.board.pms.pop(max(server.board.pms))           # Аскон's never arrived after all
    recovered = publish_approved(forum, store, clock.now())
    assert to_kuma in recovered.reconciled and to_askon in recovered.sent
    recipients = sorted(server.board.users[m.recipient_id].name for m in server.board.pms.values())
    assert recipients == ["Аскон", "Кума"]


def test_a_draft_the_forum_refuses_goes_back_to_the_host_with_the_forums_message(store, server, clock):
    stranger = store.insert_draft("g1", "receipt", "Незнакомец", "Принято", "n1", False, subject="Квитанция")
    thread = store.insert_draft("g1", "report", "thread", "Отчёт", "n1", False)
    forum = host_forum(server, clock)
    report = publish_approved(forum, store, clock.now())
    assert set(report.refused) == {stranger} and set(report.sent) == {thread}   # the rest still goes out
    refused = store.draft(stranger)
    assert refused["status"] == "pending" and "Незнакомец" in refused["send_error"]
    assert publish_approved(forum, store, clock.now()).refused == {}            # not tried again by itself
    store.edit_draft(stranger, "Принято", by="host")
    store.approve(stranger, by="host")
    store.db.execute("UPDATE drafts SET target = 'Кума' WHERE id = ?", [stranger])   # the host fixed the nick
    again = publish_approved(forum, store, clock.now())
    assert set(again.sent) == {stranger}
    assert store.draft(stranger)["status"] == "sent" and store.draft(stranger)["send_error"] is None


def test_an_upgraded_store_keeps_its_drafts_and_gains_the_send_error(tmp_path, clock):
    """A file from before drafts kept the forum's refusal (made step by step by hand, as that version
    left it) is migrated with its draft as it was and no refusal."""
    import sqlite3

    from forumgm.daemon.store import MIGRATIONS, Store
    from forumgm.daemon.store.schema import VERSION_TABLE, step_up
    step = next(n for n, script in enumerate(MIGRATIONS) if "ADD COLUMN send_error" in script)
    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path, isolation_level=None)
    old.execute(VERSION_TABLE)
    step_up(old.execute, 0, MIGRATIONS[:step])
    assert "send_error" not in {row[1] for row in old.execute("PRAGMA table_info(drafts)")}
    at = clock.now().isoformat()
    old.execute("INSERT INTO forums (id, engine, base_url, account) VALUES ('local', 'phpbb', 'http://x/', 'Ведущий')")
    old.execute("INSERT INTO games (id, type, forum_id, thread_url, time_zone, seed, registered_at) "
                "VALUES ('g1', 'mafia', 'local', 'http://x/viewtopic.php?t=2', 'UTC', '1', ?)", [at])
    draft = old.execute("INSERT INTO drafts (game_id, kind, target, body, phase_key, needs_approval, status, "
                        "created_at, updated_at) VALUES ('g1', 'report', 'thread', 'Отчёт', 'n1', 1, 'pending', ?, ?)",
                        [at, at]).lastrowid
    old.close()
    upgraded = Store(path, now=clock.now)
    assert upgraded.schema_version == len(MIGRATIONS)
    assert upgraded.draft(draft)["body"] == "Отчёт" and upgraded.draft(draft)["send_error"] is None


class BrokenFor:
    """One draft's publishing fails in a way nobody planned for (a page not understood)."""

    def __init__(self, forum, nick):
        self.forum, self.nick = forum, nick

    def send_pm(self, to, subject, bbcode):
        if to == self.nick:
            raise PageLayoutError("phpbb: PM 7: no date found")
        return self.forum.send_pm(to, subject, bbcode)

    def __getattr__(self, name):
        return getattr(self.forum, name)


def test_one_drafts_failure_stops_that_draft_visibly_and_never_the_others(store, server, clock):
    broken = store.insert_draft("g1", "receipt", "Аскон", "Принято", "n1", False, subject="Квитанция")
    fine = store.insert_draft("g1", "receipt", "Кума", "Принято", "n1", False, subject="Квитанция")
    thread = store.insert_draft("g1", "report", "thread", "Отчёт", "n1", False)
    forum = host_forum(server, clock)
    report = publish_approved(BrokenFor(forum, "Аскон"), store, clock.now())
    assert set(report.failed) == {broken} and set(report.sent) == {fine, thread} and report.error is None
    assert store.draft(broken)["status"] == "sending" and "no date found" in store.draft(broken)["send_error"]
    again = publish_approved(forum, store, clock.now())          # the page is read again: sent once
    assert set(again.sent) == {broken} and store.draft(broken)["send_error"] is None
    assert sorted(server.board.users[m.recipient_id].name for m in server.board.pms.values()) == ["Аскон", "Кума"]


def test_a_forum_that_does_not_answer_ends_publishing_for_the_tick(store, server, clock):
    first = store.insert_draft("g1", "report", "thread", "Отчёт", "n1", False)
    second = store.insert_draft("g1", "report", "thread", "Ещё отчёт", "n1", False)

    class Down:
        def reply(self, url, bbcode):
            raise Unreachable("GET viewtopic.php failed after 5 attempts: HTTP 503")

        def __getattr__(self, name):
            return getattr(host_forum(server, clock), name)

    report = publish_approved(Down(), store, clock.now())
    assert "503" in report.error and set(report.failed) == {first}       # the second is not even tried
    assert store.draft(second)["status"] == "approved"


def test_a_draft_that_failed_is_shown_by_status_drafts_and_the_web_page(store, server, clock):
    from forumgm.daemon.cli.drafts import _refusal
    from forumgm.daemon.cli.status import game_status
    from forumgm.daemon.web import create_app
    broken = store.insert_draft("g1", "receipt", "Аскон", "Принято", "n1", False, subject="Квитанция")
    publish_approved(BrokenFor(host_forum(server, clock), "Аскон"), store, clock.now())
    game = type("Game", (), {"id": "g1", "type": "mafia", "players": [], "time_zone": clock.now().tzinfo})()
    shown = game_status(store, game)
    assert f"  draft {broken} (receipt → Аскон) not published: phpbb: PM 7: no date found" in shown
    assert _refusal(store.draft(broken)).startswith("not published yet: phpbb: PM 7: no date found")
    client = create_app(store, "host web password").test_client()
    token = client.get("/login").get_data(as_text=True).split('name="csrf_token" value="')[1].split('"')[0]
    client.post("/login", data={"password": "host web password", "csrf_token": token})
    assert "no date found</code> (повтор на каждом такте)" in client.get("/drafts").get_data(as_text=True)


def _align_pm_ids_with_posts(server):
    """Dummy PMs between players until the board's next PM id is its next post id: boards number
    posts and PMs apart, so a post and a PM of the host may well share an id."""
    board = server.board
    while next(reversed(board.pms), 0) + 1 < next(reversed(board.posts), 1) + 1:
        board.send_pm("Аскон", "Кума", "Привет", "просто так")


@pytest.mark.parametrize("earlier, lost", [("Кума", "thread"), ("thread", "Кума")])
def test_a_lost_text_whose_id_an_earlier_text_of_the_other_kind_has_is_found_not_sent_again(
        store, server, clock, earlier, lost):
    """A PM recorded sent as id N says nothing of post N (and the other way round): a post lost
    mid-send that the board numbered as an earlier PM is found, never posted a second time."""
    _align_pm_ids_with_posts(server)
    forum = host_forum(server, clock)
    first = store.insert_draft("g1", "receipt", earlier, "Принято", "n1", False, subject="Квитанция")
    assert publish_approved(forum, store, clock.now()).ok
    second = store.insert_draft("g1", "report", lost, "Итоги ночи 1", "n1", False, subject="Итоги")
    assert not publish_approved(LostAnswer(forum), store, clock.now()).ok
    assert store.draft(second)["status"] == "sending"
    recovered = publish_approved(forum, store, clock.now())
    assert recovered.sent == {} and second in recovered.reconciled
    assert recovered.reconciled[second] == store.draft(first)["forum_ref"]     # the same number, another kind
    on_forum = [p.bbcode for p in server.board.visible_posts(2)] + [m.bbcode for m in server.board.pms.values()]
    assert on_forum.count("Итоги ночи 1") == 1


def test_a_sent_pm_of_another_board_claims_nothing_here(store, server, clock):
    """PM ids are numbered per board: another forum's PM recorded as N is no PM of this board."""
    store.register_forum("other", "phpbb", "http://other.example/", "Ведущий")
    store.register_game("g2", "mafia", "other", "http://other.example/viewtopic.php?t=2", "UTC", 1, {"Кума": []})
    forum = host_forum(server, clock)
    lost = store.insert_draft("g1", "report", "Кума", "Итоги ночи 1", "n1", False, subject="Итоги")
    assert not publish_approved(LostAnswer(forum), store, clock.now(), forum_id="local").ok
    other = store.insert_draft("g2", "receipt", "Кума", "Принято", "n1", False)
    store.mark_sending(other, clock.now())
    store.mark_sent(other, str(max(server.board.pms)), clock.now())   # the lost PM's number, on the other board
    recovered = publish_approved(forum, store, clock.now(), forum_id="local")
    assert recovered.sent == {} and lost in recovered.reconciled
    assert [m.bbcode for m in server.board.pms.values()].count("Итоги ночи 1") == 1
