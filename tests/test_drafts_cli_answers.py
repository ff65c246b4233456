"""`forumgm drafts` answers a host's slips in words, never with a traceback."""
from __future__ import annotations

import tempfile

import pytest

from forumgm.daemon.cli import main
from forumgm.daemon.store import Store
from mafia_walk_support import GAME


@pytest.fixture
def pending_draft(played, monkeypatch, tmp_path):
    installation, config = played
    storage = installation.storage
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))      # the editor's file goes under tmp_path
    store = Store(storage)
    draft = store.draft(store.insert_draft(GAME, "round_report", "thread", "Итоги дня", "round-2", True))
    store.close()
    return config, storage, draft


@pytest.mark.parametrize("editor, said", [
    ("false", "the editor (false) exited with status 1; draft {id} is unchanged (or use --body-file FILE)"),
    ("no-such-editor-here", "the editor 'no-such-editor-here' was not found (set $EDITOR, or use --body-file FILE)"),
])
def test_an_editor_that_fails_leaves_the_draft_and_says_so(pending_draft, monkeypatch, capsys, editor, said):
    config, storage, draft = pending_draft
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", editor)
    capsys.readouterr()
    assert main(["drafts", "--config", str(config), "edit", str(draft["id"])]) == 1
    out = capsys.readouterr()
    assert f"forumgm drafts edit: {said.format(id=draft['id'])}" in out.err and "Traceback" not in out.err
    assert Store(storage).draft(draft["id"])["body"] == draft["body"]


def test_an_editor_that_saves_edits_the_draft(pending_draft, monkeypatch, tmp_path):
    config, storage, draft = pending_draft
    script = tmp_path / "editor.sh"
    script.write_text('#!/bin/sh\nprintf "Новый текст" > "$1"\n', encoding="utf-8")
    script.chmod(0o700)
    monkeypatch.setenv("VISUAL", str(script))
    assert main(["drafts", "--config", str(config), "edit", str(draft["id"]), "--by", "host"]) == 0
    assert Store(storage).draft(draft["id"])["body"] == "Новый текст"


def test_listing_an_unknown_game_names_the_known_ones(played, capsys):
    _installation, config = played
    assert main(["drafts", "--config", str(config), "list", "--game", "nosuch"]) == 2
    assert f"forumgm drafts: no game 'nosuch' in {config} (games: {GAME})" in capsys.readouterr().err
