"""Run by hand, on the real boards: `python bench/flood_burst.py [mybb|phpbb|smf ...]`.

A burst of approved drafts from a host who is a plain member, on the real boards (MyBB 1.8.37,
phpBB 3.3.10, SMF 2.1.4 on 127.0.0.1:8081/8084/8083, installed as docs/reliability.md says):
8 result PMs and a post, published tick after tick as the daemon does, each found once in its
recipient's inbox (read as the recipient) or in the thread.

The boards' flood rules are theirs: with their stock settings for members (MyBB 60 s between a
member's PMs, phpBB 15 s, SMF 5 s) the run takes as long as the board asks (about 8 minutes on
MyBB); with flood rules off, seconds. Not a test of the suite: every run leaves its PMs on the
boards (phpBB holds PMs back from a full inbox of 50, MyBB keeps no sent copy past a member's
quota of 200), and CI has no boards. The suite covers the same behaviour on the boards' saved
refusal pages (tests/test_forum_flood.py). Prints each tick; an AssertionError names what went wrong."""
from __future__ import annotations

import random
import re
import socket
import sys
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

from forumgm.daemon.forum import open_forum
from forumgm.daemon.forum.errors import BoardSaid
from forumgm.daemon.forum.page_text import meta_refresh
from forumgm.daemon.drafts.publish import publish_approved
from forumgm.daemon.store import Store
from forumgm.parsers.forums.reader import read_form

PORTS = {"mybb": 8081, "fluxbb": 8082, "smf": 8083, "phpbb": 8084}
BURST_BOARDS = ("mybb", "phpbb", "smf")    # FluxBB has no PMs: no burst of them
# the accounts the test boards are installed with: the host here is "Гость", a plain member
HOST, HOST_PASSWORD, ADMIN, ADMIN_PASSWORD = "Гость", "GuestPass1", "Ведущий", "HostPass123!"
PLAYERS = {"Аскон": "AskonPass1", "gosha100": "GoshaPass1", "Robozik": "RzPlayer77", "Ильмаринен": "IlmarPass1",
           "Кума": "KumaPass1", "Гладиатор": "GladPass1"}
# the game section's new-topic form: page, form, fixed values, the new topic's id on the page it leads to
NEW_TOPIC = {
    "mybb": ("newthread.php?fid=2", "form[name='input'][action*='newthread.php']", {"submit": "Post Thread"},
             r"newreply\.php\?tid=(\d+)", "showthread.php?tid={}"),
    "phpbb": ("posting.php?mode=post&f=2", "form#postform", {"post": "Submit"},
              r"mode=reply&(?:amp;)?(?:f=\d+&(?:amp;)?)?t=(\d+)", "viewtopic.php?t={}"),
    "smf": ("index.php?action=post;board=1.0", "form#postmodify", {"post": "Post", "goback": "1"},
            r"action=post;topic=(\d+)\.", "index.php?topic={}.0"),
    # FluxBB answers with the new post's page, whose links name the topic
    "fluxbb": ("post.php?fid=1", "form#post", {"submit": "Submit"}, r"viewtopic\.php\?id=(\d+)", "viewtopic.php?id={}"),
}
TOPIC_FIELDS = {"fluxbb": ("req_subject", "req_message")}   # the form's subject and message fields
BURST = 8


