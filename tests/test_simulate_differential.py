"""The lab and the daemon agree: one script played through the daemon on the local forum (players'
posts and PMs over real HTTP, a fake clock) and through `forumgm simulate` gives the same receipts,
tallies, events and report texts, phase by phase. Both run daemon/tick/phase_play.py; this test
holds them to it from the outside, for each game: an account named like a player (an alias, a
look-alike letter) is nobody's in both, a game's own vote colour counts in both, a Mafia PM after
the deadline is answered and filed away in both, and a seat given to another account (`forumgm
replace` in the daemon, a phase's `replace` in the lab) is played by it in both, the old account's
PMs nobody's; a re-run of every phase after a later replacement then reproduces what the daemon
played. The tables of the games' end-to-end tests (tests/test_e2e_*.py) host the daemon side."""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field

import pytest

from forumgm.daemon.cli import main
from forumgm.daemon.drafts.pictures import MARK
from forumgm.daemon.host_actions.replace import replace_player
from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.runtime.loop import game_runs
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.store import Store
from legends_forum_support import (
    GAME, PASSWORD_ENV, SEED, Player, legends_board, msk, players_toml, start_daemon, tick_at, toml_string,
    write_installation,
)
import test_e2e_arena as arena
import bellum_forum_support as bellum
import test_e2e_mafia as mafia
from localforum_support import FakeClock
from seats_support import rerun_after_replacement

ALIAS_ACCOUNT = "гоша"      # gosha100's alias, a forum account of its own: its PMs are nobody's orders
NEW = "Новичок"             # takes a seat over in each game's script
LATER = "Третий"            # takes one over after the game was played: the re-run must not change it


# a vote in a report links its post: on the forum a [url] to it, in the lab (no forum) the post's
# scenario id; who voted for whom is the same text either way
FORUM_LINK = re.compile(r"\[url=[^\]]*\](.*?)\[/url\]")
LAB_LINK = re.compile(r" \(#p\d+\)")
# a late PM's receipt says when the next phase opens: on the daemon's calendar, or on the lab's
# synthetic day (its scenario has no calendar); the words around it are the same
OPENS = re.compile(r"\d\d\.\d\d\.\d{4} \d\d:\d\d \([^)]+\)")


def untimed(text: str) -> str:
    return OPENS.sub("(время)", text)


def unmarked(draft: dict) -> str:
    """A report as the engine wrote it: a report carrying the drawn maps ends with their mark (drafts.pictures)."""
    return draft["body"].rstrip().removesuffix(MARK).rstrip() if draft["pictures"] else draft["body"]


def unlinked(reports: dict) -> dict:
    return {kind: LAB_LINK.sub("", FORUM_LINK.sub(r"\1", body)) for kind, body in reports.items()}


# drafts of the daemon's own that are no play of the phase: receipts (compared with their own key),
# the host's notices, and the digest of who is silent in the thread (the lab has no thread to watch)
DAEMON_ONLY = ("receipt", "host_notice", "discipline")


@dataclass
class PhaseScript:
    kind: str
    number: int
    pms: list[tuple[str, str]] = field(default_factory=list)       # (account, text), in order
    posts: list[tuple[str, str]] = field(default_factory=list)     # (account, BBCode), in order
    late: list[tuple[str, str]] = field(default_factory=list)      # PMs after the deadline, before the next opens
    replace: dict[str, str] = field(default_factory=dict)          # seat -> the account holding it from the opening


def replace_seats(config, store: Store, phase: PhaseScript, at) -> None:
    """The host's `forumgm replace` of each seat the phase gives to another account, at `at`."""
    for seat, account in phase.replace.items():
        replace_player(game_runs(load_installation(config))[0], store, seat, account, "host", at)


