"""The host's actions on the command line after two game days of the example mafia game:
correct, resolve --rerun (dry run, question, --yes), deadline, pause/resume, replace."""
from __future__ import annotations

import io
import sys

import pytest

from forumgm.daemon.cli import main
from forumgm.daemon.drafts.phase_names import phase_label
from forumgm.daemon.settings.games import shipped_rules
from forumgm.daemon.tick.clock import FixedClock
from forumgm.daemon.cli.common import played_nick_problems
from forumgm.daemon.store import Store, to_text
from forumgm.parsers.names import account_player
from seats_support import rerun_after_replacement
from spine_fakes import MemoryForum, ScriptedPm
from mafia_walk_support import GAME, PMS, msk, start


def cli(config, *args, stdin: str | None = None, monkeypatch=None) -> int:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return main([args[0], "--config", str(config), *args[1:], "--by", "ведущий"])


def host_audit(store: Store) -> list[tuple[str, dict]]:
    return [(row["action"], row["detail"]) for row in store.audit_log()[::-1] if row["actor"] == "ведущий"]


def vote_for_buk(config, monkeypatch, phase="round-2") -> None:
    """Three players who sent nothing on day 2 now vote for Бук: he is jailed and the town wins."""
    for nick in ("Тора", "Эф", "Гор"):
        assert cli(config, "correct", GAME, phase, nick, stdin="голос: Бук\n", monkeypatch=monkeypatch) == 0


def test_a_correction_replaces_the_players_pm_which_stays_beside_it(played, monkeypatch, capsys):
    installation, config = played
    assert cli(config, "correct", GAME, "round-2", "Бук", stdin="голос: Хан\nлечить Бука\n",
               monkeypatch=monkeypatch) == 0
    out = capsys.readouterr().out
    assert "Бук's orders are now host-1 (replacing 10)" in out
    assert "accepted: голос: Хан" in out and "refused: «лечить Бука» — это не действие вашей роли" in out
    assert "--rerun --dry-run" in out

    store = Store(installation.storage)
    rows = {row["pm_id"]: row for row in store.orders(GAME, "round-2", superseded=True)}
    assert rows["10"]["raw_text"] == "голос: Аскон" and rows["10"]["superseded_by"] == rows["host-1"]["id"]
    assert rows["host-1"]["entered_by"] == "ведущий" and rows["host-1"]["sender"] == "Бук"
    assert [row["pm_id"] for row in store.orders(GAME, "round-2")] == ["9", "host-1"]
    receipt = [d for d in store.drafts(game_id=GAME) if d["ref"] == "receipt:host-1"][0]
    assert receipt["target"] == "Бук" and receipt["subject"] == "Ведущий исправил ваши приказы"
    assert receipt["body"].startswith("Бук, ведущий исправил ваши приказы (круг 2).")
    assert "• голос: Хан" in receipt["body"] and "«лечить Бука» — это не действие вашей роли" in receipt["body"]
    [(action, detail)] = host_audit(store)
    assert action == "order.correct"
    assert detail["replaced"] == [{"pm_id": "10", "text": "голос: Аскон", "entered_by": None}]
    assert (detail["player"], detail["text"], detail["order"]) == ("Бук", "голос: Хан\nлечить Бука", "host-1")


def test_a_second_correction_replaces_the_first_and_supersedes_its_unsent_receipt(played, monkeypatch):
    installation, config = played
    assert cli(config, "correct", GAME, "round-3", "Аскон", stdin="голос: Хан", monkeypatch=monkeypatch) == 0
    assert cli(config, "correct", GAME, "round-3", "Аскон", stdin="голос: Бук", monkeypatch=monkeypatch) == 0
    store = Store(installation.storage)
    assert [(o["pm_id"], o["raw_text"]) for o in store.orders(GAME, "round-3")] == [("host-2", "голос: Бук")]
    receipts = {d["ref"]: d["status"] for d in store.drafts(game_id=GAME) if d["kind"] == "receipt"}
    # the installation sends receipts without approval: the first was approved, not yet sent
    assert receipts["receipt:host-1"] == "superseded" and receipts["receipt:host-2"] == "approved"