def running(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def account(engine: str, user: str, password: str):
    """Logged in: SMF lets one login a 2 s from an address, and others' runs log in from it too."""
    forum = open_forum({"engine": engine, "base_url": f"http://127.0.0.1:{PORTS[engine]}/", "username": user,
                        "posts_per_page": 5, "min_interval": 0.2}, password)
    for _ in range(10):
        try:
            forum.login()
            return forum
        except BoardSaid as said:
            if said.wait is None:
                raise
            time.sleep(said.wait + random.random() * 3)
    raise AssertionError(f"{user} could not log in to {engine} for its flood rule")


def new_topic(engine: str, subject: str) -> str:
    """A topic of the admin's for this run (nobody else's thread gets our post)."""
    admin = account(engine, ADMIN, ADMIN_PASSWORD)
    path, css, fixed, topic_id, url = NEW_TOPIC[engine]
    page = admin.fetch(admin.url(path))
    form = read_form(page.text, replace(admin.parser.LAYOUT, forms={"topic": css}), "topic")
    subject_field, message_field = TOPIC_FIELDS.get(engine, ("subject", "message"))
    result = admin.submit(page, form, {subject_field: subject, message_field: "Тема для проверки форума.", **fixed})
    if (refresh := meta_refresh(result.text)) and not re.search(topic_id, result.text):   # MyBB's "thank you"
        result = admin.fetch(admin.url(refresh))
    return admin.url(url.format(re.search(topic_id, result.url + " " + result.text).group(1)))


def burst(engine: str, folder: Path) -> None:
    """8 result PMs and a post from the member host on `engine`'s board, each checked arrived once."""
    run = datetime.now(timezone.utc).strftime("%H%M%S%f")
    thread = new_topic(engine, f"Флуд-тест {run}")
    store = Store(folder / "forumgm.sqlite")
    store.register_forum("main", engine, f"http://127.0.0.1:{PORTS[engine]}/", HOST)
    store.register_game("g1", "mafia", "main", thread, "UTC", 1, {nick: [] for nick in PLAYERS})
    nicks = list(PLAYERS)
    pms = {store.insert_draft("g1", "result", nicks[n % len(nicks)], f"Итог ночи {n}: ход принят.", f"r{n}", False,
                           subject=f"Ночь {run} итог {n}"): (nicks[n % len(nicks)], f"Ночь {run} итог {n}")
           for n in range(BURST)}
    post = store.insert_draft("g1", "vote_count", "thread", f"Утро {run}: ночью никто не убит.", "morning", False)
    host = account(engine, HOST, HOST_PASSWORD)

    ticks, started = [], time.monotonic()
    print(f"{engine}: thread {thread}, run {run}")
    while True:
        tick_started = time.monotonic()
        report = publish_approved(host, store, datetime.now(timezone.utc))
        ticks.append(time.monotonic() - tick_started)
        print(f"{time.monotonic() - started:6.1f} s: tick of {ticks[-1]:.1f} s sent {sorted(report.sent)}, "
              f"waiting {sorted(report.waiting)}")
        assert not report.refused and not report.failed, (report.refused, report.failed)
        if not report.waiting:
            break
        assert time.monotonic() - started < 20 * 60, "the burst took more than 20 minutes"
        time.sleep(max(0.0, (min(report.waiting.values()) - datetime.now(timezone.utc)).total_seconds()))

    assert all(store.draft(draft)["status"] == "sent" for draft in [*pms, post])
    # a tick waits only pauses up to FLOOD_INLINE: never the minutes a burst takes on a board with flood rules
    assert max(ticks) < 60
    for nick in sorted({to for to, _ in pms.values()}):
        wanted = sorted(subject for to, subject in pms.values() if to == nick)
        assert _received(engine, nick, run) == wanted, nick
    assert len({store.draft(draft)["forum_ref"] for draft in pms} - {""}) == BURST   # each recorded with its own id
    ours = [p for page in range(1, host.thread_page_count(thread) + 1) for p in host.thread_page(thread, page)[1]
            if p.author == HOST]
    assert [p.id for p in ours] == [store.draft(post)["forum_ref"]]


def _received(engine: str, nick: str, run: str) -> list[str]:
    """The subjects of this run's PMs from the host in `nick`'s inbox, read whole as he reads it."""
    return sorted(header.subject for headers, _ in account(engine, nick, PLAYERS[nick]).inbox_pages()
                  for header in headers if header.sender == HOST and run in header.subject)


def main(engines: list[str]) -> None:
    for engine in engines or BURST_BOARDS:
        if not running(PORTS[engine]):
            print(f"{engine}: no board on 127.0.0.1:{PORTS[engine]}, not run")
            continue
        with tempfile.TemporaryDirectory() as folder:
            started = time.monotonic()
            burst(engine, Path(folder))
            print(f"{engine}: every PM and the post arrived once, in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
