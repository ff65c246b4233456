"""The host's commands on a store after two game days: status, drafts, resolve --rerun."""
from __future__ import annotations

import pytest

from forumgm.daemon.cli import main
from forumgm.daemon.store import Store
from mafia_walk_support import GAME


def test_status_shows_the_open_phase_in_moscow_time(played, capsys):
    _installation, config = played
    assert main(["status", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert f"{GAME} (mafia): 8 players, 2 phase(s) resolved" in out
    assert "open phase round-3, deadline 05.03.2026 22:45 (МСК)" in out
    assert "drafts waiting for approval: 0" in out
    assert "thread votes counted: 0, order PMs: 0" in out


def test_status_of_a_finished_game_says_so_instead_of_an_open_phase(played, capsys):
    _installation, config = played
    assert main(["finish", "--config", str(config), GAME, "--winner", "Мирные", "--by", "host"]) == 0
    capsys.readouterr()
    assert main(["status", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "finished by host, winner: Мирные" in out and "open phase" not in out


def test_drafts_edit_approve_reject_are_audited(played, capsys, tmp_path):
    installation, config = played
    storage = installation.storage
    vote = tmp_path / "vote.txt"
    vote.write_text("голос: Бук", encoding="utf-8")
    assert main(["correct", "--config", str(config), GAME, "round-2", "Тора", str(vote), "--by", "host"]) == 0
    assert main(["resolve", "--config", str(config), GAME, "round-2", "--rerun", "--yes", "--by", "host"]) == 0
    store = Store(storage)
    # the re-run's corrected reports wait for the host; the correction's receipt is sent without him (config)
    [first] = [d["id"] for d in store.drafts(status="pending", game_id=GAME) if d["kind"] == "round_report"]
    [second] = [d["id"] for d in store.drafts(status="approved", game_id=GAME) if d["ref"] == "receipt:host-1"]
    body = tmp_path / "body.txt"
    body.write_text("Исправленный отчёт", encoding="utf-8")
    assert main(["drafts", "--config", str(config), "edit", str(first), "--body-file", str(body), "--by", "host"]) == 0
    assert main(["drafts", "--config", str(config), "approve", str(first), "--by", "host"]) == 0
    assert main(["drafts", "--config", str(config), "reject", str(second), "--by", "host"]) == 0
    assert main(["drafts", "--config", str(config), "approve", str(second), "--by", "host"]) == 1
    capsys.readouterr()
    assert main(["drafts", "--config", str(config), "show", str(first)]) == 0
    shown = capsys.readouterr().out
    assert "Исправленный отчёт" in shown and "edited by host" in shown
    store = Store(storage)
    assert (store.draft(first)["status"], store.draft(second)["status"]) == ("approved", "rejected")
    actions = [a["action"] for a in store.audit_log(limit=4)]
    assert actions == ["draft.rejected", "draft.approved", "draft.edit", "phase.rerun"]


def test_drafts_list_filters_by_status(played, capsys):
    _installation, config = played
    assert main(["drafts", "--config", str(config), "list", "--status", "sent"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(" sent " in line for line in lines)
    assert any("round_report" in line for line in lines)


def test_drafts_list_refuses_a_status_that_does_not_exist(played, capsys):
    from forumgm.daemon.cli.drafts import STATUSES
    from forumgm.daemon.store import DRAFT_STATUSES

    assert STATUSES == DRAFT_STATUSES
    _installation, config = played
    with pytest.raises(SystemExit) as exited:
        main(["drafts", "--config", str(config), "list", "--status", "sendt"])
    assert exited.value.code == 2 and "invalid choice: 'sendt'" in capsys.readouterr().err


def test_drafts_list_and_show_give_the_forums_refusal(played, capsys):
    installation, config = played
    storage = installation.storage
    store = Store(storage)
    refused = store.drafts(status="sent", game_id=GAME)[0]["id"]
    store.mark_refused(refused, "The user Незнакомец does not exist.", store.now())
    store.close()
    assert main(["drafts", "--config", str(config), "list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    [at] = [i for i, line in enumerate(listed) if line.split()[0] == str(refused)]
    assert listed[at + 1].strip() == ("the forum refused it: The user Незнакомец does not exist. "
                                      "(edit or approve it again)")
    assert len([line for line in listed if "the forum refused it" in line]) == 1
    assert main(["drafts", "--config", str(config), "show", str(refused)]) == 0
    assert "the forum refused it: The user Незнакомец does not exist." in capsys.readouterr().out


def test_drafts_show_and_list_write_a_players_control_characters_escaped(played, capsys, tmp_path):
    """A draft holding ESC, NUL or an OSC sequence (a text edited in, a forum's message, a draft
    stored before player text lost them) must not act on the host's terminal when shown."""
    installation, config = played
    storage = installation.storage
    osc = "\x1b]0;pwned\x07\x00\x1b[2J"
    store = Store(storage)
    draft = store.insert_draft(GAME, "receipt", f"Эф{osc}", f"Принято{osc}\nголос", "round-3", True,
                               subject=f"Тема{osc}")
    store.note_send_problem(draft, f"the forum: «{osc}»", store.now())
    store.close()
    capsys.readouterr()
    assert main(["drafts", "--config", str(config), "show", str(draft)]) == 0
    assert main(["drafts", "--config", str(config), "list"]) == 0
    out = capsys.readouterr().out
    assert not any(ch in out for ch in "\x1b\x07\x00")
    escaped = "<U+001B>]0;pwned<U+0007><U+0000><U+001B>[2J"
    assert f"Принято{escaped}\nголос" in out and f"subject: Тема{escaped}" in out and f"Эф{escaped}" in out
    assert f"«{escaped}»" in out