# Legends: a red vote colour set by the game ([game] vote_colors), so blue nicks are no votes; Кума's
# seat is Новичок's from night 2, named so in an attack, and Кума's own PM then is nobody's
LEGENDS = [
    PhaseScript("night", 1, pms=[("Аскон", "Шпионаж Кума"), ("gosha100", "Защита 3"), (ALIAS_ACCOUNT, "Защита 5"),
                                 ("Robozik", "Атака 5 Аскон")]),
    PhaseScript("day", 1),
    PhaseScript("night", 2, replace={"Кума": NEW},
                pms=[("Robozik", f"Атака 5 {NEW}а"), (NEW, "Защита 2"), ("Кума", "Защита 4"),
                     ("gosha100", "Атака 3 Аскон")]),
    PhaseScript("day", 2, posts=[("Аскон", "Голосую за [color=red]Кума[/color]"),
                                 ("Robozik", "[color=blue]Аскон[/color]"),              # blue: no vote in this game
                                 ("gosha100", "[color=#ff0000]Кума[/color]"),
                                 ("Robozik", "Мой голос: [color=red]гоша[/color]")]),   # an alias names the player
]
# (opens, deadline) of each phase on the daemon's calendar: night 21:00-10:00, day 12:00-21:00
LEGENDS_TIMES = [(msk(2, 21), msk(3, 10)), (msk(3, 12), msk(3, 21)), (msk(3, 21), msk(4, 10)), (msk(4, 12), msk(4, 21))]


def scenario_text(script: list[PhaseScript], game_lines: str, game: str = "legends", seed: int = SEED,
                  players: str | None = None) -> str:
    phases = []
    for phase in script:
        lines = [f'[[phases]]\nkind = "{phase.kind}"\nnumber = {phase.number}\n']
        if phase.replace:
            lines.append("replace = { " + ", ".join(f"{toml_string(seat)} = {toml_string(account)}"
                                                    for seat, account in phase.replace.items()) + " }\n")
        lines += [f"[[phases.pms]]\nfrom = {toml_string(a)}\ntext = {toml_string(t)}\n" for a, t in phase.pms]
        lines += [f"[[phases.pms]]\nfrom = {toml_string(a)}\ntext = {toml_string(t)}\nlate = true\n"
                  for a, t in phase.late]
        lines += [f"[[phases.posts]]\nauthor = {toml_string(a)}\nbbcode = {toml_string(b)}\n" for a, b in phase.posts]
        phases.append("".join(lines))
    players = players_toml("setup.players") if players is None else players
    return f'game = "{game}"\nseed = {seed}\n{game_lines}\n{players}\n' + "\n".join(phases)


def daemon_phase(store: Store, key: str, game: str = GAME) -> dict:
    """What the daemon made of one phase, in the simulate document's terms."""
    receipts: dict[str, list[dict]] = {}
    for order in store.orders(game, key):
        receipts.setdefault(order["sender"], []).extend(order["verdicts"])
    late: dict[str, list[dict]] = {}
    for order in store.orders(game, f"{key}/late"):
        late.setdefault(order["sender"], []).extend(order["verdicts"])
    drafts = [d for d in store.drafts(game_id=game) if d["phase_key"] == key]
    votes = store.votes(game, key)
    return {
        "receipts": receipts,
        "late_receipts": late,
        "receipt_texts": Counter((d["target"], untimed(d["body"])) for d in drafts if d["kind"] == "receipt"),
        "pms": Counter((d["kind"], d["target"], d["body"]) for d in drafts
                       if d["target"] != "thread" and d["kind"] not in DAEMON_ONLY),
        "reports": unlinked({d["kind"]: unmarked(d) for d in drafts if d["kind"].endswith("_report")}),
        "events": [{"type": e["type"], **e["data"]} for e in store.events(game, key)],
        "counted_votes": {v["voter"]: v["target"] for v in votes if v["counted"]},
        "discarded_votes": Counter((v["voter"], v["text"], v["reason"]) for v in votes if not v["counted"]),
    }


def simulated_phase(phase: dict) -> dict:
    return {
        "receipts": phase["receipts"],
        "late_receipts": phase.get("late_receipts", {}),
        "receipt_texts": Counter((pm["to"], untimed(pm["text"])) for pm in phase["pms"] if pm["kind"] == "receipt"),
        "pms": Counter((pm["kind"], pm["to"], pm["text"]) for pm in phase["pms"] if pm["kind"] not in ("receipt", "role")),
        "reports": unlinked({f"{name}_report": body for name, body in phase["reports"].items() if body}),
        "events": phase["events"],
        "counted_votes": phase.get("counted_votes", {}),
        "discarded_votes": Counter((d["voter"], d["text"], d["reason"]) for d in phase.get("discarded_votes", [])),
    }


