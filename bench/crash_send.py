"""Run by hand, on the real boards: `python bench/crash_send.py [--member] [mybb|phpbb|smf|fluxbb ...]`.

The daemon killed (SIGKILL) between sending a text and recording it, on the real boards (MyBB
1.8.37, FluxBB 1.5.11, SMF 2.1.4, phpBB 3.3.10 on 127.0.0.1:8081-8084, installed as
docs/reliability.md says), then started again: every post and PM must be on the board exactly once.

For each board, in a thread of its own, a child process publishes a post, then (in another run) a
PM (none on FluxBB), and kills itself:
- "answered": once the board has answered the text's POST (the board took it, nothing is recorded);
- "in flight": 0.3 s after the POST went out, without waiting for the answer;
- "refused" (SMF only): the board's flood rule refused the text (its fixed 2 s for an admin, met by
  a first text of the same kind just before and no pause kept), then nothing is recorded either.
With `--member` only "refused" runs, as the member Гость, on every board with PMs: turn the boards'
stock flood rules on first (MyBB `pmfloodsecs`/`postfloodsecs` 60 with `postfloodcheck`, phpBB
`flood_interval` 15; SMF's 5 s `spamWaitTime`) and back off after; the restart then waits the pause.
The parent then publishes as a restarted daemon does and reads the thread and the recipient's inbox.
Not a test of the suite: each run leaves its posts and PMs on the boards, and CI has no boards; the
suite covers the same path on the local forum and saved pages (tests/test_publish_once.py,
tests/test_forum_flood.py). Prints each case; an AssertionError names what went wrong."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from flood_burst import (  # noqa: E402
    ADMIN, ADMIN_PASSWORD, HOST, HOST_PASSWORD, PLAYERS, PORTS, account, new_topic, running,
)

from forumgm.daemon.forum.errors import Accepted, FloodPause  # noqa: E402
from forumgm.daemon.forum.page_text import first_text, flood_wait  # noqa: E402
from forumgm.daemon.drafts.publish import publish_approved  # noqa: E402
from forumgm.daemon.store import Store  # noqa: E402

RECIPIENT = "Кума"
MODES = ("answered", "in flight")
IN_FLIGHT = 0.3     # seconds after the POST went out: the board is still at it, or just done


def host_forum(engine: str, who: str, **config):
    """The host, logged in: the admin (no flood rules but SMF's 2 s), or the member Гость."""
    forum = account(engine, *((ADMIN, ADMIN_PASSWORD) if who == ADMIN else (HOST, HOST_PASSWORD)))
    forum.settings = replace(forum.settings, **config)
    return forum


def child(engine: str, store_path: str, mode: str, who: str) -> None:
    """Publish with the HTTP client killed at the text's POST, as `mode` says; never returns."""
    # post_interval 0: no pause is kept between two texts, so SMF's 2 s rule refuses the second
    forum = host_forum(engine, who, **({"post_interval": 0.0} if mode == "refused" else {}))
    store = Store(store_path)
    post = forum.client.post

    def killing(url, data, *args, **kwargs):
        sends_text = any(isinstance(v, str) and "Сбой-тест" in v for v in data.values()) and "add_to" not in data
        if not sends_text:
            return post(url, data, *args, **kwargs)
        if mode == "in flight":
            threading.Thread(target=post, args=(url, data, *args), kwargs=kwargs, daemon=True).start()
            time.sleep(IN_FLIGHT)
            os.kill(os.getpid(), signal.SIGKILL)
        try:
            answer = post(url, data, *args, **kwargs)
        except Exception:   # SMF's flood refusal is a 403 page
            if mode == "refused":
                os.kill(os.getpid(), signal.SIGKILL)
            raise
        refusal = first_text(answer.text, forum.spec.errors) or ""   # MyBB's and phpBB's: the form again
        if mode == "answered" or (mode == "refused" and flood_wait(refusal, forum.flood_default()) is not None):
            os.kill(os.getpid(), signal.SIGKILL)
        return answer

    if mode == "refused":     # a first text of the same kind: the draft's comes less than 2 s after it
        [draft] = store.approved_drafts()
        warm_up(forum, draft["target"], store.game("g1")["thread_url"])
        # a new session that has not learned the pause, as a daemon just started: its POST goes
        forum = host_forum(engine, who, post_interval=0.0)
        post = forum.client.post
    forum.client.post = killing
    publish_approved(forum, store, datetime.now(timezone.utc))
    raise AssertionError(f"{engine} {mode}: the child was not killed (no text was sent?)")


def warm_up(forum, target: str, thread: str) -> None:
    """A text of the draft's kind, sent once the pause of the text before it (phpBB counts posts
    and PMs together) has passed."""
    while True:
        try:
            if target == "thread":
                forum.reply(thread, "Разогрев перед сбоем.")
            else:
                forum.send_pm(target, "Разогрев", "Разогрев перед сбоем.")
            return
        except Accepted:   # SMF names neither: taken all the same
            return
        except FloodPause as pause:
            time.sleep(pause.wait)


def case(engine: str, mode: str, target: str, thread: str, folder: Path, who: str = ADMIN) -> str:
    """One text (a post, or a PM to RECIPIENT) killed at its send as `mode` says, the daemon started
    again; what the restart did. AssertionError unless the text is on the board exactly once."""
    run = datetime.now(timezone.utc).strftime("%H%M%S%f")
    store = Store(folder / f"{engine}-{run}.sqlite")
    store.register_forum("main", engine, f"http://127.0.0.1:{PORTS[engine]}/", who)
    store.register_game("g1", "mafia", "main", thread, "UTC", 1, {nick: [] for nick in PLAYERS})
    text = f"Сбой-тест {run}: {mode}."
    draft = store.insert_draft("g1", "result", target, text, "t", False, subject=f"Сбой-тест {run}")
    died = subprocess.run([sys.executable, __file__, "--child", engine, str(store.path), mode, who]).returncode
    assert died == -signal.SIGKILL, f"{engine} {mode}: the child ended with {died}, not SIGKILL"
    assert store.draft(draft)["status"] == "sending", f"{engine} {mode}: killed, yet {store.draft(draft)['status']}"
    forum = host_forum(engine, who)
    restarted = publish_approved(forum, store, datetime.now(timezone.utc))   # the daemon started again
    found_first = draft in restarted.reconciled
    while restarted.waiting:           # the board's flood pause: the daemon ticks again when it ends
        time.sleep(max(0.0, (min(restarted.waiting.values()) - datetime.now(timezone.utc)).total_seconds()))
        restarted = publish_approved(forum, store, datetime.now(timezone.utc))
    assert not restarted.failed and not restarted.refused, (restarted.failed, restarted.refused)
    assert store.draft(draft)["status"] == "sent" and store.draft(draft)["forum_ref"], store.draft(draft)
    if target == "thread":
        found = [p.id for page in range(1, forum.thread_page_count(thread) + 1)
                 for p in forum.thread_page(thread, page)[1] if p.author == who and run in p.text]
        assert found == [store.draft(draft)["forum_ref"]], f"{engine} {mode}: the posts {found}"
    else:
        found = [h.subject for hs, _ in account(engine, RECIPIENT, PLAYERS[RECIPIENT]).inbox_pages() for h in hs
                 if h.sender == who and run in h.subject]
        assert found == [f"Сбой-тест {run}"], f"{engine} {mode}: {RECIPIENT} has {found}"
    return "found, not sent again" if found_first else "not on the board: sent once after the restart"


def main(engines: list[str], who: str) -> None:
    for engine in engines or sorted(PORTS):
        if not running(PORTS[engine]):
            print(f"{engine}: no board on 127.0.0.1:{PORTS[engine]}, not run")
            continue
        thread = new_topic(engine, f"Сбой-тест {datetime.now(timezone.utc):%H%M%S}")
        pms = host_forum(engine, who).pm_supported
        if who == HOST and not pms:
            print(f"{engine}: a member host is only run where the board has PMs")
            continue
        targets = ("thread", RECIPIENT) if pms else ("thread",)
        modes = ("refused",) if who == HOST else (*MODES, *(("refused",) if engine == "smf" else ()))
        with tempfile.TemporaryDirectory() as folder:
            for mode in modes:
                for target in targets:
                    what = "post" if target == "thread" else "PM"
                    print(f"{engine}, {what} killed {mode}: {case(engine, mode, target, thread, Path(folder), who)}; "
                          "on the board exactly once", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(*sys.argv[2:6])
    else:
        member = "--member" in sys.argv
        main([arg for arg in sys.argv[1:] if arg != "--member"], HOST if member else ADMIN)
