"""The kill mode of the probe campaign
(bench/probe.py kills [kills] [seed] [phase_seconds] [max_phases] [examples]).

A real `forumgm run` daemon (its own process, on `--start-at`/`--speed`) hosts shipped examples at
once (by default Legends and Mafia; `examples`: names of config/games/NAME.example.toml, comma
separated) on the local forum, served here; the engines' stand-ins play them
(offline.rehearse) and the host approves every draft not addressed to himself, as `rehearse
--autoplay --auto-approve` does. The daemon is stopped again and again, each time started anew:
- SIGKILL or SIGTERM at a random moment;
- inside the board's handler just after it took a host's reply or PM, before its answer went
  back; or a few milliseconds after the answer went;
- while the daemon holds the store's write lock after a phase's deadline (the resolution's one
  transaction, sure enough when the phase is found unresolved after the kill).
The board's clock runs only while a daemon runs (a start-up takes real seconds the daemon's own
clock does not count); now and then the daemon stays down for game hours, so several deadlines
are caught up at once. Once the kills are done the last games are played to their end without
them; then every round (a fresh board and store, its games to their end, or to its cap of
`max_phases`: then the host pauses what still runs and the daemon sends what waits) is checked from the
board and the store: every host post and PM on the board recorded by exactly one sent draft,
no draft left unsent, every phase resolved exactly once, every player's PM answered by exactly
one receipt on the board.
"""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from random import Random

from forumgm.daemon.host_actions.pause import pause_game
from forumgm.daemon.offline.hosting import HOST, PASSWORD_ENV
from forumgm.daemon.offline.localforum import Board, LocalForum
from forumgm.daemon.offline.rehearse import RehearsalScript, rehearsal_copy
from forumgm.daemon.runtime.loop import game_runs
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.settings.records import DEADLINE_GRACE
from forumgm.daemon.store import Store, StoreError
from forumgm.daemon.tick.finish import is_finished

GAMES = Path(__file__).resolve().parent.parent / "config" / "games"
EXAMPLES = ("legends", "mafia")     # config/games/NAME.example.toml, on topics 2, 3, … of the board in turn
# Legends' example has them too: an account plays in one game of a board
MAFIA_NICKS = {"Аскон": "Арсен", "Хан": "Харитон", "Лиса": "Лина"}
HOST_PASSWORD = "host-secret"
START = datetime(2026, 3, 2, 17, 50, tzinfo=timezone.utc)      # 20:50 in Moscow, before both games open
ANSWERED = 0.02                     # "after the answer": up to this long after the board's handler returned
DOWN = 0.1                          # the chance that the daemon stays down for game hours
MOMENTS = ("random", "reply taken", "reply answered", "pm taken", "pm answered", "resolution")
HOLD = (0.002, 0.03)                # seconds the lock is held past a deadline before the signal
SIGTERMS = 0.2                      # the share of stops that are SIGTERMs


class BoardTime:
    """The board's clock: game time at `speed` while a daemon runs, standing still while none does."""

    def __init__(self, start: datetime, speed: float) -> None:
        self.base, self.speed, self.origin = start, speed, None

    def now(self) -> datetime:
        if self.origin is None:
            return self.base
        return self.base + timedelta(seconds=(time.monotonic() - self.origin) * self.speed)

    def run(self) -> None:
        self.origin = time.monotonic()

    def stop(self, skip: timedelta = timedelta(0)) -> None:
        self.base, self.origin = self.now() + skip, None


@dataclass
class Trap:
    """Stops the daemon from inside the board's handler when it takes the host's text of `kind`."""

    kind: str | None = None         # "reply" or "pm": armed
    answered: bool = False          # stop after the answer went, not before
    stop: object = None             # () -> None, the signal
    fired: threading.Event = field(default_factory=threading.Event)

    def arm(self, kind: str, answered: bool, stop) -> None:
        self.fired.clear()
        self.kind, self.answered, self.stop = kind, answered, stop

    def taken(self, kind: str, author: str) -> None:
        if self.kind != kind or author != HOST:
            return
        self.kind = None
        self.fired.set()
        if self.answered:    # the handler returns first; its answer is on its way when the signal comes
            threading.Timer(Random().uniform(0, ANSWERED), self.stop).start()
        else:
            self.stop()
            time.sleep(0.05)        # (a SIGKILL has ended the process by then: the answer goes nowhere)