def test_a_correction_is_refused_for_a_stranger_an_unknown_phase_or_an_empty_text(played, monkeypatch, capsys):
    installation, config = played
    assert cli(config, "correct", GAME, "round-2", "Незнакомец", stdin="голос: Бук", monkeypatch=monkeypatch) == 1
    assert "в игре mafia-example нет игрока «Незнакомец»" in capsys.readouterr().err
    assert cli(config, "correct", GAME, "round-9", "Бук", stdin="голос: Хан", monkeypatch=monkeypatch) == 1
    assert "в игре mafia-example нет фазы «круг 9»" in capsys.readouterr().err
    assert cli(config, "correct", GAME, "round-2", "Бук", stdin="  \n", monkeypatch=monkeypatch) == 1
    assert "исправление пустое" in capsys.readouterr().err
    assert host_audit(Store(installation.storage)) == []


def test_the_rerun_diff_is_shown_and_nothing_changes_until_confirmed(played, monkeypatch, capsys):
    installation, config = played
    vote_for_buk(config, monkeypatch)
    store = Store(installation.storage)
    drafts_before = store.drafts(game_id=GAME)
    capsys.readouterr()

    assert cli(config, "resolve", GAME, "round-2", "--rerun", "--dry-run") == 0
    out = capsys.readouterr().out
    assert "eliminated: Ива (missed_votes) -> Бук (jail), Ива (missed_votes)" in out
    assert "state winner: None -> 'town'" in out
    assert "draft round_report to thread: changed (was sent; goes out as a correction)" in out
    assert "  -[b]Тюрьма:[/b] никто не посажен: равенство голосов" in out
    assert "  +[b]Тюрьма:[/b] посажен Бук — Мафиози" in out           # gender = "m" in the game file
    assert "draft warning to Тора: no longer drafted (was sent)" in out
    # the town wins on day 2 now: the open round 3 is no longer in the game's course
    assert out.rstrip().endswith("open phase round-3: no longer follows round-2 (the game ends there)")
    assert store.drafts(game_id=GAME) == drafts_before
    assert [r["rerun"] for r in store.resolutions(GAME, "round-2")] == [0]

    assert cli(config, "resolve", GAME, "round-2", "--rerun", stdin="n\n", monkeypatch=monkeypatch) == 1
    assert "nothing changed" in capsys.readouterr().out
    assert store.drafts(game_id=GAME) == drafts_before

    assert [p["key"] for p in store.phases(GAME)] == ["round-1", "round-2", "round-3"]
    assert cli(config, "resolve", GAME, "round-2", "--rerun", stdin="y\n", monkeypatch=monkeypatch) == 0
    assert [(r["rerun"], r["current"]) for r in store.resolutions(GAME, "round-2")] == [(0, 0), (1, 1)]
    assert [p["key"] for p in store.phases(GAME)] == ["round-1", "round-2"]
    assert [e["nick"] for e in store.eliminations(GAME) if e["phase_key"] == "round-2"] == ["Бук", "Ива"]
    new = [d for d in store.drafts(game_id=GAME) if d["resolution_id"] == store.resolutions(GAME, "round-2")[1]["id"]]
    live = [d for d in new if d["status"] != "superseded"]
    # the reports were sent: their new texts are corrections; the receipts of the day, identical, are not sent twice
    assert [d["kind"] for d in live] == ["round_report", "literary_report"]
    assert live[0]["body"].startswith("[b]Исправление.[/b] Ведущий пересчитал итоги (круг 2)")
    assert "посажен Бук — Мафиози" in live[0]["body"]
    assert [store.draft(d["id"])["status"] for d in drafts_before] == [d["status"] for d in drafts_before]
    action, detail = host_audit(store)[-1]
    assert action == "phase.rerun" and detail["replaced"] == store.resolutions(GAME, "round-2")[0]["id"]


