"""One tick of the daemon (DESIGN.md "Data flow of one tick").

    the games with a phase to resolve now first, then the others (resolving_first), each batch:
    sync each game's thread, then the inbox    (forumgm.daemon.tick.sync; a game that fails stops, visibly) —
                                               the inbox once a tick, with the first batch of its forum's games,
                                               only when the thread pages count a PM unread, a
                                               deadline has passed, or a periodic whole read is (daemon/forum/housekeeping/inbox_check.py);
                                               a game whose deadline has passed and whose grace runs waits:
                                               its thread and inputs are read by the resolving tick, this one
                                               only reads the late rush's PMs (a request each) meanwhile
    a post read after the phase it is dated in resolved -> a notice for the host (forumgm.daemon.tick.late_inputs)
    record inputs: order PMs -> orders + a receipt draft each (and the host's notice for a PM a resolved
                   phase never saw); thread votes -> the running tally
    resolve every due phase once, oldest first (catch-up after downtime, deadline by deadline)
    a PM no game of its forum takes            -> a notice for the host (forumgm.daemon.tick.stray_pms)
    publish approved drafts                    (forumgm.daemon.drafts.publish)

Every step is idempotent and every multi-row write is one transaction, so a crash anywhere
loses nothing: the next tick redoes what did not commit. A phase is resolved inside one
transaction that also marks it resolved; the store refuses a second resolution.
"""
from __future__ import annotations

import contextlib
import dataclasses
import logging
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.drafts.pictures import drawn_maps, save_pictures, with_mark
from forumgm.daemon.record.sealing import seal_deal
from forumgm.daemon.forum.housekeeping.inbox_check import DEFAULT_FULL_READ, inbox_reason
from forumgm.daemon.settings.records import GameConfig
from forumgm.daemon.settings.setup_files import game_setup
from forumgm.daemon.store import Store, StoreError
from forumgm.daemon.store.orders import order_pms
from forumgm.daemon.store.posts import CLOCK_SKEW
from forumgm.daemon.store.seats import Seats, seats_of
from forumgm.daemon.tick.board_clock import ClockAhead, check_board_clock
from forumgm.daemon.tick.clock import due_phases, schedule
from forumgm.daemon.tick.finish import finish_by_engine, is_finished
from forumgm.daemon.tick.late import before_start, missed_phase
from forumgm.daemon.tick.late_inputs import draft_late_pm, draft_late_posts
from forumgm.daemon.tick.phase_play import PlayedGame, play_phase, read_pm
from forumgm.daemon.tick.rules_freeze import keep_dealt
from forumgm.daemon.tick.reminders import draft_before_deadline
from forumgm.daemon.tick.role_delivery import role_drafts
from forumgm.daemon.tick.stops import is_held, is_paused
from forumgm.daemon.tick.look_alikes import Bindings, draft_look_alike_notices, the_players
from forumgm.daemon.tick.stray_pms import draft_stray_pms
from forumgm.daemon.tick.sync_problems import note_sync
from forumgm.daemon.tick.thread_pages import arrival_clock
from forumgm.daemon.tick.votes import (
    draft_running_count, note_thread_votes, pm_vote_tally, post_urls, record_votes,
)
from forumgm.engines.base import OrderPm, Phase, PhaseInputs, Rules, TracedSeed
from forumgm.parsers.names import Roster, account_player

log = logging.getLogger(__name__)

SETUP = "setup"
# boards show a PM's time to the minute, and their clock may run a little behind the daemon's:
# a PM shown this close to the deal may have been sent after it
DEALT_MARGIN = timedelta(minutes=2)


def no_link(post_id: str) -> str | None:
    return None


