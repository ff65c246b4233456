"""The record of the other two games (daemon/record): an Arena duel ends by itself with its archive
attached to the record post, and it checks out (its dice are scripted by its [setup]: a changed one
names the deal); a Bellum game the host ends after a
turn played on the local forum checks out too, its scenario file archived with its [setup]."""
from __future__ import annotations

import json

import requests

from forumgm.daemon.cli import main
import test_e2e_arena as arena_e2e
import test_e2e_bellum as bellum_e2e

arena = arena_e2e.arena


def changed(path, edit):
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    out = path.with_name("changed.json")
    out.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(out)


def test_an_arena_duel_checks_out_and_a_changed_die_or_event_names_where(arena, tmp_path, capsys):
    arena_e2e.test_a_duel_played_through_the_forum(arena)       # Хан wins by a knock-out, the daemon ends it
    [attached] = [f for f in arena.server.board.files.values() if f.post_id is not None]
    archive = tmp_path / attached.name
    archive.write_bytes(requests.get(f"{arena.server.url}download/file.php?id={attached.id}", timeout=10).content)
    capsys.readouterr()
    assert main(["verify", str(archive)]) == 0
    assert "all 6 phase(s) check out" in capsys.readouterr().out


    def another_scripted_die(data):     # the [setup] scripts the duel's dice: the deal holds them
        data["setup"]["dice"][0] = 5
    assert main(["verify", changed(archive, another_scripted_die)]) == 1
    assert capsys.readouterr().out.splitlines()[-1].endswith("differs in deal")

    def askon_misses_in_step_6(data):
        events = next(p for p in data["phases"] if p["key"] == "step-6")["outcome"]["events"]
        events.pop()
    assert main(["verify", changed(archive, askon_misses_in_step_6)]) == 1
    assert capsys.readouterr().out.splitlines()[-1].endswith("differs in step-6")


def test_a_bellum_game_the_host_ends_checks_out(bellum_table, tmp_path, capsys):
    bellum_e2e.test_a_turn_played_through_the_forum(bellum_table)
    config = str(tmp_path / "forumgm.toml")
    assert main(["finish", "--config", config, bellum_e2e.GAME, "--winner", "Гунны", "--by", "host"]) == 0
    archive = tmp_path / "bellum.json"
    assert main(["export", "--config", config, bellum_e2e.GAME, "--output", str(archive)]) == 0
    data = json.loads(archive.read_text(encoding="utf-8"))
    assert data["seed"] == "370" and data["setup"]["scenario"]["data"]       # the scenario file, as read
    capsys.readouterr()
    assert main(["verify", str(archive)]) == 0
    assert "ok  turn-1" in capsys.readouterr().out


def test_on_a_board_that_takes_no_file_the_record_links_its_archive_at_the_pages_public_address(tmp_path):
    from forumgm.daemon.drafts.pictures import ARCHIVE_MARK, NO_ARCHIVE_URL, save_pictures
    from forumgm.daemon.drafts.publish import publish_approved
    from forumgm.daemon.store import Store
    from forumgm.daemon.web import create_app

    store = Store(tmp_path / "forumgm.sqlite")
    store.register_forum("main", "phpbb", "https://forum.example.org/", "Ведущий")
    store.register_game("g", "mafia", "main", "https://forum.example.org/viewtopic.php?t=1", "UTC", 1, {})
    [archive] = save_pictures(store.path, "g", "record", {"g.json": b'{"format": "forumgm-archive-1"}'})
    draft_id = store.insert_draft("g", "game_record", "thread", f"Архив игры: {ARCHIVE_MARK}", None,
                                  needs_approval=False, pictures=[archive])

    class NoFiles:              # a board forumgm attaches nothing on
        attaches = False

        def __init__(self):
            self.posted = []

        def reply(self, thread_url, text):
            self.posted.append(text)
            return "9"

    report = publish_approved(NoFiles(), store, store.now())
    assert report.refused == {draft_id: NO_ARCHIVE_URL}          # no public address: back to the host, saying why

    public = "https://gm.example.org/forumgm/"
    store.register_game("g", "mafia", "main", "https://forum.example.org/viewtopic.php?t=1", "UTC", 1, {},
                        {"web_url": public})
    store.approve(draft_id, by="host")
    forum = NoFiles()
    assert publish_approved(forum, store, store.now()).sent == {draft_id: "9"}
    assert forum.posted == [f"Архив игры: [url={public}maps/g/{draft_id}/0]g.json[/url]"]
    served = create_app(store, "a-long-web-password").test_client().get(f"/maps/g/{draft_id}/0")
    assert served.status_code == 200 and served.mimetype == "application/json"
    assert served.get_data() == archive.read_bytes()
    store.close()