def test_an_older_phase_is_re_run_with_every_later_one_from_its_new_outcome(played, monkeypatch, capsys):
    installation, config = played
    # three who voted for Лиса on day 1 vote for Бук instead: Бук is jailed, Лиса plays on and kills
    for nick, text in (("Аскон", "голос: Бук\nпроверить Бука"), ("Хан", "голос: Бук\nлечить Аскона"),
                       ("Тора", "голос: Бук")):
        assert cli(config, "correct", GAME, "round-1", nick, stdin=text, monkeypatch=monkeypatch) == 0
    store = Store(installation.storage)
    drafts_before = store.drafts(game_id=GAME)
    capsys.readouterr()

    assert cli(config, "resolve", GAME, "round-1", "--rerun", "--dry-run") == 0
    out = capsys.readouterr().out
    round_1, round_2 = out.split("== round-2\n")
    assert round_1.startswith("== round-1\neliminated: Лиса (jail) -> Бук (jail), Хан (kill_mafia)\n")
    assert "  +[b]Тюрьма:[/b] посажен Бук — Мафиози" in round_1
    # day 2 goes on from the new day 1: Хан is dead, Лиса alive, Аскон's vote for the jailed Бук is no vote
    assert "  +[b]В игре (5):[/b] Аскон, Гор, Лиса, Тора, Эф" in round_2
    assert "draft warning to Аскон: new" in round_2 and "draft warning to Хан: no longer drafted (was sent)" in round_2
    assert "open phase" not in out          # round 3 still follows round 2
    assert store.drafts(game_id=GAME) == drafts_before
    assert [r["rerun"] for r in store.resolutions(GAME)] == [0, 0]

    assert cli(config, "resolve", GAME, "round-1", "--rerun", "--yes") == 0
    assert "round-1, round-2: resolved again" in capsys.readouterr().out
    assert [(r["phase_key"], r["rerun"], r["current"]) for r in store.resolutions(GAME)] == [
        ("round-1", 0, 0), ("round-2", 0, 0), ("round-1", 1, 1), ("round-2", 1, 1)]
    assert [(e["phase_key"], e["nick"], e["cause"]) for e in store.eliminations(GAME)] == [
        ("round-1", "Бук", "jail"), ("round-1", "Хан", "kill_mafia"), ("round-2", "Ива", "missed_votes")]
    state = store.latest_snapshot(GAME)["state"]
    assert {p["nick"]: p["alive"] for p in state["players"]}["Лиса"] is True
    assert store.snapshot_before(GAME, "round-2")["resolution_id"] == store.resolutions(GAME)[2]["id"]
    assert [p["key"] for p in store.phases(GAME, status="pending")] == ["round-3"]
    corrections = [d for d in store.drafts(status="pending", game_id=GAME) if d["kind"] == "round_report"]
    assert [(d["phase_key"], d["body"].startswith("[b]Исправление.[/b]")) for d in corrections] == [
        ("round-1", True), ("round-2", True)]
    assert [(action, detail["phase"]) for action, detail in host_audit(store) if action == "phase.rerun"] == [
        ("phase.rerun", "round-1"), ("phase.rerun", "round-2")]
    capsys.readouterr()
    assert cli(config, "resolve", GAME, "round-1", "--rerun", "--dry-run") == 0
    assert capsys.readouterr().out.strip() == "the re-run gives the same outcome: nothing changes"


def test_the_rerun_with_yes_is_the_outcome_the_dry_run_showed(played, monkeypatch, capsys):
    installation, config = played
    vote_for_buk(config, monkeypatch)
    capsys.readouterr()
    assert cli(config, "resolve", GAME, "round-2", "--rerun", "--dry-run") == 0
    shown = capsys.readouterr().out
    assert cli(config, "resolve", GAME, "round-2", "--rerun", "--yes") == 0
    capsys.readouterr()
    # run again, the phase's outcome is the confirmed one: nothing more would change
    assert cli(config, "resolve", GAME, "round-2", "--rerun", "--dry-run") == 0
    assert capsys.readouterr().out.strip() == "the re-run gives the same outcome: nothing changes"
    assert "Бук (jail)" in shown