@dataclass(frozen=True)
class GameRun:
    """A configured game with its engine and the forum account it is played on."""

    config: GameConfig
    rules: Rules
    forum_id: str
    texts: Any                 # forumgm.engines.texts.Texts with the game's template overrides
    web_url: str | None = None    # the host's web page as players reach it (one-time role links)
    account: str = ""          # the host's forum account: its own posts are no votes
    post_url: Callable[[str], str | None] = no_link    # a thread post's link, for vote counts
    grace: timedelta = timedelta(0)    # a phase resolves this long after its deadline ([daemon] deadline_grace)
    inbox_full_read: timedelta = DEFAULT_FULL_READ   # [daemon] inbox_full_read (forumgm.daemon.forum.housekeeping.inbox_check)

    @property
    def id(self) -> str:
        return self.config.id

    def seats(self, store: Store) -> Seats:
        """The game's seats and who holds them, as the store has it now: a replacement reaches a
        running daemon at its next tick."""
        return seats_of(((p.nick, p.aliases) for p in self.config.players), store.replacements(self.id))

    def seated(self, store: Store, at: datetime) -> "GameRun":
        """The game whose texts show each seat by the account holding it at `at`, agreeing with that
        account's gender: a phase's texts by who played it at its deadline, so a re-run writes them
        again word for word."""
        return dataclasses.replace(self, texts=self.seats(store).showing(self.texts, at))

    def roster(self, store: Store, at: datetime | None = None) -> Roster:
        """The seats as names to read at `at` (forumgm.daemon.store.seats.Seats.roster)."""
        return self.seats(store).roster(at)


@dataclass(frozen=True)
class Edges:
    """The forum-facing steps; a test leaves a step out with None or puts a fault in it."""

    sync_game: Callable | None = None      # (game, forum, store, now) -> report with .ok/.error
    sync_inbox: Callable | None = None     # (forum_id, forum, store, now) -> report with .ok/.error
    publish: Callable | None = None        # (forum, store, now)
    seat_accounts: Callable | None = None  # (forum, store, games, now): a replacement's account asked of the board


def default_edges() -> Edges:
    # imported here: the forum edge pulls in requests and the engines' parsers, which the
    # offline commands that import this module never need
    from forumgm.daemon.drafts.publish import publish_approved
    from forumgm.daemon.tick.seat_accounts import check_seat_accounts
    from forumgm.daemon.tick.sync import sync_game, sync_inbox

    return Edges(sync_game=sync_game, sync_inbox=sync_inbox, publish=publish_approved,
                 seat_accounts=check_seat_accounts)


@dataclass
class TickReport:
    resolved: list[str] = field(default_factory=list)      # "game/phase"
    errors: list[str] = field(default_factory=list)
    drafts_held: datetime | None = None      # the board's flood pause holds approved drafts until then


def tick(now: datetime, forum: Any, store: Store, games: Sequence[GameRun], edges: Edges | None = None,
         board_clock: Callable[[], datetime | None] | None = None) -> TickReport:
    """`board_clock`: the board's clock now, to check `now` against before a deadline resolves
    (tick/board_clock.py); None when `now` is no wall clock (a test's, the demo's)."""
    edges = edges if edges is not None else default_edges()
    report = TickReport()
    games = [game.seated(store, now) for game in games]     # a replacement reaches a running daemon here
    # a held game (its rules changed, or another cause: `forumgm status` says why) is not read
    live = [game for game in games if not is_held(store, game.id)]
    moment = arrival_clock(forum, now)      # a read is timed when it is made, not when the tick began
    started = []
    for game in live:
        with _one_game(game, report):
            start_game(game, store, now)
            started.append(game)
    reading = Reading(forum, store, now, moment, edges, report, board_clock, live)
    batches = resolving_first(started, store, now)
    for batch in batches:
        # each forum's inbox is read once, with the first batch holding one of its games (a forum whose
        # games are all held or failed to start: with the last)
        of = games if batch is batches[-1] else batch
        reading.read_and_resolve(batch, sorted({game.forum_id for game in of} - set(reading.inbox_errors)))
    for forum_id in reading.inbox_errors:   # every game of the forum has read its orders: what none took
        try:
            of_forum = [game for game in games if game.forum_id == forum_id]
            bound = Bindings(store, forum_id)
            draft_stray_pms(of_forum, store, bound)
            draft_look_alike_notices([game for game in live if game.forum_id == forum_id], store, bound, now)
        except sqlite3.Error:   # the store itself fails: run_loop says so once, not per game
            raise
        except Exception as error:
            log.exception("forum %s: stray PMs not drafted", forum_id)
            report.errors.append(f"{forum_id}: {error}")
    if edges.publish is not None:
        try:   # publishing keeps each draft's failure to that draft; anything left must not end the tick
            published = edges.publish(forum, store, now, until=_deadline_passed(live, store, now, moment))
            failed = getattr(published, "failed", None) or {}
            report.errors += [f"draft {draft_id}: {reason}" for draft_id, reason in failed.items()]
            report.drafts_held = min((getattr(published, "waiting", None) or {}).values(), default=None)
        except sqlite3.Error:   # the store itself fails: run_loop says so once, not per game
            raise
        except Exception as error:   # drafts stay as they were: the next tick publishes them
            log.exception("publishing failed")
            report.errors.append(f"publishing: {error}")
    return report


