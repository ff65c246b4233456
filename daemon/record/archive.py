"""The game's archive (`forumgm export GAME`): one JSON document with everything a player needs to
check the game without the store or the forum (daemon/record/verify.py replays it).

    format            "forumgm-archive-1"
    forumgm           the version that made it (the engines' code is the rules too)
    game              id, type, title, thread, time zone, winner, finished_at/by
    seed, salt        revealed once the game is finished; null before
    commitments       each commitment with the rule table it seals and the phase after which it holds
                      ("setup": from the deal on)
    setup             the [setup] table the engine dealt from (a file it names: {"file", "data"})
    deal              the dealt state, its rolls, each player's role
    seats             each seat with its aliases and the accounts that held it, from when
    phases            each phase in order: its deadline and resolutions; its inputs as forumgm
                      understood them (order PMs with each line's verdict and the names the seats
                      went by when it was sent, the votes counted with
                      their posts' links, the votes not counted with the reason, the host's
                      corrections with who and when); its outcome (events, eliminations, the state
                      after it) and its rolls
    host_actions      what the host did to the game (the store's audit), who and when

A roll is [stream, n, value]: a value in 0..n-1 drawn from the named stream (engines/base.py,
TracedSeed). The reports' wording is no roll: it follows the host's templates.
"""
from __future__ import annotations

import json
from datetime import datetime
from importlib.metadata import version
from typing import Any, Mapping

from forumgm.daemon.settings.setup_files import game_setup
from forumgm.daemon.store import Store
from forumgm.daemon.store.orders import order_pms
from forumgm.daemon.store.seats import Seats, seats_of
from forumgm.engines.base import Phase, SetupFile

FORMAT = "forumgm-archive-1"
SETUP = "setup"
THREAD, PM = "thread", "pm"      # where a phase's votes were cast


def build_archive(game: Any, store: Store) -> dict:
    """The archive of a configured game (a tick.flow.GameRun) as the store has it now."""
    row = store.game(game.id)
    finished = bool(row and row["finished_at"])
    secrets = store.secrets_of(game.id) if finished else None
    deal = store.deal_snapshot(game.id)
    archive = {
        "format": FORMAT,
        "forumgm": version("forumgm"),
        "game": {"id": game.id, "type": game.config.type, "title": game.rules.title,
                 "thread_url": game.config.thread_url, "time_zone": game.config.time_zone.key,
                 "winner": row["winner"] if finished else None,
                 "finished_at": _time(row["finished_at"]) if finished else None,
                 "finished_by": row["finished_by"] if finished else None},
        "seed": secrets[0] if secrets else None,
        "salt": secrets[1] if secrets else None,
        "commitments": [{"digest": c["digest"], "after_phase": c["after_phase"], "made_at": _time(c["made_at"]),
                         "rules": c["rules"]} for c in store.commitments(game.id)],
        "setup": plain_setup(game_setup(game.rules, game.config)),
        "deal": None if deal is None else {
            "state": deal["state"], "dealt_at": _time(deal["created_at"]),
            "rolls": store.rolls(game.id, SETUP) or [],
            "roles": dict(game.rules.roles(game.rules.load(deal["state"]))),
        },
        "seats": _seats(game, store),
        "phases": _phases(game, store, deal),
        "host_actions": _host_actions(store, game.id),
    }
    return json.loads(json.dumps(archive, ensure_ascii=False, default=str))


def archive_text(archive: Mapping[str, Any]) -> str:
    return json.dumps(archive, ensure_ascii=False, indent=1) + "\n"


def plain_setup(setup: Mapping[str, Any]) -> dict:
    """The setup table as JSON: a file a setup key names is kept as its parsed content."""
    return {key: {"file": value.source, "data": value.data, "problem": value.problem}
            if isinstance(value, SetupFile) else value for key, value in setup.items()}


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _seats_of(game: Any, store: Store) -> Seats:
    return seats_of(((p.nick, p.aliases) for p in game.config.players), store.replacements(game.id))


def _seats(game: Any, store: Store) -> list[dict]:
    seats = _seats_of(game, store)
    replaced = {(r["seat"], r["new_nick"]): r for r in store.replacements(game.id)}
    return [{"seat": seat.id, "aliases": list(seat.aliases),
             "holders": [{"account": account, "since": _time(since),
                          "replaced_by": replaced.get((seat.id, account), {}).get("replaced_by")}
                         for account, since in seat.holders]} for seat in seats.seats]


