"""The rules freeze, one guarantee for every game: a running game plays under the rule table it
was dealt under, or under one the host accepted (docs/host-actions.md, "Rules freeze").

At the deal the game's merged rule table (its rules.toml, then the game file's [rules] key by key)
is kept with the game in the store. At every daemon start and every tick the game file's [rules]
is read again and the merged table's hash compared: a changed table holds the game (nothing of it
is read or resolved) and drafts a notice to the host's own account naming each changed key, old →
new. Restoring the table releases the game by itself; `forumgm rules accept GAME` keeps the new
table as the game's and hands the engine's state to `Rules.with_rules`, so that a game which copied
its rules into its state at the deal plays on under the accepted ones; the daemon then plays it
with an engine built from the accepted table.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
from typing import Any, Mapping, NamedTuple

from forumgm.config import rules_only
from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.settings.game import rules_on_file
from forumgm.daemon.settings.games import rule_table, rules_for
from forumgm.daemon.tick.finish import is_finished
from forumgm.daemon.tick.notices import KIND as NOTICE_KIND
from forumgm.daemon.tick.stops import RULES_CHANGED, SEED_CHANGED
from forumgm.daemon.record.commitment import commitment
from forumgm.daemon.record.sealing import seal_again

log = logging.getLogger(__name__)

ACCEPTED = "rules"      # the phase key of the snapshot an accepted change is kept in
TEMPLATE = "common/rules_changed.j2"
SEED_TEMPLATE = "common/seed_changed.j2"
ABSENT = object()       # a key one of the two tables does not have


class Change(NamedTuple):
    key: str            # dotted: "missed_votes_out", "clans.Хаос.attack"
    old: Any            # ABSENT when the key is new
    new: Any            # ABSENT when the key is gone


def rules_hash(table: Mapping[str, Any]) -> str:
    text = json.dumps(table, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _plain(table: Mapping[str, Any]) -> dict:
    """The rules of a merged table (no map data) as the store keeps them (JSON; a TOML date as its
    text), so that a table read now compares equal to the one kept."""
    return json.loads(json.dumps(rules_only(dict(table)), ensure_ascii=False, default=str))


def changes(old: Mapping[str, Any], new: Mapping[str, Any], prefix: str = "") -> list[Change]:
    """Every key whose value differs, nested tables key by key, in the new table's order."""
    found = []
    for key in [*new, *(key for key in old if key not in new)]:
        before, after = old.get(key, ABSENT), new.get(key, ABSENT)
        if isinstance(before, Mapping) and isinstance(after, Mapping):
            found += changes(before, after, f"{prefix}{key}.")
        elif before != after:
            found.append(Change(f"{prefix}{key}", before, after))
    return found


def dealt_table(game: Any) -> dict:
    """The merged rule table the GameRun's engine was built with."""
    return _plain(rule_table(game.config.type, game.config.rules))


def keep_dealt(game: Any, store) -> None:
    """At the deal: the table the game is frozen under."""
    table = dealt_table(game)
    store.set_game_rules(game.id, table, rules_hash(table))


def checked(games: list[Any], store, now) -> list[Any]:
    """The games as the daemon runs them this tick: each running one whose file's [rules] changed is
    held with a notice to the host; one whose table is (again) the frozen one is released and, when
    the host accepted a change since its engine was built, rebuilt under the accepted table."""
    return [check(game, store, now) for game in games]


def check(game: Any, store, now) -> Any:
    if _seed_changed(game, store, now):
        return game
    kept = store.game_rules(game.id)
    if kept is None and store.latest_snapshot(game.id) is not None and not is_finished(store, game.id):
        keep_dealt(game, store)     # dealt by a forumgm that kept no table: frozen from now on
        kept = store.game_rules(game.id)
    if kept is None or is_finished(store, game.id):
        return game                 # not dealt yet, or over: nothing is frozen
    overrides = rules_on_file(game.config)
    if overrides is None:
        return game                 # the file cannot be read now (`check-config` says why): as it was
    table = _plain(rule_table(game.config.type, overrides))
    digest = rules_hash(table)
    if digest != kept["hash"]:
        _stop(game, store, changes(kept["table"], table), digest, now)
        return game
    if store.release_game(game.id, RULES_CHANGED):
        log.info("game %s: its [rules] are the frozen ones again; it runs", game.id)
    if rules_hash(dealt_table(game)) == digest:
        return game
    config = dataclasses.replace(game.config, rules=overrides)
    return dataclasses.replace(game, config=config, rules=rules_for(config.type, overrides))