def resolving_first(games: Sequence[GameRun], store: Store, now: datetime) -> list[list[GameRun]]:
    """The games in the order the tick reads them: those with a phase to resolve now first, then the
    others. A game with nothing due must not hold a resolution back (its thread costs a second at
    the polite rate: Mafia's at Legends' night-1); the PM inbox is read with the first batch, so every
    PM the board holds is still read before a phase resolves."""
    due, rest = [], []
    for game in games:
        (due if past_deadline(game, store, now, game.grace) else rest).append(game)
    return [due, rest] if due else [rest]


def past_deadline(game: GameRun, store: Store, now: datetime, grace: timedelta = timedelta(0)) -> list[dict]:
    """The phases of a running game (neither finished nor paused) whose deadline plus `grace` has
    passed and that are not resolved, oldest first."""
    if is_finished(store, game.id) or is_paused(store, game.id):
        return []
    return due_phases(game.config, now, store, grace)


@dataclass
class Reading:
    """One tick's reads of the forum, batch by batch (resolving_first), and what they found."""

    forum: Any
    store: Store
    now: datetime
    moment: Callable[[], datetime]
    edges: Edges
    report: TickReport
    board_clock: Callable[[], datetime | None] | None
    live: Sequence[GameRun]
    threads: dict[str, tuple[Any, str | None]] = field(default_factory=dict)   # game id -> sync report, error
    inbox_errors: dict[str, str | None] = field(default_factory=dict)          # forum id -> its inbox's error

    def read_and_resolve(self, batch: Sequence[GameRun], forums: Sequence[str]) -> None:
        """Read the batch's threads, then the PM inboxes of `forums`, then record the batch's inputs and
        resolve what is due."""
        forum, store, now, report = self.forum, self.store, self.now, self.report
        for game in batch:
            with _one_game(game, report):
                if in_grace(game, store, now):
                    continue
                self.threads[game.id] = _sync_step(self.edges.sync_game, report, game.config, forum, store,
                                                   self.moment())
        for forum_id in forums:
            self.inbox_errors[forum_id] = _inbox_step(self.edges, report, forum_id, forum, store, now, self.moment,
                                                      [game for game in self.live if game.forum_id == forum_id],
                                                      self.threads)
        read = [game for game in batch if game.id in self.threads]    # the others wait for their resolving tick
        if self.edges.seat_accounts is not None and read:
            _seat_accounts_step(self.edges.seat_accounts, report, forum, store, read, now)
        for game in read:
            with _one_game(game, report):
                # a post a resolved phase never saw, dated inside it: the host is told
                draft_late_posts(game, store, getattr(self.threads[game.id][0], "new_posts", None) or ())
                # inputs may be missing after a failed sync: never resolve on a partial view of the forum
                error = (self.inbox_errors[game.forum_id] or self.threads[game.id][1]
                         or _resolution_error(game, store, now, report, self.board_clock))
                note_sync(store, game.id, error, now)     # the host sees why a game waits