def trapped_board(clock: BoardTime, trap: Trap, players: list[str], examples: tuple[str, ...]) -> Board:
    # (as the soak's: hundreds of orders outgrow phpBB's default inbox of 50, which the host would empty)
    board = Board(clock=clock.now, title="forumgm: kills", form_clock=time.time, attachments=True,
                  posts_per_page=20, pm_folder_limit=100_000)
    board.add_user(HOST, HOST_PASSWORD, admin=True)
    for nick in players:
        board.add_user(nick, "pw")
    for name in examples:       # topics 2, 3, …, in turn
        board.add_topic(HOST, f"Игра {name}", "Тема игры.")
    reply, send_pm = board.reply, board.send_pm

    def trapped_reply(author, *args, **kwargs):
        post = reply(author, *args, **kwargs)
        trap.taken("reply", author)
        return post

    def trapped_pm(sender, *args, **kwargs):
        pm = send_pm(sender, *args, **kwargs)
        trap.taken("pm", sender)
        return pm
    board.reply, board.send_pm = trapped_reply, trapped_pm
    return board


def game_file(name: str, topic: int, forum_url: str) -> str:
    path = GAMES / f"{name}.example.toml"
    text = rehearsal_copy(path, path.read_text(encoding="utf-8"), f"{forum_url}viewtopic.php?t={topic}")
    if name == "mafia":
        for old, new in MAFIA_NICKS.items():
            text = text.replace(f'"{old}"', f'"{new}"')
    return text


def write_config(folder: Path, forum_url: str, speed: float, examples: tuple[str, ...]) -> Path:
    games = folder / "games"
    games.mkdir(parents=True, exist_ok=True)
    for topic, name in enumerate(examples, 2):
        (games / f"{name}.toml").write_text(game_file(name, topic, forum_url), encoding="utf-8")
    listed = ", ".join(f'"games/{name}.toml"' for name in examples)
    poll = round(1.5 * speed)      # game seconds: a tick every 1.5 real seconds, and at every deadline
    config = folder / "forumgm.toml"
    config.write_text(f'''games = [{listed}]

[forum]
id = "local"
engine = "phpbb"
base_url = "{forum_url}"
account = "{HOST}"
time_zone = "UTC"
password_env = "{PASSWORD_ENV}"
min_interval = 0.05
posts_per_page = 20

[storage]
path = "forumgm.sqlite"

[daemon]
poll_interval = {poll}
poll_near = {poll}
near_deadline = 0
deadline_grace = {DEADLINE_GRACE}
inbox_full_read = {2 * poll}
''', encoding="utf-8")
    return config