def _phases(game: Any, store: Store, deal: dict | None) -> list[dict]:
    out = []
    state = None if deal is None else game.rules.load(deal["state"])
    for row in store.phases(game.id):
        phase = Phase(row["kind"], row["number"])
        entry = {"key": row["key"], "kind": row["kind"], "number": row["number"], "name": game.rules.phase_name(phase),
                 "status": row["status"], "opens_at": _time(row["opens_at"]), "deadline": _time(row["deadline"]),
                 "resolutions": [{"at": _time(r["resolved_at"]), "rerun": bool(r["rerun"]), "current": bool(r["current"])}
                                 for r in store.resolutions(game.id, row["key"])],
                 "inputs": _inputs(game, store, state, phase),
                 "outcome": None, "rolls": None}
        resolution = store.current_resolution(game.id, row["key"])
        if resolution is not None:
            snapshot, eliminated, _drafts = store.resolution_outcome(resolution["id"])
            entry["outcome"] = {
                "events": [{"type": e["type"], **e["data"]} for e in store.events(game.id, row["key"])],
                "eliminated": [{"nick": e["nick"], "cause": e["cause"]} for e in eliminated],
                "state": snapshot["state"],
            }
            entry["rolls"] = store.rolls(game.id, row["key"], resolution["id"])
            state = game.rules.load(snapshot["state"])
        out.append(entry)
    return out


def _inputs(game: Any, store: Store, state: Any, phase: Phase) -> dict:
    orders = store.orders(game.id, phase.key)
    seats = _seats_of(game, store)
    pms = order_pms(orders, seats)
    replaced = [o for o in store.orders(game.id, phase.key, superseded=True) if o["superseded_by"] is not None]
    by_id = {o["id"]: o for o in orders + replaced}
    inputs = {
        "orders": [{**_order(o), "seat_names": [list(pair) for pair in pm.seat_names]} for o, pm in zip(orders, pms)],
        "corrections": [
            {"kind": "orders", "seat": o["sender"], "text": o["raw_text"], "by": o["entered_by"],
             "at": _time(o["recorded_at"]), "in_force": o["superseded_by"] is None,
             "replaced": [_order(r) for r in replaced if r["superseded_by"] == o["id"]]}
            for o in by_id.values() if o["entered_by"]] + [
            {"kind": "vote", "seat": v["voter"], "text": v["text"], "by": v["entered_by"], "at": _time(v["recorded_at"]),
             "annulled": bool(v["annulled"]), "in_force": v["superseded_by"] is None}
            for v in store.vote_corrections(game.id, phase.key, superseded=True)],
        "votes": None,
    }
    stored = store.votes(game.id, phase.key)
    if stored:
        inputs["votes"] = {"cast": THREAD,
                           "counted": [_vote(game, v) for v in stored if v["counted"]],
                           "not_counted": [_vote(game, v) for v in stored if not v["counted"]]}
    elif state is not None:
        tally = game.rules.pm_vote_tally(state, phase, pms)
        if tally is not None:
            inputs["votes"] = {"cast": PM,
                               "counted": [{"voter": v.voter, "target": v.target, "pm_id": v.post_id,
                                            "at": _time(v.at), "text": v.text} for v in tally.counted],
                               "not_counted": [{"pm_id": v.post_id, **v.as_json()} for v in tally.discarded]}
    return inputs


def _order(row: dict) -> dict:
    return {"seat": row["sender"], "pm_id": row["pm_id"], "sent_at": _time(row["sent_at"]), "text": row["raw_text"],
            "verdicts": row["verdicts"], "entered_by": row["entered_by"]}


def _vote(game: Any, row: dict) -> dict:
    vote = {"voter": row["voter"], "text": row["text"], "post_id": row["post_id"],
            "post_url": game.post_url(row["post_id"]) if row["post_id"] else None}
    if row["counted"]:
        return {**vote, "target": row["target"], "at": _time(row["cast_at"]), "entered_by": row["entered_by"]}
    return {**vote, "reason": row["reason"], "detail": row["detail"] or ""}


def _host_actions(store: Store, game_id: str) -> list[dict]:
    """Every step of the store's audit on this game that was not the daemon's own."""
    return [{"at": _time(entry["at"]), "by": entry["actor"], "action": entry["action"], "detail": entry["detail"]}
            for entry in reversed(store.audit_log()) if entry["actor"] != "daemon"
            and isinstance(entry["detail"], Mapping) and entry["detail"].get("game") == game_id]