def _deadline_passed(games: Sequence[GameRun], store: Store, now: datetime,
               clock: Callable[[], datetime]) -> Callable[[], bool]:
    """Whether a phase's deadline has passed since the tick began, or had passed and its grace runs:
    the receipts of a last-minute rush (30 PMs, 129 requests at the polite rate) must not hold its
    resolution back, so publishing stops and the tick at deadline + grace resolves first and sends
    them after."""

    def passed(moment: datetime, graced: bool) -> set[tuple[str, str]]:
        return {(game.id, phase["key"]) for game in games
                for phase in past_deadline(game, store, moment, game.grace if graced else timedelta(0))}

    already = passed(now, graced=True)      # resolved by this tick, or waiting for the host: no reason to stop
    return lambda: bool(passed(clock(), graced=False) - already)


def in_grace(game: GameRun, store: Store, now: datetime) -> bool:
    """Whether a phase of the game has passed its deadline and resolves only at deadline + grace."""
    return len(past_deadline(game, store, now)) > len(past_deadline(game, store, now, game.grace))


def _seat_accounts_step(step: Callable, report: TickReport, forum: Any, store: Store, games: list[GameRun],
                        now: datetime) -> None:
    try:
        step(forum, store, games, now)
    except sqlite3.Error:   # the store itself fails: run_loop says so once, not per game
        raise
    except Exception as error:    # asked again at the next tick; the games go on
        log.exception("asking the forum about a replacement's account failed")
        report.errors.append(f"replacement accounts: {error}")


def _resolution_error(game: GameRun, store: Store, now: datetime, report: TickReport,
                      board_clock: Callable[[], datetime | None] | None = None) -> str | None:
    """Resolve what is due; an engine that fails stops this game where the host looks, not only in the
    log, and so does a deadline the board's clock says has not come."""
    try:
        catch_up(game, store, now, report, board_clock)
    except sqlite3.Error:   # the store itself fails: run_loop says so once, not per game
        raise
    except ClockAhead as ahead:
        report.errors.append(f"{game.id}: {ahead}")
        return str(ahead)
    except Exception as error:
        log.exception("game %s: resolving failed", game.id)
        report.errors.append(f"{game.id}: {error}")
        return f"resolving the game failed ({type(error).__name__}: {error}); it waits for a fix, see the log"
    return None


@contextlib.contextmanager
def _one_game(game: GameRun, report: TickReport) -> Iterator[None]:
    """One game's step of the tick: one broken game must not stop the others (logged, and in the
    tick's report); the store itself failing is not the game's, run_loop says so once."""
    try:
        yield
    except sqlite3.Error:
        raise
    except Exception as error:
        log.exception("game %s: tick failed", game.id)
        report.errors.append(f"{game.id}: {error}")


def _sync_step(step: Callable | None, report: TickReport, *args) -> tuple[Any, str | None]:
    """The step's report and its error for the host (note_sync logs it when the game stops), or
    None. A step that raises is an error of the same kind: the games it reads for wait, the tick goes on."""
    try:
        done = step(*args) if step is not None else None
        error = getattr(done, "error", None)
    except sqlite3.Error:   # the store itself fails: run_loop says so once, not per game
        raise
    except Exception as failure:
        log.exception("reading the forum failed")
        done, error = None, f"reading the forum failed ({type(failure).__name__}: {failure}); see the log"
    if error:
        report.errors.append(error)
    return done, error or None


def _inbox_step(edges: Edges, report: TickReport, forum_id: str, forum: Any, store: Store, now: datetime,
                moment: Callable[[], datetime], games: list[GameRun],
                threads: dict[str, tuple[Any, str | None]]) -> str | None:
    """Read the forum's PM inbox unless the thread pages just read count none unread and no
    whole read is due (forumgm.daemon.forum.housekeeping.inbox_check); its error, or None."""
    counts = [getattr(threads[game.id][0], "unread_pms", None) for game in games if game.id in threads]
    every = min((game.inbox_full_read for game in games), default=DEFAULT_FULL_READ)
    # a deadline has passed: its orders are read whether the pages count them unread or not
    due = any(past_deadline(game, store, now) for game in games)
    why = inbox_reason(counts, store.inbox_read_at(forum_id), now, every, due)
    if why is None:
        log.debug("forum %s: the thread pages count no unread PM; the inbox is not read", forum_id)
        return None
    log.debug("forum %s: reading the PM inbox (%s)", forum_id, why)
    _, error = _sync_step(edges.sync_inbox, report, forum_id, forum, store, moment())
    store.set_inbox_read(forum_id, None if error else now)     # a read that failed is made again at once
    return error