def test_the_deadline_moves_and_the_tick_honours_it(played, monkeypatch, capsys):
    installation, config = played
    clock = FixedClock(msk(5, 12))
    monkeypatch.setattr(Store, "now", lambda self: clock.now())
    assert cli(config, "deadline", GAME, "--extend", "2ч") == 0
    assert "round-3: deadline 05.03.2026 22:45 (МСК) -> 06.03.2026 00:45 (МСК)" in capsys.readouterr().out
    assert cli(config, "deadline", GAME, "--shorten", "45 мин") == 0
    # what status shows is what it takes, and the refusal speaks Moscow time, named
    assert cli(config, "deadline", GAME, "--set", "05.03.2026 12:00") == 1
    assert ("новый дедлайн 05.03.2026 12:00 (МСК) уже прошёл (сейчас 05.03.2026 12:00 (МСК))"
            in capsys.readouterr().err)
    assert cli(config, "deadline", GAME, "--extend", "two hours") == 2
    assert "«two hours» — не промежуток времени" in capsys.readouterr().err
    store = Store(installation.storage)
    assert store.phase(GAME, "round-3")["deadline"] == msk(6, 0)
    assert [(a, d["old"], d["new"]) for a, d in host_audit(store)] == [
        ("deadline.move", "2026-03-05 19:45:00+00:00", "2026-03-05 21:45:00+00:00"),
        ("deadline.move", "2026-03-05 21:45:00+00:00", "2026-03-05 21:00:00+00:00")]
    monkeypatch.undo()

    clock.set(msk(5, 23, 30))      # past the calendar's deadline, before the moved one
    votes = [ScriptedPm(nick, f"голос: {target}", msk(5, 10)) for nick, target in
             (("Аскон", "Бук"), ("Бук", "Аскон"), ("Хан", "Бук"), ("Тора", "Аскон"), ("Эф", "Гор"), ("Гор", "Эф"))]
    daemon = start(installation, clock, MemoryForum(clock, pms=list(PMS) + votes))
    assert daemon.tick().resolved == []
    clock.set(msk(6, 0, 1))
    assert daemon.tick().resolved == [f"{GAME}/round-3"]
    # the next round is scheduled from the moved deadline by the calendar (opens at 23:00, closes 22:45)
    assert (store.phase(GAME, "round-4")["opens_at"], store.phase(GAME, "round-4")["deadline"]) == \
           (msk(6, 23), msk(7, 22, 45))


def test_a_paused_game_resolves_nothing_until_resumed(played, capsys):
    installation, config = played
    assert cli(config, "pause", GAME) == 0
    assert cli(config, "pause", GAME) == 1
    assert f"игра {GAME} уже на паузе" in capsys.readouterr().err
    assert main(["status", "--config", str(config)]) == 0
    assert "PAUSED since" in (out := capsys.readouterr().out) and ": paused by ведущий (no phase resolves" in out

    clock = FixedClock(msk(5, 22, 50))
    forum = MemoryForum(clock, pms=list(PMS) + [ScriptedPm("Аскон", "голос: Хан", msk(5, 10))])
    daemon = start(installation, clock, forum)
    assert daemon.tick().resolved == []
    store = daemon.store
    assert [o["raw_text"] for o in store.orders(GAME, "round-3")] == ["голос: Хан"]   # read and answered
    assert store.phase(GAME, "round-3")["status"] == "pending"

    assert cli(config, "resume", GAME) == 0
    assert cli(config, "resume", GAME) == 1
    assert daemon.tick().resolved == [f"{GAME}/round-3"]
    assert [action for action, _ in host_audit(store)] == ["game.pause", "game.resume"]


def snapshots(store: Store) -> list:
    return [row["state"] for row in store.db.query("SELECT state FROM snapshots ORDER BY id")]


def test_a_replacement_gives_the_seat_to_the_new_account_and_rewrites_nothing(played, capsys):
    installation, config = played
    store = Store(installation.storage)
    before = snapshots(store), store.orders(GAME), store.votes(GAME), store.eliminations(GAME)
    assert cli(config, "replace", GAME, "Аскон", "Новичок") == 0
    out = capsys.readouterr().out
    assert "Новичок plays for Аскон from now on" in out and "a running daemon takes it at its next tick" in out
    assert (snapshots(store), store.orders(GAME), store.votes(GAME), store.eliminations(GAME)) == before
    [(action, detail)] = host_audit(store)
    assert action == "player.replace" and (detail["seat"], detail["old"], detail["new"]) == ("Аскон", "Аскон", "Новичок")
    assert [p["nick"] for p in store.players(GAME)][0] == "Аскон"       # the seat keeps its name

    # the seat is named by its id or by the account holding it now; it may change hands again
    assert cli(config, "replace", GAME, "Аскон", "Хан") == 1
    assert "место игрока Новичок может занять только аккаунт форума, который ещё не играет в mafia-example: «Хан» уже играет" in capsys.readouterr().err
    assert cli(config, "replace", GAME, "Никто", "Другой") == 1
    assert "в игре mafia-example нет игрока «Никто»; игроки: Аскон (теперь Новичок), Хан" in capsys.readouterr().err
    assert cli(config, "replace", GAME, "Новичок", "Другой") == 0
    assert "Другой plays for Новичок (the seat dealt as Аскон)" in capsys.readouterr().out
    assert [(r["seat"], r["old_nick"], r["new_nick"]) for r in store.replacements(GAME)] == [
        ("Аскон", "Аскон", "Новичок"), ("Аскон", "Новичок", "Другой")]
    assert main(["status", "--config", str(config)]) == 0
    held = [line.strip() for line in capsys.readouterr().out.splitlines() if line.strip().startswith("seat ")]
    assert [line.split(" since ")[0] + " after " + line.split(" after ")[1] for line in held] == [
        "seat Аскон: Новичок after Аскон", "seat Аскон: Другой after Новичок"]