def _seed_changed(game: Any, store, now) -> bool:
    """A dealt game whose file names another seed than the one it is committed to is held until the
    file's seed is the dealt one again: no command accepts a new seed (the phases already played
    follow the old one). Neither seed is named: they are secret until the game's end."""
    dealt = store.secrets_of(game.id)
    if dealt is None or is_finished(store, game.id):
        return False
    if str(game.config.seed) == dealt[0]:
        if store.release_game(game.id, SEED_CHANGED):
            log.info("game %s: its seed is the dealt one again; it runs", game.id)
        return False
    problem = (f"game {game.id}: the seed in {game.config.source} changed after the deal; the game is committed "
               f"to the seed it was dealt with and is stopped until the file names that seed again")
    with store.transaction():
        if store.hold_game(game.id, SEED_CHANGED, problem, now):
            log.error("%s", problem)
        body = game.texts.render(SEED_TEMPLATE, game=game.id, file=str(game.config.source))
        # one notice per seed written, named by a hash the salt keeps from telling the seed
        mark = commitment(game.config.seed, dealt[1], {})[:16]
        draft(store, game.id, NOTICE_KIND, game.account, body, ref=f"seed_changed:{mark}")
    return True


def _stop(game: Any, store, changed: list[Change], digest: str, now) -> None:
    keys = ", ".join(change.key for change in changed)
    problem = (f"game {game.id}: the [rules] table in {game.config.source} changed after the game started ({keys}); "
               f"the game is stopped. Restore the table, or accept the change with "
               f"`forumgm rules accept --config <forumgm.toml> {game.id}`")
    with store.transaction():
        if store.hold_game(game.id, RULES_CHANGED, problem, now):
            log.error("%s", problem)
        body = game.texts.render(TEMPLATE, game=game.id, file=str(game.config.source), absent=ABSENT,
                                 changes=[(c.key, toml_value(c.old), toml_value(c.new)) for c in changed])
        draft(store, game.id, NOTICE_KIND, game.account, body, ref=f"rules_changed:{digest}")   # always waits


def toml_value(value: Any) -> str | None:
    """A value as the host writes it in TOML (true, 2, "текст", [1, 2]); None for an absent key."""
    return None if value is ABSENT else json.dumps(value, ensure_ascii=False)


def accept_change(game: Any, store, by: str = "host") -> list[Change] | None:
    """`game` built from its file as it is now: that table becomes the game's, the current state
    passes through the engine's `with_rules`; the changes accepted, None when nothing changed."""
    kept = store.game_rules(game.id)
    snapshot = store.latest_snapshot(game.id)
    if kept is None or snapshot is None:
        return None
    table = dealt_table(game)
    digest = rules_hash(table)
    if digest == kept["hash"]:
        return None
    changed = changes(kept["table"], table)
    state = game.rules.with_rules(game.rules.load(snapshot["state"]))
    with store.transaction():
        store.add_snapshot(game.id, ACCEPTED, game.rules.dump(state))
        store.set_game_rules(game.id, table, digest)
        store.release_game(game.id, RULES_CHANGED, by=by)
        store.audit(by, "rules.accept_change", {"game": game.id, "changes": [
            {"key": c.key, "old": toml_value(c.old), "new": toml_value(c.new)} for c in changed]})
        seal_again(game, store, [(c.key, toml_value(c.old), toml_value(c.new)) for c in changed])
    return changed
