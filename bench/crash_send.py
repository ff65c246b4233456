"""Run by hand, on the real boards: `python bench/crash_send.py [mybb|phpbb|smf|fluxbb ...]`.

The daemon killed (SIGKILL) between sending a text and recording it, on the real boards (MyBB
1.8.37, FluxBB 1.5.11, SMF 2.1.4, phpBB 3.3.10 on 127.0.0.1:8081-8084, installed as
docs/reliability.md says), then started again: every post and PM must be on the board exactly once.

For each board, in a thread of its own, a child process publishes a post, then (in another run) a
PM (none on FluxBB), and kills itself:
- "answered": once the board has answered the text's POST (the board took it, nothing is recorded);
- "in flight": 0.3 s after the POST went out, without waiting for the answer;
- "refused" (SMF only): the board's flood rule refused the text (its fixed 2 s for an admin, met by
  a first text of the same kind just before and no pause kept), then nothing is recorded either.
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

from flood_burst import ADMIN, ADMIN_PASSWORD, PLAYERS, PORTS, account, new_topic, running  # noqa: E402

from forumgm.daemon.forum.errors import Accepted  # noqa: E402
from forumgm.daemon.publish import publish_approved  # noqa: E402
from forumgm.daemon.store import Store  # noqa: E402

RECIPIENT = "Кума"
MODES = ("answered", "in flight")
IN_FLIGHT = 0.3     # seconds after the POST went out: the board is still at it, or just done


def host_forum(engine: str, **config):
    """The admin host (the member host's flood rules would only slow this down), logged in."""
    forum = account(engine, ADMIN, ADMIN_PASSWORD)
    forum.settings = replace(forum.settings, **config)
    return forum


def child(engine: str, store_path: str, mode: str) -> None:
    """Publish with the HTTP client killed at the text's POST, as `mode` says; never returns."""
    # post_interval 0: no pause is kept between two texts, so SMF's 2 s rule refuses the second
    forum = host_forum(engine, **({"post_interval": 0.0} if mode == "refused" else {}))
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
        if mode == "answered":
            os.kill(os.getpid(), signal.SIGKILL)
        return answer

    if mode == "refused":     # a first text of the same kind: the draft's comes less than 2 s after it
        [draft] = store.approved_drafts()
        try:
            if draft["target"] == "thread":
                forum.reply(store.game("g1")["thread_url"], "Разогрев перед сбоем.")
            else:
                forum.send_pm(draft["target"], "Разогрев", "Разогрев перед сбоем.")
        except Accepted:   # SMF names neither: taken all the same
            pass
    forum.client.post = killing
    publish_approved(forum, store, datetime.now(timezone.utc))
    raise AssertionError(f"{engine} {mode}: the child was not killed (no text was sent?)")


def case(engine: str, mode: str, target: str, thread: str, folder: Path) -> str:
    """One text (a post, or a PM to RECIPIENT) killed at its send as `mode` says, the daemon started
    again; what the restart did. AssertionError unless the text is on the board exactly once."""
    run = datetime.now(timezone.utc).strftime("%H%M%S%f")
    store = Store(folder / f"{engine}-{run}.sqlite")
    store.register_forum("main", engine, f"http://127.0.0.1:{PORTS[engine]}/", ADMIN)
    store.register_game("g1", "mafia", "main", thread, "UTC", 1, {nick: [] for nick in PLAYERS})
    text = f"Сбой-тест {run}: {mode}."
    draft = store.add_draft("g1", "result", target, text, "t", False, subject=f"Сбой-тест {run}")
    died = subprocess.run([sys.executable, __file__, "--child", engine, str(store.path), mode]).returncode
    assert died == -signal.SIGKILL, f"{engine} {mode}: the child ended with {died}, not SIGKILL"
    assert store.draft(draft)["status"] == "sending", f"{engine} {mode}: killed, yet {store.draft(draft)['status']}"
    forum = host_forum(engine)
    restarted = publish_approved(forum, store, datetime.now(timezone.utc))   # the daemon started again
    assert not restarted.failed and not restarted.refused, (restarted.failed, restarted.refused)
    assert store.draft(draft)["status"] == "sent" and store.draft(draft)["forum_ref"], store.draft(draft)
    if target == "thread":
        found = [p.id for page in range(1, forum.thread_page_count(thread) + 1)
                 for p in forum.thread_page(thread, page)[1] if p.author == ADMIN and run in p.text]
        assert found == [store.draft(draft)["forum_ref"]], f"{engine} {mode}: the posts {found}"
    else:
        found = [h.subject for hs, _ in account(engine, RECIPIENT, PLAYERS[RECIPIENT]).inbox_pages() for h in hs
                 if h.sender == ADMIN and run in h.subject]
        assert found == [f"Сбой-тест {run}"], f"{engine} {mode}: {RECIPIENT} has {found}"
    return "found, not sent again" if draft in restarted.reconciled else "not on the board: sent once after the restart"


def main(engines: list[str]) -> None:
    for engine in engines or sorted(PORTS):
        if not running(PORTS[engine]):
            print(f"{engine}: no board on 127.0.0.1:{PORTS[engine]}, not run")
            continue
        thread = new_topic(engine, f"Сбой-тест {datetime.now(timezone.utc):%H%M%S}")
        targets = ("thread", RECIPIENT) if host_forum(engine).pm_supported else ("thread",)
        with tempfile.TemporaryDirectory() as folder:
            for mode in (*MODES, *(("refused",) if engine == "smf" else ())):
                for target in targets:
                    what = "post" if target == "thread" else "PM"
                    print(f"{engine}, {what} killed {mode}: {case(engine, mode, target, thread, Path(folder))}; "
                          "on the board exactly once", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(*sys.argv[2:5])
    else:
        main(sys.argv[1:])