def test_drafts_list_a_pm_by_the_account_it_goes_to_and_the_seat_it_is_drafted_to(played, monkeypatch, capsys):
    installation, config = played
    assert cli(config, "replace", GAME, "Аскон", "Новичок") == 0
    assert cli(config, "correct", GAME, "round-2", "Новичок", stdin="голос: Бук\n", monkeypatch=monkeypatch) == 0
    capsys.readouterr()
    assert main(["drafts", "list", "--all", "--config", str(config), "--game", GAME]) == 0
    listed = capsys.readouterr().out.splitlines()
    sent = [line for line in listed if " sent " in line and "→ Аскон" in line]
    new = [line for line in listed if "→ Новичок" in line]
    # what went to the seat before went to the account holding it then; the new receipt goes to Новичок
    assert sent and all("(seat" not in line for line in sent), listed
    assert len(new) == 1 and "receipt" in new[0] and "→ Новичок (seat Аскон)" in new[0], new
    draft_id = new[0].split()[0]
    assert main(["drafts", "show", draft_id, "--config", str(config)]) == 0
    assert "→ Новичок (seat Аскон)" in capsys.readouterr().out


@pytest.mark.parametrize("gender, jailed", [(["--gender", "m"], "посажен Ковбой"), ([], "за решётку отправляется Ковбой"),
                                            (["--gender", "f"], "посажена Ковбой")])
def test_the_texts_about_a_replaced_seat_agree_with_its_holder_not_with_the_first(played, capsys, gender, jailed):
    """Бук's seat (gender = "m" in the game file) held by Ковбой: «посажен Ковбой» was the first
    holder's gender whatever the new one's. The host gives the new player's with --gender, else it is guessed from the nick
    (Ковбой: none, a gender-free sentence)."""
    from forumgm.daemon.runtime.loop import game_runs
    from forumgm.engines.base import Event
    from forumgm.engines.mafia.report import round_report
    from forumgm.engines.phrases import Agreement

    installation, config = played
    assert cli(config, "replace", GAME, "Бук", "Ковбой", *gender) == 0
    store = Store(installation.storage)
    assert [r.get("gender") for r in store.replacements(GAME)] == [gender[1] if gender else None]
    game = game_runs(installation)[0]
    events = [Event("votes", {"table": []}), Event("jailed", {"nick": "Бук", "role": "Мафиози", "votes": 5}),
              Event("survivors", {"alive": ["Хан"], "roles": {"Доктор": 1}})]
    report = round_report(events, 3, game.seated(store, store.now()).texts, Agreement.of_players(game.config.players))
    assert f"{jailed} — Мафиози" in report and "Бук" not in report


def test_a_rerun_after_a_replacement_gives_the_same_rolls_and_outcome(played, capsys):
    installation, config = played
    store = Store(installation.storage)
    assert [e["type"] for e in store.events(GAME, "round-1")][:1] == ["votes"]
    rerun_after_replacement(config, store, GAME, "Аскон", "Новичок", "round-1", capsys)


def test_a_dead_players_seat_is_not_taken_over(played, capsys):
    installation, config = played
    store = Store(installation.storage)
    gone = store.eliminations(GAME)[0]
    assert cli(config, "replace", GAME, gone["nick"], "Новичок") == 1
    mafia = shipped_rules("mafia")
    cause, phase = mafia.cause_labels[gone["cause"]], phase_label(mafia, gone["phase_key"])
    assert (f"forumgm replace: {gone['nick']} уже вне игры {GAME} ({cause}, {phase}): "
            "место выбывшего игрока не передаётся") in capsys.readouterr().err
    assert store.replacements(GAME) == []