@pytest.fixture
def legends_forum(monkeypatch):
    clock = FakeClock(msk(2, 20))
    monkeypatch.setenv(PASSWORD_ENV, "host-secret")
    with LocalForum(legends_board(clock, spectators=(ALIAS_ACCOUNT, NEW))) as server:
        yield server, clock


def test_legends_daemon_and_simulate_agree(legends_forum, tmp_path, capsys):
    server, clock = legends_forum
    config = write_installation(tmp_path, server, 'vote_colors = ["red"]')
    daemon = start_daemon(config, server, clock)
    tick_at(daemon, clock, msk(2, 20))
    accounts = {account for phase in LEGENDS for account, _ in phase.pms + phase.posts}
    players = {account: Player(server, clock, account) for account in accounts}
    for phase, (opens, deadline) in zip(LEGENDS, LEGENDS_TIMES):
        replace_seats(config, daemon.store, phase, opens)
        for minutes, (account, text) in enumerate(phase.pms, start=1):
            clock.moment = opens.replace(minute=minutes)
            players[account].pm(f"{phase.kind} {phase.number}", text)
        for minutes, (account, bbcode) in enumerate(phase.posts, start=1):
            clock.moment = opens.replace(minute=minutes)
            players[account].post(bbcode)
        assert tick_at(daemon, clock, deadline.replace(minute=5)).resolved == [f"{GAME}/{phase.kind}-{phase.number}"]

    scenario = tmp_path / "same_script.toml"
    scenario.write_text(scenario_text(LEGENDS, 'vote_colors = ["red"]'), encoding="utf-8")
    assert main(["simulate", str(scenario)]) == 0
    simulated = json.loads(capsys.readouterr().out)["phases"]

    for phase, played in zip(LEGENDS, simulated):
        key = f"{phase.kind}-{phase.number}"
        assert daemon_phase(daemon.store, key) == simulated_phase(played), key
        assert played.get("stray_pms", []) == [{"from": a, "text": t} for a, t in phase.pms
                                                if a == ALIAS_ACCOUNT or a in phase.replace]
    # the script exercises what it is for: the alias's PM is nobody's, red counts and blue does not,
    # and the new account plays the seat it took over, named by it
    night1, night2, day2 = (daemon_phase(daemon.store, key) for key in ("night-1", "night-2", "day-2"))
    assert ALIAS_ACCOUNT not in night1["receipts"] and [v["line"] for v in night1["receipts"]["gosha100"]] == ["Защита 3"]
    assert [v["line"] for v in night2["receipts"]["Кума"]] == ["Защита 2"] and night2["receipts"]["Robozik"][0]["ok"]
    assert ("attack", "Кума") in {(e["type"], e.get("target")) for e in night2["events"]}
    assert day2["counted_votes"] == {"Аскон": "Кума", "gosha100": "Кума", "Robozik": "gosha100"}
    rerun_after_replacement(config, daemon.store, GAME, "Аскон", LATER, "night-1", capsys)   # Кума was lynched


# Mafia: votes and night actions by PM; «Хaн» (a Latin a) is an account of its own, not Хан's. Эф's
# seat is Новичок's from round 2: his vote is the seat's, Хан votes for and heals the seat by his
# name, and Эф's own PM is nobody's
LOOK_ALIKE = "Хaн"
MAFIA = [
    PhaseScript("round", 1, pms=[(nick, text) for _, nick, text in mafia.ROUND_1[:4]]
                + [(LOOK_ALIKE, "голос: Аскон\nлечить Хан")] + [(nick, text) for _, nick, text in mafia.ROUND_1[4:]]),
    PhaseScript("round", 2, replace={"Эф": NEW},
                pms=[(NEW if nick == "Эф" else nick, text.replace("Эф", NEW)) for _, nick, text in mafia.ROUND_2]
                + [("Эф", "голос: Аскон")],
                late=[("Гор", "голос: Аскон")]),      # 22:50, after the 22:45 deadline: answered, never counted
]