# ---------------------------------------------------------------- the game's start

def start_game(game: GameRun, store: Store, now: datetime | None = None) -> None:
    """Deal the game once: the setup snapshot, the role PMs the engine drafts, the first phase."""
    if store.latest_snapshot(game.id) is not None or game.config.signup_open:
        return      # dealt already, or the sign-up is still open (players = [])
    with store.transaction():
        if store.latest_snapshot(game.id) is not None:
            return
        config = game.config
        seed = TracedSeed(config.seed)
        state = game.rules.setup(game_setup(game.rules, config), seed)
        store.add_snapshot(game.id, SETUP, game.rules.dump(state), at=now)   # when it began: dealt_at
        store.add_rolls(game.id, SETUP, None, seed.draws)
        keep_dealt(game, store)         # the rules freeze: the table the game is dealt under
        seal_deal(game, store)          # ... and the public commitment to it, the seed and a salt
        for pm in role_drafts(game, store, state):
            draft(store, game.id, pm.kind, pm.to, pm.text, SETUP, approval=config.approval,
                  ref=f"{pm.kind}:{pm.to}", subject=pm.subject)
        first = game.rules.first_phase(state)
        _schedule(game, store, first, config.start)
        store.audit("daemon", "game.start", {"game": game.id})
    log.info("game %s dealt; first phase %s", game.id, first.key)


def _schedule(game: GameRun, store: Store, phase: Phase, after: datetime) -> None:
    opens, deadline = schedule(game.config, phase.kind, after)
    store.ensure_phase(game.id, phase.key, phase.kind, phase.number, opens, deadline)


def next_deadlines(game: GameRun, cutoff: datetime) -> dict[str, str]:
    """The deadline a phase of each kind would have if it followed this one, as the players read
    it (local time): texts drafted at a resolution may name it (arena: refill requests)."""
    out = {}
    for kind in game.config.calendar:
        _opens, deadline = schedule(game.config, kind, cutoff)
        out[kind] = deadline.astimezone(game.config.time_zone).strftime("%d.%m.%Y %H:%M")
    return out


def _state(game: GameRun, snapshot: dict) -> Any:
    return game.rules.load(snapshot["state"])


# ---------------------------------------------------------------- catch-up loop

def catch_up(game: GameRun, store: Store, now: datetime, report: TickReport,
             board_clock: Callable[[], datetime | None] | None = None) -> None:
    """Record inputs of the open phase and resolve it when due; repeat while phases are due.

    Only the oldest unresolved phase is open at a time: the next one is scheduled by the
    resolution of this one (the engine says which phase follows), so after downtime the
    deadlines are caught up one by one, each with the inputs timed before it. A game finished,
    by the host or by its rules, resolves nothing more; one he paused resolves nothing until he
    resumes it.
    """
    while not is_finished(store, game.id):
        pending = store.phases(game.id, status="pending")
        if not pending:
            if finish_by_engine(game, store, now):
                log.info("game %s: its rules ended it; winner: %s", game.id, store.game(game.id)["winner"])
            return
        phase_row = pending[0]
        state = _state(game, store.latest_snapshot(game.id))
        phase = Phase(phase_row["kind"], phase_row["number"])
        record_orders(game, store, state, phase, phase_row["deadline"])
        tally = record_votes(game, store, state, phase, phase_row)
        if tally is not None:
            draft_running_count(game, store, state, phase, phase_row, tally, now)
        elif (by_pm := pm_vote_tally(game, store, state, phase)) is not None:
            note_thread_votes(game, store, phase, phase_row, by_pm)    # a blue nick in its thread is no vote
        draft_before_deadline(game, store, state, phase, phase_row, now)
        if is_paused(store, game.id):
            return      # inputs are read and answered; nothing resolves until the host resumes
        if phase.key in {due["key"] for due in due_phases(game.config, now, store, game.grace)}:
            check_board_clock(board_clock, phase_row["deadline"] + game.grace, now, phase.key)
            cutoff = phase_row["deadline"]
        elif game.rules.complete_early(state, phase, order_pms(store.orders(game.id, phase.key), game.seats(store))):
            cutoff = now
        else:
            return
        if resolve_once(game, store, phase.key, cutoff, now):
            report.resolved.append(f"{game.id}/{phase.key}")