def test_a_running_daemon_takes_a_replacement_at_its_next_tick(played):
    from forumgm.daemon.host_actions.replace import replace_player
    from forumgm.daemon.runtime.loop import game_runs

    installation, _config = played
    store = Store(installation.storage)
    # the walk's store registered the game at the wall clock's time: PMs before it would be old mail
    store.db.execute("UPDATE games SET registered_at = ?", [to_text(msk(2, 12))])
    clock = FixedClock(msk(5, 9))
    forum = MemoryForum(clock, pms=list(PMS) + [ScriptedPm("Аскон", "голос: Хан", msk(5, 10)),
                                                ScriptedPm("Аскон", "голос: Гор", msk(5, 11)),
                                                ScriptedPm("Новичок", "голос: Бук", msk(5, 11, 30))])
    daemon = start(installation, clock, forum)
    daemon.tick()                              # it runs before the host's command ...
    host = Store(installation.storage)         # ... which is another process on the same store file
    replace_player(game_runs(installation)[0], host, "Аскон", "Новичок", "ведущий", msk(5, 10, 30))
    clock.set(msk(5, 12))
    daemon.tick()

    # what the old account sent while he held the seat is the seat's; what he sent after is nobody's
    assert [(o["sender"], o["raw_text"]) for o in store.orders(GAME, "round-3", superseded=True)] == [
        ("Аскон", "голос: Хан"), ("Аскон", "голос: Бук")]
    notices = [d for d in store.drafts(game_id=GAME) if d["kind"] == "host_notice"]
    assert len(notices) == 1 and "голос: Гор" in notices[0]["body"]
    assert "Отправитель Аскон больше не играет: в игре mafia-example его место занял Новичок." in notices[0]["body"]
    # the seat's receipts go to the account holding it when they are sent
    for draft in store.drafts(status="pending"):
        store.approve(draft["id"], by="ведущий")
    daemon.tick()
    receipts = [item for item in forum.sent if item["to"] not in ("thread", "Ведущий")]
    assert len(receipts) == 2 and {item["to"] for item in receipts} == {"Новичок"}
    assert "Новичок" in receipts[0]["body"] and "Аскон" not in receipts[0]["body"]


def as_the_previous_version_replaced(path, old: str, new: str, at) -> None:
    """The store as the version before seats left it after `forumgm replace OLD NEW`: its schema had no
    seats, and the player was renamed in every snapshot, order, vote, elimination and open draft."""
    import re
    import sqlite3

    from forumgm.daemon.store import MIGRATIONS

    seats_step = next(n for n, script in enumerate(MIGRATIONS) if "ADD COLUMN seat " in script)
    db = sqlite3.connect(path)
    for script in MIGRATIONS[seats_step:]:      # the tables and columns of the seats step and of every step after it
        for table in re.findall(r"CREATE TABLE (\w+)", script):
            db.execute(f"DROP TABLE {table}")
        for table, column in re.findall(r"ALTER TABLE (\w+) ADD COLUMN (\w+)", script):
            db.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    db.execute("UPDATE schema_version SET version = ?", [seats_step])
    db.execute("UPDATE snapshots SET state = replace(state, ?, ?)", [f'"{old}"', f'"{new}"'])
    for table, column in (("orders", "sender"), ("votes", "voter"), ("eliminations", "nick"), ("players", "nick"),
                          ("drafts", "target")):
        db.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", [new, old])
    db.execute("INSERT INTO replacements (game_id, old_nick, new_nick, replaced_by, at) VALUES (?, ?, ?, ?, ?)",
               [GAME, old, new, "ведущий", to_text(at)])
    db.commit()
    db.close()


def test_a_store_the_previous_version_replaced_in_knows_the_seat_by_its_last_nick(played):
    from forumgm.daemon.runtime.loop import game_runs

    installation, _config = played
    as_the_previous_version_replaced(installation.storage, "Аскон", "Новичок", msk(5, 10, 30))
    store = Store(installation.storage)        # migrates
    before = snapshots(store)
    [row] = store.replacements(GAME)
    assert (row["seat"], row["old_nick"], row["new_nick"]) == ("Новичок", "Аскон", "Новичок")
    assert row["account_checked_at"] == row["at"]           # the board is not asked about an account played since
    game = game_runs(installation)[0]
    seats = game.seats(store)
    assert seats.ids[0] == "Новичок" and seats.get("Новичок").holders == (("Аскон", None), ("Новичок", msk(5, 10, 30)))
    roster = game.roster(store)
    assert [account_player(account, roster, msk(5, hour)) for account, hour in
            (("Аскон", 10), ("Аскон", 11), ("Новичок", 11))] == ["Новичок", None, "Новичок"]
    assert played_nick_problems(installation, store) == []     # the config still says Аскон: no problem

    store.db.execute("UPDATE games SET registered_at = ?", [to_text(msk(2, 12))])
    clock = FixedClock(msk(5, 12))
    forum = MemoryForum(clock, pms=list(PMS) + [ScriptedPm("Аскон", "голос: Гор", msk(5, 11)),
                                                ScriptedPm("Новичок", "голос: Бук", msk(5, 11, 30))])
    start(installation, clock, forum).tick()
    assert [(o["sender"], o["raw_text"]) for o in store.orders(GAME, "round-3")] == [("Новичок", "голос: Бук")]
    assert [d["kind"] for d in store.drafts(game_id=GAME) if "голос: Гор" in d["body"]] == ["host_notice"]
    assert snapshots(store)[:len(before)] == before       # the migration rewrote nothing