class Daemon:
    """One `forumgm run` process; its log kept to name what went wrong."""

    def __init__(self, config: Path, start_at: datetime, speed: float) -> None:
        env = {**os.environ, PASSWORD_ENV: HOST_PASSWORD}
        self.kept = (config.parent / "daemon.log").open("a", encoding="utf-8")   # every daemon's log, in turn
        self.process = subprocess.Popen(
            [sys.executable, "-m", "forumgm.daemon.cli", "run", "--config", str(config), "--start-at",
             start_at.isoformat(), "--speed", f"{speed:g}", "--log-level", "INFO"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.log: list[str] = []
        self.running = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.process.stderr:
            self.log.append(line)
            self.kept.write(line)
            self.kept.flush()
            if "forumgm running" in line:
                self.running.set()

    def signal(self, signum: int) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signum)

    def ended(self) -> int:
        """Its exit code, once its log is read to the end."""
        code = self.process.wait(timeout=300)
        self.reader.join()
        self.kept.close()
        return code

    def errors(self) -> list[str]:
        return [line for line in self.log if " ERROR " in line or "Traceback" in line]


class Round:
    """A fresh board and store hosting both examples, by one daemon after another."""

    def __init__(self, folder: Path, speed: float, random: Random, max_phases: int, examples: tuple[str, ...],
                 wait: float) -> None:
        self.folder, self.speed, self.random, self.wait = folder, speed, random, wait
        self.clock = BoardTime(START, speed)
        self.trap = Trap()
        players = [p.nick for topic, name in enumerate(examples, 2) for p in self._game_players(name, topic)]
        if len(set(players)) < len(players):
            raise ValueError(f"the examples {', '.join(examples)} share players: an account plays in one game "
                             "of a board")
        self.server = LocalForum(trapped_board(self.clock, self.trap, sorted(players), examples)).start()
        self.config = write_config(folder, self.server.url, speed, examples)
        self.games = game_runs(load_installation(self.config))
        self.script = RehearsalScript(lambda: self.games, autoplay=True, max_phases=max_phases)
        self.holds: list[float] = []             # how long the daemon held the write lock past a deadline
        self.store: Store | None = None
        self.stops: Counter = Counter()          # (moment, signal) -> stops
        self.sigterm_exits: Counter = Counter()  # a SIGTERM's exit code -> stops
        self.errors: list[str] = []
        self.paused: set[str] = set()           # games the host paused at the round's cap

    @staticmethod
    def _game_players(name: str, topic: int):
        from forumgm.daemon.settings.game import load_game
        with tempfile.TemporaryDirectory() as scratch:
            copy = Path(scratch) / f"{name}.toml"
            copy.write_text(game_file(name, topic, "http://127.0.0.1:9/"), encoding="utf-8")
            return load_game(copy).players

    # -- one daemon's life
    def start(self) -> Daemon:
        daemon = Daemon(self.config, self.clock.now(), self.speed)
        if not daemon.running.wait(120):
            daemon.signal(signal.SIGKILL)
            raise RuntimeError("the daemon did not start:\n" + "".join(daemon.log))
        self.clock.run()
        if self.store is None:          # the daemon made the store: the host's side opens it now
            self.store = Store(self.folder / "forumgm.sqlite", now=self.clock.now)
        return daemon

    def host_and_players(self) -> None:
        if not self.over():
            self.script.act(self.server.board, self.store, self.clock.now())
        elif due_phase(self.store.db.conn, self.clock.now()) is None:
            self.pause_at_the_cap()
        for draft in self.store.drafts(status="pending"):
            if draft["target"] != HOST:        # the host's own notices he reads on his page
                try:
                    self.store.approve(draft["id"], by="kills host")
                except StoreError:      # superseded meanwhile
                    pass

    def over(self) -> bool:
        return self.store is not None and self.script.over(self.store) is not None

    def pause_at_the_cap(self) -> None:
        """The round's `max_phases` are resolved and none is due: the host pauses the games still
        running, so that the daemon sends what waits and resolves nothing more (else a game that does
        not end keeps the round going)."""
        for game in self.games:
            if game.id not in self.paused and not is_finished(self.store, game.id):
                pause_game(self.store, game.id, "kills host", self.clock.now())
                self.paused.add(game.id)

    def kill_once(self) -> None:
        """Start a daemon, stop it at a moment of a randomly chosen kind, wait for its end."""
        moment = self.random.choice(MOMENTS)
        signum = signal.SIGTERM if self.random.random() < SIGTERMS else signal.SIGKILL
        daemon = self.start()
        stop = lambda: daemon.signal(signum)        # noqa: E731
        fired = threading.Event()
        watcher = None
        if moment in ("reply taken", "reply answered", "pm taken", "pm answered"):
            self.trap.arm(moment.split()[0], moment.endswith("answered"), stop)
            fired = self.trap.fired
        elif moment == "resolution":
            watcher = ResolutionWatch(self.folder / "forumgm.sqlite", self.clock, stop, self.random.uniform(*HOLD))
            fired = watcher.fired
            watcher.start()
        at = time.monotonic() + (self.random.uniform(0.2, 6) if moment == "random" else self.wait)
        while not fired.is_set() and time.monotonic() < at and daemon.process.poll() is None:
            self.host_and_players()
            time.sleep(0.02)
        self.trap.kind = None
        if watcher is not None:
            watcher.stop.set()
            watcher.join()
            self.holds += watcher.holds
        if daemon.process.poll() is not None and not fired.is_set():
            self.errors.append(f"the daemon ended by itself, exit {daemon.process.returncode}")
            moment = "ended by itself"
        elif not fired.is_set():
            if moment != "random":
                moment = f"{moment}: none in {self.wait:g} s, stopped then"
            stop()
        code = daemon.ended()
        if watcher is not None and fired.is_set():      # (a SIGTERM lets the tick, and its resolution, finish)
            moment = "resolution, unresolved after" if watcher.unresolved() else "resolution, resolved after"
        if signum == signal.SIGTERM:
            self.sigterm_exits[code] += 1
        self.errors += daemon.errors()
        self.clock.stop(timedelta(hours=self.random.uniform(1, 12)) if self.random.random() < DOWN else timedelta(0))
        self.stops[(moment, signal.Signals(signum).name)] += 1
        print(f"{sum(self.stops.values()):4} {signal.Signals(signum).name} {moment}, exit {code}, game time "
              f"{self.clock.now():%d.%m %H:%M}", file=sys.stderr, flush=True)

    def play_out(self, limit: float = 900) -> None:
        """One daemon, no kills, until both games are over and nothing waits to be sent; then SIGTERM."""
        daemon = self.start()
        ends = time.monotonic() + limit
        quiet_since = None
        while time.monotonic() < ends and daemon.process.poll() is None:
            self.host_and_players()
            drafts = self.store.drafts()
            waiting = [d for d in drafts if d["status"] in ("approved", "sending")
                       or (d["status"] == "pending" and d["target"] != HOST)]
            quiet = self.over() and not waiting and due_phase(self.store.db.conn, self.clock.now()) is None
            quiet_since = (quiet_since or time.monotonic()) if quiet else None
            # (the players act no more: quiet once their every PM has its receipt, else after two polls)
            if quiet_since is not None and (self.receipts_drafted(drafts) or time.monotonic() - quiet_since > 3):
                break
            time.sleep(0.05)
        self.quiet_at = self.clock.now()         # no phase was due then: every one due before is resolved
        daemon.signal(signal.SIGTERM)
        code = daemon.ended()
        if code != 0:
            self.errors.append(f"the last daemon's SIGTERM: exit {code}")
        self.errors += daemon.errors()
        self.clock.stop()

    def receipts_drafted(self, drafts: list[dict]) -> bool:
        """Whether the daemon has read every PM sent to the host: each has its receipt drafted."""
        board = self.server.board
        host_id = board.user_named(HOST).id
        drafted = {d["ref"] for d in drafts if d["kind"] == "receipt"}
        return all(f"receipt:{pm.id}" in drafted for pm in list(board.pms.values()) if pm.recipient_id == host_id)

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
        self.server.stop()


def due_phase(db, now: datetime) -> tuple[str, str] | None:
    """A running (not paused) game's phase past its deadline and grace, not resolved yet."""
    for game_id, key, deadline in db.execute(
            "SELECT p.game_id, p.key, p.deadline FROM phases p JOIN games g ON g.id = p.game_id "
            "WHERE p.status = 'pending' AND g.finished_at IS NULL AND g.paused_at IS NULL"):
        if datetime.fromisoformat(deadline) + timedelta(seconds=DEADLINE_GRACE) <= now:
            return game_id, key
    return None


class ResolutionWatch(threading.Thread):
    """Stops the daemon once it has held the store's write lock `hold` seconds while a phase of a
    running game is past its deadline and grace and not yet resolved (its resolution is the tick's
    one long transaction)."""

    def __init__(self, path: Path, clock: BoardTime, stop, hold: float) -> None:
        super().__init__(daemon=True)
        self.path, self.clock, self.signal, self.hold = path, clock, stop, hold
        self.fired, self.stop = threading.Event(), threading.Event()
        self.phase: tuple[str, str] | None = None
        self.holds: list[float] = []

    def run(self) -> None:
        db = sqlite3.connect(str(self.path), timeout=0, isolation_level=None)
        held_since = None
        try:
            while not self.stop.is_set():
                phase = due_phase(db, self.clock.now())
                if phase is None:
                    held_since = None
                    time.sleep(0.005)
                    continue
                try:
                    db.execute("BEGIN IMMEDIATE")
                    db.execute("ROLLBACK")
                    if held_since is not None:
                        self.holds.append(time.monotonic() - held_since)
                    held_since = None
                except sqlite3.OperationalError:       # the daemon is inside a write
                    held_since = held_since or time.monotonic()
                    if time.monotonic() - held_since >= self.hold:
                        self.phase = phase
                        self.signal()
                        self.fired.set()
                        return
                time.sleep(0.001)
        finally:
            db.close()

    def unresolved(self) -> bool:
        with sqlite3.connect(str(self.path)) as db:
            row = db.execute("SELECT status FROM phases WHERE game_id = ? AND key = ?", self.phase).fetchone()
        return row[0] == "pending"


# ---------------------------------------------------------------- the checks

@dataclass
class Checked:
    phases: int = 0                 # phases resolved
    resolved_twice: int = 0         # phases with more than one resolution or snapshot
    unresolved: int = 0             # phases past their deadline left pending
    games_over: int = 0             # of the round's two (else it ended at its phase cap)
    sent: int = 0                   # drafts recorded sent
    on_board_twice: int = 0         # host texts on the board no sent draft records, or one records twice
    lost: int = 0                   # drafts left approved/sending, or recorded sent and not on the board
    refused: int = 0                # drafts the board refused, back to the host (the local board takes every text)
    pms: int = 0                    # players' PMs to the host
    receipts_once: int = 0
    receipts_wrong: int = 0         # a PM with no receipt, or with more than one
    notes: list[str] = field(default_factory=list)


def check(round_: Round) -> Checked:
    board, out = round_.server.board, Checked()
    db = sqlite3.connect(str(round_.folder / "forumgm.sqlite"))
    name = {user.id: user.name for user in board.users.values()}
    host_id = board.user_named(HOST).id
    first_posts = {topic.post_ids[0] for topic in board.topics.values()}
    posts = {str(p.id): p for p in board.posts.values() if p.author_id == host_id and p.id not in first_posts}
    pms = {str(m.id): m for m in board.pms.values() if m.sender_id == host_id}
    claimed: Counter = Counter()
    for draft_id, target, status, ref in db.execute("SELECT id, target, status, forum_ref FROM drafts"):
        if status in ("approved", "sending"):
            out.lost += 1
            out.notes.append(f"draft {draft_id} left {status}")
        if status != "sent":
            continue
        out.sent += 1
        text = posts.get(ref) if target == "thread" else pms.get(ref)
        if text is None or (target != "thread" and name[text.recipient_id] != target):
            out.lost += 1
            out.notes.append(f"draft {draft_id} recorded sent as {ref}, not on the board so")
        claimed[(target == "thread", ref)] += 1
    for thread, texts in ((True, posts), (False, pms)):
        for ref in texts:
            if claimed[(thread, ref)] != 1:
                out.on_board_twice += 1
                out.notes.append(f"{'post' if thread else 'PM'} {ref} on the board recorded by "
                                 f"{claimed[(thread, ref)]} sent drafts")
    for game_id, key, count in db.execute("SELECT game_id, phase_key, COUNT(*) FROM resolutions GROUP BY 1, 2"):
        out.phases += 1
        snapshots = db.execute("SELECT COUNT(*) FROM snapshots WHERE game_id = ? AND phase_key = ?",
                               [game_id, key]).fetchone()[0]
        if count != 1 or snapshots != 1:
            out.resolved_twice += 1
            out.notes.append(f"{game_id}/{key}: {count} resolutions, {snapshots} snapshots")
    for game_id, key, deadline, paused_at in db.execute(
            "SELECT p.game_id, p.key, p.deadline, g.paused_at FROM phases p JOIN games g ON g.id = p.game_id "
            "WHERE p.status = 'pending'"):
        # (a game paused at the round's cap resolves nothing after it: none was due then)
        now = min(round_.quiet_at, datetime.fromisoformat(paused_at)) if paused_at else round_.quiet_at
        if datetime.fromisoformat(deadline) + timedelta(seconds=DEADLINE_GRACE) < now:
            out.unresolved += 1
            out.notes.append(f"{game_id}/{key}: past its deadline, not resolved")
    out.refused = db.execute("SELECT COUNT(*) FROM audit WHERE action = 'draft.refused'").fetchone()[0]
    out.games_over = db.execute("SELECT COUNT(*) FROM games WHERE finished_at IS NOT NULL").fetchone()[0]
    players = {p.nick for game in round_.games for p in game.config.players}
    for pm in board.pms.values():
        if pm.recipient_id != host_id or name[pm.sender_id] not in players:
            continue
        out.pms += 1
        receipts = db.execute("SELECT status, forum_ref FROM drafts WHERE ref = ? AND kind = 'receipt'",
                              [f"receipt:{pm.id}"]).fetchall()
        answered = [ref for status, ref in receipts if status == "sent" and ref in pms
                    and pms[ref].recipient_id == pm.sender_id]
        if len(receipts) == 1 and len(answered) == 1:
            out.receipts_once += 1
        else:
            out.receipts_wrong += 1
            out.notes.append(f"PM {pm.id} from {name[pm.sender_id]}: receipts {receipts}")
    db.close()
    return out


# ---------------------------------------------------------------- the campaign

def campaign(kills: int, seed: int = 1, phase_seconds: float = 60, max_phases: int = 60,
             examples: tuple[str, ...] = EXAMPLES) -> tuple[Counter, Counter, list[Checked], list[str], list[float]]:
    """(stops by (moment, signal), SIGTERM exit codes, each round's checks, errors the daemons logged,
    how long the daemon held the write lock past a deadline). A round ends when its games are over
    or `max_phases` are resolved (RehearsalScript.over). A kill waits for its moment up to
    `phase_seconds`, a game day's real length, before it is made anyway (no host PM in a Legends day)."""
    random = Random(seed)
    speed = 24 * 3600 / phase_seconds          # a Mafia round (23:45 h) in about `phase_seconds`
    stops, exits, rounds, errors, holds = Counter(), Counter(), [], [], []
    with tempfile.TemporaryDirectory() as scratch:
        while sum(stops.values()) < kills:
            round_ = Round(Path(scratch) / f"round-{len(rounds) + 1}", speed, random, max_phases, examples,
                           wait=phase_seconds)
            try:
                while sum(stops.values()) + sum(round_.stops.values()) < kills and not round_.over():
                    round_.kill_once()
                round_.play_out()
                rounds.append(check(round_))
            finally:
                round_.close()
            stops += round_.stops
            exits += round_.sigterm_exits
            errors += round_.errors
            holds += round_.holds
    return stops, exits, rounds, errors, holds


def report(kills: int, seed: int = 1, phase_seconds: float = 60, max_phases: int = 60,
           examples: tuple[str, ...] = EXAMPLES) -> int:
    """Prints the campaign's tables; returns how many things went wrong."""
    started = time.monotonic()
    stops, exits, rounds, errors, holds = campaign(kills, seed, phase_seconds, max_phases, examples)
    signals = ("SIGKILL", "SIGTERM")
    print(f"\nA forumgm run daemon stopped {sum(stops.values())} times ({len(rounds)} rounds, {' and '.join(examples)} "
          f"each; a phase of up to a day in about {phase_seconds:g} s; {time.monotonic() - started:.0f} s)")
    print("| moment | SIGKILL | SIGTERM |\n|---|---|---|")
    for moment in sorted({m for m, _ in stops}):
        print(f"| {moment} | {' | '.join(str(stops[(moment, s)]) for s in signals)} |")
    print(f"SIGTERM exits: {dict(sorted(exits.items()))}")
    if holds:
        holds.sort()
        print(f"write lock held past a deadline, without a signal: {len(holds)} times, median "
              f"{holds[len(holds) // 2] * 1000:.0f} ms, longest {holds[-1] * 1000:.0f} ms")
    heads = ("round", "games over", "phases resolved", "resolved twice", "left unresolved", "drafts sent",
             "on the board twice", "lost", "refused, back to the host", "players' PMs", "one receipt each", "no or two receipts")
    print(f"\n| {' | '.join(heads)} |\n|{'---|' * len(heads)}")
    for n, r in enumerate(rounds, 1):
        print(f"| {n} | {r.games_over} | {r.phases} | {r.resolved_twice} | {r.unresolved} | {r.sent} | {r.on_board_twice} | "
              f"{r.lost} | {r.refused} | {r.pms} | {r.receipts_once} | {r.receipts_wrong} |")
    for r in rounds:
        for note in r.notes:
            print(f"  {note}")
    wrong = sum(r.resolved_twice + r.unresolved + r.on_board_twice + r.lost + r.refused + r.receipts_wrong
                for r in rounds)
    wrong += sum(n for code, n in exits.items() if code != 0)
    print(f"errors the daemons logged: {len(errors)}")
    for line in errors[:20]:
        print(f"  {line.rstrip()}")
    print(f"\nlost, doubled, resolved twice or unanswered: {wrong}")
    return wrong

