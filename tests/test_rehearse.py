"""`forumgm rehearse`: the shipped examples played to their end on the local forum by stand-ins, every
draft on the host's page; the stand-ins are the engines' own, seeded and read as players' orders."""
from __future__ import annotations

import io
import re
import sqlite3
import threading
from pathlib import Path

import pytest
import requests
from markupsafe import escape

from forumgm.daemon.cli import main
from forumgm.daemon.offline.hosting import RealTime
from forumgm.daemon.offline.localforum.server import STOP_POLL
from forumgm.daemon.offline.rehearse import phase_span, rehearsal_copy, run_rehearsal
from forumgm.daemon.settings.game import load_game
from forumgm.daemon.settings.games import rules_for
from forumgm.daemon.store import Store
from forumgm.daemon.web.server import web_server
from forumgm.engines.base import Accepted, OrderPm
from localforum_support import FakeClock

GAMES = Path(__file__).resolve().parent.parent / "config" / "games"
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def rehearse(tmp_path, name: str, *flags: str) -> tuple[int, str, Path]:
    """The command's run on counted seconds: its waits (the client's pauses, the forms' ages, its
    polls) move them instead of taking real ones, over the same real HTTP."""
    out = io.StringIO()
    folder = tmp_path / "rehearsal"
    seconds = FakeClock()
    args = dict(phase_seconds=0.5, autoplay="--autoplay" in flags, auto_approve="--auto-approve" in flags,
                max_phases=int(next((f.split("=")[1] for f in flags if f.startswith("--max-phases=")), 30)),
                folder=folder, port=0, out=out, poll=0.1,
                real=RealTime(monotonic=seconds.monotonic, sleep=seconds.sleep, epoch=seconds.monotonic))
    code = run_rehearsal(GAMES / name, **args)
    return code, out.getvalue(), folder


def host_page(store: Store, password: str):
    """The host's page on the rehearsal's store, logged in over real HTTP."""
    server = web_server(store, password, "127.0.0.1", 0, quiet=True)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": STOP_POLL}, daemon=True).start()
    session = requests.Session()
    base = f"http://127.0.0.1:{server.server_port}"
    token = TOKEN.search(session.get(f"{base}/login").text).group(1)
    session.post(f"{base}/login", data={"password": password, "csrf_token": token})
    return server, session, base


@pytest.mark.parametrize("name", ["mafia.example.toml", "legends.example.toml"])
def test_a_shipped_example_rehearsed_by_stand_ins_ends_and_every_draft_reads_on_the_page(tmp_path, name):
    original = (GAMES / name).read_text(encoding="utf-8")
    code, said, folder = rehearse(tmp_path, name, "--autoplay", "--auto-approve")
    assert code == 0, said
    assert "rehearsal over: the game is over" in said
    assert (GAMES / name).read_text(encoding="utf-8") == original          # the host's file is untouched
    game = load_game(next((folder / "games").glob("*.toml")))
    assert game.thread_url.startswith("http://127.0.0.1:")
    store = Store(folder / "forumgm.sqlite")
    assert store.game(game.id)["finished_at"] is not None
    drafts = store.drafts()
    # everything the game drafted was posted; the game's record, drafted by the last tick, may still wait
    assert drafts and all(draft["status"] == "sent" for draft in drafts if draft["kind"] != "game_record")
    kinds = {draft["kind"] for draft in drafts}
    assert {"receipt", {"mafia": "round_report", "legends": "technical_report"}[game.type]} <= kinds
    server, session, base = host_page(store, (folder / "web-password").read_text().strip())
    try:
        page = session.get(f"{base}/drafts").text
        for draft in drafts:
            assert f'id="{"sent" if draft["status"] == "sent" else "draft"}-{draft["id"]}"' in page
            first = next(line for line in draft["body"].splitlines() if line.strip())
            assert str(escape(first)) in page
    finally:
        server.shutdown()
        server.server_close()
        store.close()


