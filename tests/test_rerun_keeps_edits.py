"""`resolve --rerun` keeps the host's edits of the drafts it supersedes: carried over where the
re-run generates the text he edited, kept beside the new text where it generates another."""
from __future__ import annotations

import io
import re
import sys

from forumgm.daemon.cli import main
from forumgm.daemon.store import Store
from forumgm.daemon.tick.clock import FixedClock
from forumgm.daemon.web import create_app
from mafia_daemon_support import GAME, daemon, drafts_of, example_installation, msk
from spine_fakes import MemoryForum, ScriptedPm

# Бук 3, Тора 3: a tie, nobody jailed; Гор and Ива send nothing and are warned
PMS = [ScriptedPm("Аскон", "голос: Бук\nпроверить Лису", msk(3, 10)), ScriptedPm("Хан", "голос: Бук", msk(3, 10)),
       ScriptedPm("Лиса", "голос: Тора", msk(3, 10)), ScriptedPm("Бук", "голос: Тора", msk(3, 10)),
       ScriptedPm("Тора", "голос: Бук", msk(3, 10)), ScriptedPm("Эф", "голос: Тора", msk(3, 10))]
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
OWN_WORDS = "\n\nВедущий: держитесь, до конца ещё далеко."


def live(store: Store, kind: str, target: str) -> dict:
    [draft] = [d for d in drafts_of(store, kind) if d["target"] == target and d["status"] != "superseded"]
    return draft


def cli(config, *args, stdin: str | None = None, monkeypatch=None) -> int:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return main([args[0], "--config", str(config), *args[1:], "--by", "ведущий"])


def test_edits_carry_over_where_the_text_is_the_same_and_wait_beside_it_where_it_changed(tmp_path, monkeypatch,
                                                                                          capsys):
    installation = example_installation(tmp_path, monkeypatch)
    clock = FixedClock(msk(3, 10))
    running = daemon(installation, clock, MemoryForum(clock, pms=list(PMS)))
    for at in (msk(3, 10), msk(3, 23, 0)):
        clock.set(at)
        assert not running.tick().errors
    store = running.store
    report, warning, check = live(store, "round_report", "thread"), live(store, "warning", "Гор"), \
        live(store, "check_result", "Аскон")
    assert "равенство голосов" in report["body"]
    store.edit_draft(report["id"], report["body"] + OWN_WORDS, "ведущий")
    store.edit_draft(warning["id"], warning["body"] + OWN_WORDS, "ведущий")
    config = tmp_path / "forumgm.toml"
    # Ива's vote, entered by the host, breaks the tie: Бук is jailed and the report changes
    assert cli(config, "correct", GAME, "round-1", "Ива", stdin="голос: Бук\n", monkeypatch=monkeypatch) == 0
    capsys.readouterr()

    assert cli(config, "resolve", GAME, "round-1", "--rerun", "--dry-run") == 0
    out = capsys.readouterr().out
    assert "your edit of draft warning to Гор: carried over to the new draft" in out
    assert "your edit of draft round_report to thread: NOT carried over, the generated text changed" in out
    assert cli(config, "resolve", GAME, "round-1", "--rerun", "--yes") == 0

    store = Store(installation.storage)
    new_report, new_warning = live(store, "round_report", "thread"), live(store, "warning", "Гор")
    assert new_report["id"] != report["id"] and new_warning["id"] != warning["id"]
    assert new_warning["body"] == warning["body"] + OWN_WORDS and new_warning["status"] == "pending"
    assert [e["edited_by"] for e in store.draft_edits(new_warning["id"])] == ["ведущий"]
    assert "посажен Бук" in new_report["body"] and OWN_WORDS not in new_report["body"]
    assert new_report["earlier_edit"] == report["body"] + OWN_WORDS
    # a draft he did not edit is simply the new one, with nothing beside it
    new_check = live(store, "check_result", "Аскон")
    assert new_check["id"] != check["id"] and new_check["earlier_edit"] is None
    assert store.draft_edits(new_check["id"]) == []

    capsys.readouterr()
    assert cli(config, "drafts", "show", str(new_report["id"])) == 0
    shown = capsys.readouterr().out
    assert "your edit of the earlier text was not carried over" in shown
    assert "-Ведущий: держитесь, до конца ещё далеко." in shown

    # the host's page shows the same beside the new draft
    client = create_app(store, "page password 1").test_client()
    token = TOKEN.search(client.get("/login").get_data(as_text=True)).group(1)
    assert client.post("/login", data={"password": "page password 1", "csrf_token": token}).status_code == 302
    drafts_page = client.get("/drafts").get_data(as_text=True)
    block = drafts_page[drafts_page.index(f'id="draft-{new_report["id"]}"'):]
    block = block[:block.index("</form>")]
    assert "ваша правка прежнего текста не перенесена" in block
    assert '<span class="del">-Ведущий: держитесь, до конца ещё далеко.</span>' in block
    warning_block = drafts_page[drafts_page.index(f'id="draft-{new_warning["id"]}"'):]
    assert "не перенесена" not in warning_block[:warning_block.index("</form>")]