# ---------------------------------------------------------------- inputs

def record_orders(game: GameRun, store: Store, state: Any, phase: Phase, deadline: datetime) -> None:
    """Every new PM from a player timed before the deadline: its verdicts and a receipt draft."""
    seats = game.seats(store)
    roster = seats.roster()
    done = store.order_pm_ids(game.id)
    began = _began(store, game.id)
    bound = Bindings(store, game.forum_id)
    for pm in store.pms(game.forum_id, since=_inputs_since(store, game.id)):
        at = pm["sent_at"] or pm["seen_at"]
        if pm["pm_id"] in done or at >= deadline or (began is not None and at < began):
            continue      # read already, after this phase, or old mail from before the game (another game's)
        # an account spelt like a player with look-alike letters is someone else: only case is forgiven
        nick = account_player(pm["sender"], roster, at)
        if nick is None or the_players(bound, pm["sender"], pm["sender_id"]):
            continue      # not this game's player then: another game's, nobody's or a look-alike (stray_pms tells the host)
        own_words = pm["text"] if pm["text_unquoted"] is None else pm["text_unquoted"]
        order = OrderPm(nick, own_words, pm["pm_id"], at, seats.names(at))
        opens = before_start(store, game.id, phase, at)
        earlier = order_pms((o for o in store.orders(game.id, phase.key) if o["sender"] == nick), seats)
        read = read_pm(played_game(game), state, phase, order, earlier,
                       missed=None if opens is not None else missed_phase(store, game.id, phase, at), opens=opens,
                       next_opens=store.phase(game.id, phase.key)["opens_at"])
        with store.transaction():
            if not store.record_order(game.id, read.filed_as, pm["pm_id"], nick, at, order.text,
                                      [v.as_json() for v in read.verdicts]):
                continue
            draft(store, game.id, "receipt", nick, read.receipt, read.phase_key, approval=game.config.approval,
                  ref=f"receipt:{pm['pm_id']}", subject=f"Re: {pm['subject']}" if pm["subject"] else "")
            draft_late_pm(game, store, pm, at, nick, read.filed_as)     # a resolved phase never saw it


def _began(store: Store, game_id: str) -> datetime | None:
    """Since when a PM may be this game's: its first phase's opening (the configured start), or the
    deal when that came first (a PM after the roles went out is answered that the game has not
    started). A PM sent before both was written for something else (another game on the same
    account, the sign-up) and is no order of this one; a PM after the opening is, however late the
    daemon dealt the game (it was down at the start)."""
    dealt = store.dealt_at(game_id)
    if dealt is None:
        return None
    phases = store.phases(game_id)
    opens = phases[0]["opens_at"] if phases else None
    return min(dealt - DEALT_MARGIN, opens) if opens is not None else dealt - DEALT_MARGIN


def _inputs_since(store: Store, game_id: str) -> datetime | None:
    """A PM seen before the last resolved phase closed was read while that phase was open (or the
    game could not be read, and then that phase is still the open one): a tick reads only the PMs
    seen since, not every PM of the forum. A phase that completed early (Bellum's «ход готов» from
    everyone) closed when it resolved, days before its deadline: the next phase's PMs come from
    then. The margin covers a board's clock running ahead."""
    resolved = store.phases(game_id, status="resolved")
    closed = [min(p["deadline"], p["resolved_at"] or p["deadline"]) for p in resolved]
    return max(closed) - CLOCK_SKEW if closed else None


