"""A turn report posted with its map attached inline, as phpBB 3.3, MyBB 1.8 and SMF 2.1 take files:
the fixture board replays what the real boards answered to each upload step and how they show an
attached picture in a post (tests/fixtures/forums/*/real_*; saved from the boards on this machine)."""
from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from forum_http_board import BoardServer, FixtureBoard
from forum_http_sites import FLUXBB, MYBB, PHPBB, SMF
from forumgm.daemon.forum import open_forum
from forumgm.daemon.forum.errors import ForumError
from forumgm.daemon.drafts.pictures import NO_PUBLIC_URL, with_mark
from forumgm.daemon.drafts.publish import publish_approved
from forumgm.daemon.store import Store
from localforum_support import HOST

SITES = {"phpbb": PHPBB, "mybb": MYBB, "smf": SMF}
THREADS = {"phpbb": "viewtopic.php?t=2", "mybb": "showthread.php?tid=1", "smf": "index.php?topic=2.0",
           "fluxbb": "viewtopic.php?id=2"}
# how each board's text names its upload inline
INLINE = {"phpbb": "[attachment=0]map.png[/attachment]", "mybb": "[attachment={id}]",
          "smf": "[attach id={id}]map.png[/attach]"}
REPORT = "[b]375 год[/b]\nГунны переходят Дон, готы уходят за Дунай."
WEB_URL = "https://gm.example.org/forumgm/"


def png(side: int, noise: bool = False) -> bytes:
    pixels = np.random.default_rng(7).integers(0, 256, (side, side, 3), dtype=np.uint8) if noise else \
        np.full((side, side, 3), 200, dtype=np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "PNG")
    return buffer.getvalue()


MAP = png(64)
TOO_LARGE = png(600, noise=True)      # over a megabyte: more than any of the stock limits


class Table:
    def __init__(self, tmp_path, site, clock, web_url=None, picture=MAP):
        self.site, self.clock = site, clock
        self.server = BoardServer(FixtureBoard(site, password="host-secret", member=HOST, clock=clock.monotonic))
        self.board = self.server.board
        self.forum = open_forum({"engine": site.engine, "base_url": self.server.url, "username": HOST,
                                 "posts_per_page": 5, "timeout": 5, "retries": 0}, "host-secret",
                                clock=clock.monotonic, sleep=clock.sleep, now=clock.now)
        self.thread = self.server.url + THREADS[site.engine]
        self.store = Store(tmp_path / "forumgm.sqlite", now=clock.now)
        self.store.register_forum("main", site.engine, self.server.url, HOST)
        self.store.register_game("g1", "bellum", "main", self.thread, "UTC", 1, {},
                                 {"web_url": web_url} if web_url else None)
        (tmp_path / "map.png").write_bytes(picture)
        (tmp_path / "map.svg").write_bytes(b"<svg/>")
        self.draft = self.store.insert_draft("g1", "literary_report", "thread", with_mark(REPORT), "turn-1", False,
                                          pictures=[tmp_path / "map.png", tmp_path / "map.svg"])

    def publish(self, forum=None):
        return publish_approved(forum or self.forum, self.store, self.clock.now())


@pytest.fixture
def table(tmp_path, clock, request):
    made = []

    def make(engine, **options):
        made.append(Table(tmp_path, SITES.get(engine) or FLUXBB, clock, **options))
        made[-1].server.__enter__()
        return made[-1]
    yield make
    for one in made:
        one.server.__exit__(None, None, None)
        one.store.close()


@pytest.mark.parametrize("engine", SITES)
def test_the_report_is_posted_once_with_its_map_attached_where_the_mark_was(table, engine):
    table = table(engine)
    report = table.publish()
    [upload] = table.board.uploads
    [post] = table.board.posts
    assert (upload.name, upload.data) == ("map.png", MAP)
    assert post.fields["message"].rstrip() == f"{REPORT}\n\n{INLINE[engine].format(id=upload.id)}"   # MyBB trims
    assert list(post.attached.values()) == [upload.id]
    assert report.sent == {table.draft: post.id} or report.reconciled == {table.draft: post.id}   # SMF names no post
    assert table.store.draft(table.draft)["status"] == "sent"
    # the thread shows the picture inside the post, as the board renders an inline attachment
    info, posts, html = table.forum.thread_page(table.thread, table.forum.thread_page_count(table.thread))
    [shown] = [p for p in posts if p.id == post.id]
    assert "Гунны переходят Дон" in shown.text and f"{upload.id}" in html.split(f"Гунны переходят Дон")[1]
    assert table.publish().sent == {} and len(table.board.posts) == 1 and len(table.board.uploads) == 1


class LostAnswer:
    """The board posts the report with its map, then the answer is lost (the daemon dies mid-send)."""

    def __init__(self, forum):
        self.forum = forum

    def reply(self, url, bbcode, attachments=()):
        self.forum.reply(url, bbcode, attachments)
        raise ForumError("connection reset")

    def __getattr__(self, name):
        return getattr(self.forum, name)


@pytest.mark.parametrize("engine", SITES)
def test_a_report_whose_answer_was_lost_is_found_with_its_map_and_never_uploaded_again(table, engine):
    table = table(engine)
    crashed = table.publish(LostAnswer(table.forum))
    if engine != "smf":        # SMF's answer never names the post: it is looked for at once
        assert not crashed.ok and table.store.draft(table.draft)["status"] == "sending"
        recovered = table.publish()
        assert recovered.sent == {} and list(recovered.reconciled) == [table.draft]
    [post] = table.board.posts
    assert len(table.board.uploads) == 1
    assert table.store.draft(table.draft)["status"] == "sent"
    assert table.store.draft(table.draft)["forum_ref"] == post.id
    assert table.publish().sent == {} and len(table.board.posts) == 1 and len(table.board.uploads) == 1


@pytest.mark.parametrize("engine", SITES)
def test_a_map_the_board_refuses_goes_as_a_link_to_the_pages_public_address(table, engine):
    table = table(engine, web_url=WEB_URL, picture=TOO_LARGE)
    table.publish()
    [post] = table.board.posts
    assert table.board.uploads == [] and post.attached == {}
    assert post.fields["message"].rstrip() == (f"{REPORT}\n\n[img]{WEB_URL}maps/g1/{table.draft}/0[/img]\n"
                                               f"[url={WEB_URL}maps/g1/{table.draft}/1]SVG[/url]")


@pytest.mark.parametrize("engine, said", [
    ("phpbb", "The extension exe is not allowed."),     # the board's own refusal, whatever the file
    ("mybb", 'The file "map.png" is too large. The maximum size for that type of file is 500 kilobytes.'),
    ("smf", "Your file is too large. The maximum attachment size allowed is 128 KB."),
])
def test_without_a_public_address_a_refused_map_brings_the_report_back_to_the_host(table, engine, said):
    table = table(engine, picture=TOO_LARGE)
    report = table.publish()
    assert table.board.posts == [] and table.board.uploads == []
    assert said in report.refused[table.draft] and NO_PUBLIC_URL in report.refused[table.draft]
    draft = table.store.draft(table.draft)
    assert draft["status"] == "pending" and said in draft["send_error"]


def test_a_board_forumgm_attaches_nothing_on_gets_the_map_as_a_link(table):
    table = table("fluxbb", web_url=WEB_URL)
    assert not table.forum.attaches
    table.publish()
    [post] = table.board.posts
    assert f"[img]{WEB_URL}maps/g1/{table.draft}/0[/img]" in post.fields["message"]