@pytest.mark.parametrize("name, phases", [("bellum.example.toml", 2), ("arena.example.toml", 6)])
def test_a_game_the_host_ends_or_a_long_fight_is_rehearsed_by_stand_ins_to_the_phase_cap(tmp_path, name, phases):
    """Bellum never ends by itself and an Arena duel takes long: the stand-ins play them to
    --max-phases, every order PM of theirs is accepted whole, and everything drafted is posted
    (Bellum's turn map as the local forum's attachment). Six Arena steps reach its first refill."""
    code, said, folder = rehearse(tmp_path, name, "--autoplay", "--auto-approve", f"--max-phases={phases}")
    assert code == 0, said
    assert f"stopped after {phases} phases (--max-phases {phases})" in said
    sent = [line for line in said.splitlines() if ": pm " in line]
    store = Store(folder / "forumgm.sqlite")
    try:
        drafts = store.drafts()
        receipts = [draft["body"] for draft in drafts if draft["kind"] == "receipt"]
        assert len(receipts) == len(sent) > 2                 # the opening orders and more: a turn, a refill
        assert all("Принято:" in body and "Не принято" not in body for body in receipts), receipts
        assert all(draft["status"] == "sent" for draft in drafts), [(d["kind"], d["status"]) for d in drafts]
        assert {"technical_report", {"bellum": "turn_pm", "arena": "refill"}[load_game(GAMES / name).type]} <= \
            {draft["kind"] for draft in drafts}
    finally:
        store.close()


def test_without_auto_approve_nothing_is_posted_and_the_cap_stops_a_game_cleanly(tmp_path):
    code, said, folder = rehearse(tmp_path, "mafia.example.toml", "--max-phases=1")
    assert code == 0
    assert "stopped after 1 phases (--max-phases 1): the game has not ended by then" in said
    assert "nothing was posted" in said
    with sqlite3.connect(folder / "forumgm.sqlite") as db:
        statuses = {row[0] for row in db.execute("SELECT status FROM drafts")}
    assert statuses == {"pending"}
    accounts = (folder / "accounts.txt").read_text(encoding="utf-8").split()
    assert accounts[0] == "Ведущий" and "Аскон" in accounts and oct((folder / "accounts.txt").stat().st_mode)[-3:] == "600"


def test_a_game_file_still_in_its_sign_up_is_refused(tmp_path):
    text = (GAMES / "mafia.example.toml").read_text(encoding="utf-8")
    signup = tmp_path / "signup.toml"
    signup.write_text(re.sub(r"\[\[players\]\]\n.*?\n\n", "", text, flags=re.S).replace("# players = []", "players = []"),
                      encoding="utf-8")
    out = io.StringIO()
    assert run_rehearsal(signup, 1, True, True, 5, tmp_path / "r", 0, out) == 2
    assert "lists no players yet" in out.getvalue()


def test_a_game_file_with_an_error_is_answered_with_it(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text('id = "x"\ntype = \n', encoding="utf-8")
    out = io.StringIO()
    assert run_rehearsal(broken, 1, True, True, 5, tmp_path / "r", 0, out) == 2
    assert out.getvalue().startswith("forumgm rehearse: ") and "broken.toml" in out.getvalue()


def test_the_copy_names_the_local_thread_and_the_files_beside_the_original(tmp_path):
    source = tmp_path / "host" / "game.toml"
    text = 'id = "g"\nthread_url = "https://real.example/viewtopic.php?t=5"\nroles_file = "g.roles.toml"\n'
    copy = rehearsal_copy(source, text, "http://127.0.0.1:9/viewtopic.php?t=2")
    assert 'thread_url = "http://127.0.0.1:9/viewtopic.php?t=2"' in copy and "real.example" not in copy
    assert f'roles_file = "{(tmp_path / "host" / "g.roles.toml").resolve()}"' in copy


def test_the_longest_phase_sets_the_pace():
    assert phase_span(load_game(GAMES / "mafia.example.toml")).total_seconds() == 23 * 3600 + 45 * 60
    assert phase_span(load_game(GAMES / "legends.example.toml")).total_seconds() == 13 * 3600


@pytest.mark.parametrize("name", ["mafia.example.toml", "legends.example.toml"])      # Bellum, Arena: test_stand_ins
def test_stand_ins_are_seeded_and_read_as_orders_a_player_could_send(name):
    game = load_game(GAMES / name)
    rules = rules_for(game.type, game.rules)
    state = rules.setup(game.setup_table(), game.seed)
    phase = rules.first_phase(state)
    for _ in range(3):      # night 1, day 1 (no lynch), night 2 / rounds 1–3
        moves = rules.stand_ins(state, phase, game.seed)
        assert moves == rules.stand_ins(state, phase, game.seed)
        assert {move.nick for move in moves} <= set(rules.alive(state))
        for move in moves:
            if move.pm:
                verdicts = rules.read_orders(state, phase, OrderPm(move.nick, move.pm), [])
                assert verdicts and all(isinstance(v, Accepted) for v in verdicts), (move, verdicts)
        phase = rules.next_phase(state, phase)


def test_the_cli_parses_rehearse():
    with pytest.raises(SystemExit) as exit:
        main(["rehearse", "--help"])
    assert exit.value.code == 0