def test_mafia_daemon_and_simulate_agree(tmp_path, monkeypatch, capsys):
    table = mafia.Table(tmp_path, monkeypatch)
    for account in (LOOK_ALIKE, NEW):
        table.server.board.add_user(account, "pw")
        table.players[account] = table.session(account, "pw")
    config = table.daemon.installation.source
    try:
        table.tick(mafia.msk(2, 23, 5))
        for day, phase in enumerate(MAFIA, start=3):
            replace_seats(config, table.store, phase, mafia.msk(day, 9))
            for minutes, (account, text) in enumerate(phase.pms):
                table.send([(mafia.msk(day, 10, minutes), account, text)])
            table.tick(mafia.msk(day, 22, 47))
            table.send([(mafia.msk(day, 22, 50), account, text) for account, text in phase.late])
            table.tick(mafia.msk(day, 22, 55))
            table.approve()
        players = "".join(f"[[setup.players]]\nnick = {toml_string(n)}\nrole = {toml_string(r)}\n"
                          for n, r in mafia.ROLES.items())
        scenario = tmp_path / "same_script.toml"
        scenario.write_text(scenario_text(MAFIA, "", "mafia", 5, players), encoding="utf-8")
        assert main(["simulate", str(scenario)]) == 0
        simulated = json.loads(capsys.readouterr().out)["phases"]
        for phase, played in zip(MAFIA, simulated):
            key = f"{phase.kind}-{phase.number}"
            # the day votes come by PM: the daemon keeps them in the orders, the round report tells them
            ours, lab = daemon_phase(table.store, key, mafia.GAME), simulated_phase(played)
            for thread_votes in ("counted_votes", "discarded_votes"):
                del ours[thread_votes], lab[thread_votes]
            assert ours == lab, key
            assert played.get("stray_pms", []) == [{"from": a, "text": t} for a, t in phase.pms
                                                    if a == LOOK_ALIKE or a in phase.replace]
        assert LOOK_ALIKE not in daemon_phase(table.store, "round-1", mafia.GAME)["receipts"]
        round2 = daemon_phase(table.store, "round-2", mafia.GAME)
        assert list(round2["late_receipts"]) == ["Гор"]
        assert [v["line"] for v in round2["receipts"]["Эф"]] == ["голос: Бук"]
        assert all(v["ok"] for v in round2["receipts"]["Хан"][:1]) and round2["receipts"]["Хан"][0]["canonical"] == "голос: Эф"
        rerun_after_replacement(config, table.store, mafia.GAME, "Аскон", LATER, "round-1", capsys)
    finally:
        table.server.stop()


# Bellum: orders by PM; the turn ends early once every player is ready, as the lab's one PM each does.
# Зорро's seat is Новичок's from the first turn; Зорро's own PM is nobody's
BELLUM = [PhaseScript("turn", 1, replace={"Зорро": NEW}, pms=[
    ("Хан", "3 из Паннонии в Норик, атакуя ЗРИ\n2 из Паннонии в Италию"),
    ("Аскон", "Норик: встретить боем всех\n1 из Италии в Германию\nход готов"),
    (LOOK_ALIKE, "ход готов"),
    ("Зорро", "ход готов"),
    (NEW, "4 аланов из Сарматии в Дакию, атакуя остготов\nход готов"),
    ("Хан", "5 из Паннонии в Норик, атакуя ЗРИ\nход готов"),
])]