def test_a_confirmation_for_an_outcome_no_longer_current_is_refused(played, monkeypatch):
    from forumgm.daemon.host_actions.rerun import confirm_rerun, preview_rerun
    from forumgm.daemon.runtime.loop import game_runs
    from forumgm.daemon.store import StoreError

    installation, config = played
    store = Store(installation.storage)
    game = game_runs(installation)[0]
    seen = preview_rerun(game, store, "round-2", store.now())
    assert not seen.changed
    vote_for_buk(config, monkeypatch)      # the orders change after the host looked
    with pytest.raises(StoreError, match="уже не те, что были показаны"):
        confirm_rerun(game, store, "round-2", "ведущий", store.now(), expected=seen.digest())
    assert [r["rerun"] for r in store.resolutions(GAME, "round-2")] == [0]
    assert "phase.rerun" not in [action for action, _ in host_audit(store)]


@pytest.mark.parametrize("text, minutes", [
    ("2h", 120), ("90m", 90), ("1d 6h", 1800), ("-30m", -30), ("+1h30m", 90),
    ("2ч", 120), ("90 мин", 90), ("1д", 1440), ("1д 6ч", 1800), ("1 час 30 минут", 90), ("2 часа", 120),
    ("5 дней", 7200), ("1 день и 2 часа", 1560), ("−30 мин", -30), ("45м", 45), ("3 ч.", 180)])
def test_spans_of_time(text, minutes):
    from datetime import timedelta

    from forumgm.daemon.settings.local_time import parse_span

    assert parse_span(text) == timedelta(minutes=minutes)


@pytest.mark.parametrize("text", ["", "2", "2x", "h", "2h и ещё", "two hours", "два часа", "2ч ииии", "2 чайника"])
def test_what_is_no_span_of_time(text):
    from forumgm.daemon.settings.local_time import parse_span

    with pytest.raises(ValueError, match="не промежуток времени"):
        parse_span(text)


@pytest.mark.parametrize("text", ["05.03.2026 22:45", "2026-03-05 22:45", "2026-03-05T22:45", "05.03.2026 22:45 (МСК)",
                                  "05.03.2026 22:45 МСК", "05.03.26 22:45", " 05.03.2026 22.45 "])
def test_a_time_is_taken_as_it_is_shown(text):
    from forumgm.daemon.settings.local_time import parse_moment, shown

    moment = parse_moment(text, msk(5, 0).tzinfo)
    assert moment == msk(5, 22, 45) and shown(moment, moment.tzinfo) == "05.03.2026 22:45 (МСК)"


def test_a_time_that_is_none_names_the_form_and_the_zone():
    from zoneinfo import ZoneInfo

    from forumgm.daemon.settings.local_time import parse_moment

    with pytest.raises(ValueError, match=r"«завтра» — не время: пишите ДД.ММ.ГГГГ ЧЧ:ММ.*Europe/Kyiv"):
        parse_moment("завтра", ZoneInfo("Europe/Kyiv"))


def test_state_changes_name_every_changed_leaf_by_its_path():
    from forumgm.daemon.host_actions.outcome_diff import StateChange, state_changes

    old = {"players": [{"nick": "Бук", "alive": True}], "winner": None, "gone": 1}
    new = {"players": [{"nick": "Бук", "alive": False}], "winner": "town", "night": 2}
    assert state_changes(old, new) == [StateChange("players.0.alive", True, False), StateChange("winner", None, "town"),
                                       StateChange("gone", 1, None), StateChange("night", None, 2)]