# ---------------------------------------------------------------- resolution

def resolve_once(game: GameRun, store: Store, phase_key: str, cutoff: datetime, now: datetime,
                 rerun: bool = False, by: str = "host") -> bool:
    """Resolve a phase in one transaction; False when it was already resolved (and not a re-run).

    A re-run starts again from the state the phase resolves from (the current outcome of the phase
    before it) and supersedes the drafts of the earlier resolution that were not sent yet.
    """
    game = game.seated(store, cutoff)
    with store.transaction():
        row = store.phase(game.id, phase_key)
        if row is None:
            raise StoreError(f"{game.id}: no phase {phase_key}")
        if row["status"] == "resolved" and not rerun:
            return False
        replaced = None
        if rerun:
            _check_rerun(store, game.id, row)
            replaced = (store.current_resolution(game.id, phase_key) or {}).get("id")
        snapshot = store.snapshot_before(game.id, phase_key) if rerun else store.latest_snapshot(game.id)
        state = _state(game, snapshot)
        phase = Phase(row["kind"], row["number"])
        tally = record_votes(game, store, state, phase, row, cutoff)
        inputs = PhaseInputs(
            orders=tuple(order_pms(store.orders(game.id, phase_key), game.seats(store))),
            tally=tally,
            post_urls=post_urls(game, tally),
            next_deadlines=next_deadlines(game, cutoff),
        )
        played = played_game(game)
        play = play_phase(played, state, phase, inputs)
        outcome = play.outcome
        resolution = store.begin_resolution(game.id, phase_key, now, rerun=rerun)
        store.add_rolls(game.id, phase_key, resolution, played.seed.draws)
        store.add_snapshot(game.id, phase_key, game.rules.dump(outcome.state), resolution)
        store.add_events(game.id, phase_key, resolution, [e.as_json() for e in outcome.events])
        for out in outcome.eliminated:
            store.add_elimination(game.id, phase_key, resolution, out.nick, out.cause)
        pictures = _pictures(game, store, phase_key, outcome.state)
        for made in play.drafts:
            body = with_mark(made.body) if made.report and pictures else made.body
            draft(store, game.id, made.kind, made.target, body, phase_key, approval=game.config.approval,
                  subject=made.subject, resolution_id=resolution, pictures=pictures if made.report else [])
            if made.report:
                pictures = []       # the first report carries them
        following = game.rules.next_phase(outcome.state, phase)
        if following is not None:
            _schedule(game, store, following, cutoff)
        if rerun:
            store.audit(by, "phase.rerun", {"game": game.id, "phase": phase_key, "resolution": resolution,
                                            "replaced": replaced})
        else:
            store.audit("daemon", "phase.resolve", {"game": game.id, "phase": phase_key, "resolution": resolution})
    log.info("game %s: phase %s resolved%s", game.id, phase_key, " again" if rerun else "")
    return True


def played_game(game: GameRun) -> PlayedGame:
    """The game as its phase plays, with a seed that keeps the phase's rolls for its record."""
    return PlayedGame(game.rules, game.texts, game.config.type, game.id, TracedSeed(game.config.seed), game.post_url,
                      game.config.time_zone)


def _pictures(game: GameRun, store: Store, phase_key: str, state: Any) -> list[Path]:
    """The files of the maps the engine draws of the new position (optional: `Rules.maps`)."""
    maps = game.rules.maps
    return [] if maps is None else save_pictures(store.path, game.id, phase_key, drawn_maps(maps, state))


def _check_rerun(store: Store, game_id: str, row: dict) -> None:
    """A phase resolved later goes on from the old outcome: re-run it too (host_actions.rerun does, in order)."""
    if row["status"] != "resolved":
        raise StoreError(f"{game_id}: phase {row['key']} is not resolved yet; nothing to re-run")