def test_bellum_daemon_and_simulate_agree(tmp_path, monkeypatch, capsys):
    table = bellum.Table(tmp_path, monkeypatch)
    for account in (LOOK_ALIKE, NEW):
        table.server.board.add_user(account, "pw")
        table.players[account] = table.session(account, "pw")
    config = table.daemon.installation.source
    try:
        table.tick(bellum.msk(2, 12))
        replace_seats(config, table.store, BELLUM[0], bellum.msk(2, 12, 30))
        for hour, (account, text) in enumerate(BELLUM[0].pms, start=13):
            table.send(bellum.msk(2, hour), account, text)
        table.tick(bellum.msk(2, 19))
        assert table.store.phase(bellum.GAME, "turn-1")["status"] == "resolved"
        players = "".join(f"[[setup.players]]\nnick = {toml_string(n)}\nfaction = {toml_string(f)}\n"
                          for n, f in bellum.FACTIONS.items())
        setup = f"[setup]\nscenario = {toml_string(str(bellum.SMALL_MAP))}\nrolls = 1.0\n"
        scenario = tmp_path / "same_script.toml"
        scenario.write_text(scenario_text(BELLUM, "", "bellum", 370, setup + players), encoding="utf-8")
        assert main(["simulate", str(scenario)]) == 0
        [played] = json.loads(capsys.readouterr().out)["phases"]
        assert daemon_phase(table.store, "turn-1", bellum.GAME) == simulated_phase(played)
        assert played["stray_pms"] == [{"from": LOOK_ALIKE, "text": "ход готов"}, {"from": "Зорро", "text": "ход готов"}]
        assert [v["line"] for v in daemon_phase(table.store, "turn-1", bellum.GAME)["receipts"]["Зорро"]][:1] == [
            "4 аланов из Сарматии в Дакию, атакуя остготов"]
        rerun_after_replacement(config, table.store, bellum.GAME, NEW, LATER, "turn-1", capsys)
    finally:
        table.store.close()
        table.server.stop()


# Arena: stacks by PM; three steps (a refill request, from step 4, names the daemon's calendar).
# Аскон's fighter is Новичок's from the first step, and Хан's card names him so
ARENA = [PhaseScript("step", 1, replace={"Аскон": NEW},
                     pms=[("Хан", f"ПР: Отдых ×4, X L(голова, {NEW}у)\nНоги: Шаг вперёд"),
                          (LOOK_ALIKE, "ПР: Выпад(голова)"),
                          ("Аскон", "ПР: Выпад(тело)"),
                          (NEW, "Правая рука: Выпад(голова)\nЛР: Блок(тело)")]),
         PhaseScript("step", 2), PhaseScript("step", 3)]


def test_arena_daemon_and_simulate_agree(tmp_path, monkeypatch, capsys):
    table = arena.Arena(tmp_path, monkeypatch)
    for account in (LOOK_ALIKE, NEW):
        table.server.board.add_user(account, "pw")
        table.players[account] = table.session(account, "pw")
    config = table.daemon.installation.source
    try:
        table.tick(arena.msk(2, 12))
        for day, phase in enumerate(ARENA, start=2):
            replace_seats(config, table.store, phase, arena.msk(day, 12, 30))
            for minutes, (account, text) in enumerate(phase.pms, start=1):
                table.send(arena.msk(day, 13, minutes), account, text)
            table.tick(arena.msk(day + 1, 12, 1))
            assert table.store.phase(arena.GAME, f"step-{phase.number}")["status"] == "resolved"
        scenario = tmp_path / "same_script.toml"
        scenario.write_text(scenario_text(ARENA, "", "arena", 3, arena.DUEL), encoding="utf-8")
        assert main(["simulate", str(scenario)]) == 0
        simulated = json.loads(capsys.readouterr().out)["phases"]
        for phase, played in zip(ARENA, simulated, strict=True):
            key = f"step-{phase.number}"
            assert daemon_phase(table.store, key, arena.GAME) == simulated_phase(played), key
        assert simulated[0]["stray_pms"] == [{"from": LOOK_ALIKE, "text": "ПР: Выпад(голова)"},
                                             {"from": "Аскон", "text": "ПР: Выпад(тело)"}]
        step1 = daemon_phase(table.store, "step-1", arena.GAME)
        assert all(v["ok"] for v in step1["receipts"]["Хан"]) and "Аскон" in step1["receipts"]["Хан"][0]["canonical"]
        assert step1["receipts"]["Аскон"][0]["line"] == "Правая рука: Выпад(голова)"
        rerun_after_replacement(config, table.store, arena.GAME, NEW, LATER, "step-1", capsys)
    finally:
        table.store.close()
        table.server.stop()
