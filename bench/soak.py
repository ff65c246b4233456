"""Soak benchmark (run by hand): a month unattended on the local forum.

    python bench/soak.py [days]        (default 30)
    python bench/soak.py [days] rush [seconds]   (default 1 day, 25 s; a fraction of a day too) the late
                                       rush: phases of 6-8 hours, and every order PM of a phase sent in
                                       its last `seconds` before the deadline

The real daemon loop (`run_loop`) hosts a 30-player Legends game and an 8-player Mafia game on
the local forum (a child process, so its CPU and memory are not the daemon's) with the polite
rate limit on (1 s between requests). Game time is virtual: it stands still while the daemon
works and jumps when the loop sleeps or the HTTP client pauses, so a month takes minutes; every
real second the daemon spends is added to the latencies. Players act during the HTTP client's
pauses as during the loop's sleep, each at its moment (a rush goes on while a tick reads); they
post in the threads, vote, and send their orders by PM at random times (more of them in the last hour before a deadline);
three accounts that play nothing write to the host now and then. The host approves every draft
between ticks, except those addressed to himself (notices, digests: he reads them on his page).

Prints, per game day: ticks, requests, daemon CPU, RSS, SQLite size, the slowest tick; then
every phase's deadline-to-drafts latency (from deadline + grace to the end of the tick that
resolved it, virtual plus real time); in the late rush also how many orders came in its last seconds
and when the last of their receipts was sent.
"""
from __future__ import annotations

import dataclasses
import heapq
import logging
import math
import multiprocessing
import os
import random
import re
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable

from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.settings.records import DEADLINE_GRACE
from forumgm.daemon.forum import open_forum
from forumgm.daemon.offline.localforum import Board
from forumgm.daemon.runtime.loop import Daemon, StopFlag, run_loop
from forumgm.daemon.store import Store

from measure import ForumProcess, machine, rss_mb

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
HOST, HOST_PASSWORD, PASSWORD_ENV = "Ведущий", "host-secret", "FORUMGM_SOAK_PASSWORD"
START = datetime(2026, 3, 2, 17, 0, tzinfo=timezone.utc)       # 20:00 in Moscow, before both games open
# the Mafia scenario's players renamed: the same forum hosts both games, and an account plays in one
MAFIA_NICKS = {"Аскон": "Owl", "Хан": "Raven", "Лиса": "Fox", "Бук": "Beech", "Зорро": "Lynx",
               "Тора": "Wren", "Марк": "Mark", "Кума": "Hazel"}
MAFIA_STEMS = {"Аскон": "Аскон", "Хан": "Хан", "Лиса": "Лис", "Бук": "Бук", "Зорро": "Зорро",
               "Тора": "Тор", "Марк": "Марк", "Кума": "Кум"}
OUTSIDERS = ("Гость1", "Гость2", "Гость3")
CHATTER = ("Доброе утро всем.", "Кто что думает о вчерашнем?", "Я пока присматриваюсь.",
           "Подозрительно тихо сегодня.", "[b]Важно:[/b] читайте итоги внимательно.",
           "[quote]Кто-то писал выше[/quote]Не согласен.", "Вечером буду поздно.")


class VirtualClock:
    """Game time in a shared double: the local forum's process reads the same value."""

    def __init__(self, value):
        self.value = value

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.value.value, timezone.utc)

    def monotonic(self) -> float:
        return self.value.value

    def sleep(self, seconds: float) -> None:
        self.value.value += seconds


def soak_board(clock: Callable[[], datetime], players: list[str]) -> Board:
    # a month of orders outgrows phpBB's default inbox of 50 (the host would empty it by hand); the
    # record post at a game's end attaches its archive
    board = Board(clock=clock, posts_per_page=20, pm_folder_limit=100_000, attachments=True)
    board.add_user(HOST, HOST_PASSWORD, admin=True)
    for nick in players:
        board.add_user(nick, "pw")
    board.add_topic(HOST, "Легенды: партия", "Днём голосуем ником [color=blue]синим[/color].")
    board.add_topic(HOST, "Мафия: партия", "Ходы и голоса — в личку ведущему.")
    return board


# ---------------------------------------------------------------- the games

def scenario(name: str) -> dict:
    with open(SCENARIOS / name, "rb") as handle:
        return tomllib.load(handle)


def mafia_text(text: str) -> str:
    for old, stem in MAFIA_STEMS.items():
        text = re.sub(rf"\b{stem}[а-яё]*", MAFIA_NICKS[old], text)
    return text


@dataclass
class Script:
    """What the players of one game do in each phase: (sender, text) PMs and (voter, target) thread votes."""

    game_id: str
    topic: int
    players: list[str]
    pms: dict[tuple[str, int], list[tuple[str, str]]] = field(default_factory=dict)
    votes: dict[tuple[str, int], list[tuple[str, str]]] = field(default_factory=dict)


def legends_script() -> Script:
    table = scenario("legends/game30.toml")
    script = Script("legends-soak", 2, [p["nick"] for p in table["setup"]["players"]])
    for phase in table["phases"]:
        key = (phase["kind"], phase["number"])
        script.pms[key] = [(nick, text) for nick, text in phase.get("orders", {}).items()]
        script.votes[key] = [(nick, target) for nick, target in phase.get("votes", {}).items()]
    return script


def mafia_script() -> Script:
    table = scenario("mafia/full_game.toml")
    script = Script("mafia-soak", 3, [MAFIA_NICKS[p["nick"]] for p in table["setup"]["players"]])
    for phase in table["phases"]:
        script.pms[(phase["kind"], phase["number"])] = [
            (MAFIA_NICKS[pm["from"]], mafia_text(pm["text"])) for pm in phase.get("pms", [])]
    return script


@dataclass(frozen=True)
class Pace:
    """The games' calendars and the daemon's polling: a month's by default, shorter in the suite."""

    legends_night: str = "3d"
    legends_day: str = "2d"
    mafia_round: str = "4d"
    poll_interval: int = 600
    poll_near: int = 30
    near_deadline: int = 3600
    inbox_full_read: int = 1800
    chatter: float = 0.7            # the chance that a game's thread gets a post in a given hour
    rush: float | None = None       # every order PM sent this many seconds before the deadline or later


# A late rush: 30 players' orders in the last 25 s used to hold the resolution back 68-109 s (their
# receipts were sent first, at the polite rate); short phases put several deadlines in a day
RUSH = Pace(legends_night="6h", legends_day="6h", mafia_round="8h", rush=25)


def write_config(folder: Path, forum_url: str, pace: Pace = Pace()) -> Path:
    legends = scenario("legends/game30.toml")
    mafia = scenario("mafia/full_game.toml")
    legends_players = "\n".join(f'[[players]]\nnick = "{p["nick"]}"\n' for p in legends["setup"]["players"])
    mafia_players = "\n".join(f'[[players]]\nnick = "{MAFIA_NICKS[p["nick"]]}"\nrole = "{p["role"]}"\n'
                              for p in mafia["setup"]["players"])
    approvals = "[approval]\nreceipt = false\n"
    (folder / "legends.toml").write_text(f'''id = "legends-soak"
type = "legends"
thread_url = "{forum_url}viewtopic.php?t=2"
seed = {legends["seed"]}
time_zone = "Europe/Moscow"
start = 2026-03-02T21:00:00
vote_colors = ["blue"]

{legends_players}
[calendar.night]
duration = "{pace.legends_night}"

[calendar.day]
duration = "{pace.legends_day}"

{approvals}''', encoding="utf-8")
    (folder / "mafia.toml").write_text(f'''id = "mafia-soak"
type = "mafia"
thread_url = "{forum_url}viewtopic.php?t=3"
seed = {mafia["seed"]}
time_zone = "Europe/Moscow"
start = 2026-03-02T23:00:00

{mafia_players}
[calendar.round]
duration = "{pace.mafia_round}"

{approvals}''', encoding="utf-8")
    config = folder / "forumgm.toml"
    config.write_text(f'''games = ["legends.toml", "mafia.toml"]

[forum]
id = "local"
engine = "phpbb"
base_url = "{forum_url}"
account = "{HOST}"
password_env = "{PASSWORD_ENV}"
time_zone = "UTC"
posts_per_page = 20
min_interval = 1.0

[storage]
path = "forumgm.sqlite"

[daemon]
poll_interval = {pace.poll_interval}
poll_near = {pace.poll_near}
near_deadline = {pace.near_deadline}
deadline_grace = {DEADLINE_GRACE}
inbox_full_read = {pace.inbox_full_read}
''', encoding="utf-8")
    return config


# ---------------------------------------------------------------- the players

class Players:
    """Due actions in game-time order; a phase's orders are planned when the daemon opens it."""

    def __init__(self, scripts: list[Script], act: Callable[[tuple], Any], seed: int = 1, rush: float | None = None):
        self.scripts, self.act, self.rush = scripts, act, rush
        self.random = random.Random(seed)
        self.queue: list[tuple[float, int, tuple]] = []
        self.planned: set[tuple[str, str]] = set()
        self.count = 0
        self.done = 0

    def push(self, at: datetime, action: tuple) -> None:
        self.count += 1
        heapq.heappush(self.queue, (at.timestamp(), self.count, action))

    def plan_chatter(self, start: datetime, days: float, chance: float) -> None:
        for day in range(math.ceil(days)):
            for hour in range(24):
                moment = start + timedelta(days=day, hours=hour)
                for script in self.scripts:
                    if self.random.random() < chance:
                        author = self.random.choice(script.players)
                        self.push(moment + timedelta(minutes=self.random.uniform(0, 59)),
                                  ("post", author, script.topic, self.random.choice(CHATTER)))
                if hour % 8 == 0:
                    self.push(moment + timedelta(minutes=self.random.uniform(0, 59)),
                              ("pm", self.random.choice(OUTSIDERS), "вопрос", "Когда следующая игра?"))

    def plan_phases(self, store: Store, now: datetime) -> None:
        for script in self.scripts:
            pending = store.phases(script.game_id, status="pending")
            if not pending or (script.game_id, pending[0]["key"]) in self.planned:
                continue
            phase = pending[0]
            self.planned.add((script.game_id, phase["key"]))
            key = (phase["kind"], phase["number"])
            opens, deadline = max(now, phase["opens_at"] or now), phase["deadline"]
            for sender, text in script.pms.get(key, []):
                self.push(self._rushed(deadline) if self.rush else self._when(opens, deadline), ("pm", sender, "ход", text))
            for voter, target in script.votes.get(key, []):
                self.push(self._when(opens, deadline), ("post", voter, script.topic,
                                                        f"Мой голос: [color=blue]{target}[/color]"))

    def _when(self, opens: datetime, deadline: datetime) -> datetime:
        """A third of the players act in the last hour before the deadline, the others any time."""
        latest = deadline - timedelta(minutes=2)
        if self.random.random() < 0.35 and latest - opens > timedelta(hours=1):
            return latest - timedelta(seconds=self.random.uniform(0, 3600))
        return opens + (latest - opens) * self.random.random()

    def _rushed(self, deadline: datetime) -> datetime:
        return deadline - timedelta(seconds=self.random.uniform(0, self.rush))

    def run_due(self, now: datetime) -> None:
        while self.queue and self.queue[0][0] <= now.timestamp():
            _, _, action = heapq.heappop(self.queue)
            self.act(action)
            self.done += 1


def apply(board: Board, action: tuple) -> None:
    if action[0] == "post":
        _, author, topic, text = action
        board.reply(author, topic, text)
    else:
        _, sender, subject, text = action
        board.send_pm(sender, HOST, subject, text)


# ---------------------------------------------------------------- the run

@dataclass
class TickRecord:
    at: datetime
    wall: float
    cpu: float
    requests: int
    resolved: list[str]
    sql_steps: int          # SQLite virtual machine steps, in thousands: the store's work
    quiet: bool             # nobody acted and nothing was approved since the tick before


@dataclass
class Soak:
    """The daemon, the players and the measurements of one run."""

    folder: Path
    forum_url: str
    clock: VirtualClock
    act: Callable[[tuple], Any]
    days: float
    pace: Pace = Pace()
    daemon: Daemon = field(init=False)
    ticks: list[TickRecord] = field(default_factory=list)
    days_seen: list[dict] = field(default_factory=list)

    def __post_init__(self) -> None:
        os.environ[PASSWORD_ENV] = HOST_PASSWORD
        installation = load_installation(write_config(self.folder, self.forum_url, self.pace))
        self.installation = installation
        self.players = Players([legends_script(), mafia_script()], self.act, rush=self.pace.rush)
        # players act while the daemon waits between requests too: a rush goes on during a tick
        forum = open_forum(installation.forum, HOST_PASSWORD, clock=self.clock.monotonic, sleep=self.advance,
                           now=self.clock.now)
        self.daemon = Daemon(installation, Store(installation.storage, now=self.clock.now), forum, self.clock)
        self.pm_sent_at: dict[str, datetime] = {}      # a PM's id -> when the board took it (game time)
        real_send_pm = forum.send_pm

        def send_pm(*args, **kwargs):
            pm_id = real_send_pm(*args, **kwargs)
            self.pm_sent_at[str(pm_id)] = self.clock.now()
            return pm_id
        forum.send_pm = send_pm
        self.players.plan_chatter(START, self.days, self.pace.chatter)
        self.ends = START + timedelta(days=self.days)
        self.stop = StopFlag()
        self._wrap_tick()

    def _wrap_tick(self) -> None:
        real_tick, client = self.daemon.tick, self.daemon.forum.client
        steps = [0]
        self.daemon.store.db.conn.set_progress_handler(lambda: steps.__setitem__(0, steps[0] + 1) or 0, 1000)
        acted = [0]
        approved = [0]

        def tick():
            at, requests, sql = self.clock.now(), client.requests_made, steps[0]
            quiet = self.players.done == acted[0] and approved[0] == 0
            wall, cpu = time.perf_counter(), time.thread_time()
            report = real_tick()
            self.ticks.append(TickRecord(at, time.perf_counter() - wall, time.thread_time() - cpu,
                                         client.requests_made - requests, list(report.resolved), steps[0] - sql,
                                         quiet and not report.resolved))
            acted[0], approved[0] = self.players.done, self._between_ticks()
            return report
        self.daemon.tick = tick

    def _between_ticks(self) -> int:
        """The host approves; the players plan the phase that opened. How many drafts were approved."""
        store = self.daemon.store
        approved = 0
        for draft in store.drafts(status="pending"):
            if draft["target"] != HOST:       # what is for the host's own eyes he reads on his page
                store.approve(draft["id"], by="soak host")
                approved += 1
        self.players.plan_phases(store, self.clock.now())
        return approved

    def advance(self, seconds: float) -> None:
        """Game time moves on; the players do what falls due meanwhile, each at its moment."""
        target = self.clock.now() + timedelta(seconds=seconds)
        while True:
            upcoming = self.players.queue[0][0] if self.players.queue else None
            if upcoming is None or upcoming > target.timestamp():
                break
            self.clock.value.value = max(self.clock.value.value, upcoming)
            self.players.run_due(self.clock.now())
        self.clock.value.value = max(self.clock.value.value, target.timestamp())

    def sleep(self, seconds: float) -> None:
        """The loop's wait."""
        self.advance(seconds)
        self._day_boundary()
        if self.clock.now() >= self.ends:
            self.stop.set()

    def _day_boundary(self) -> None:
        day = int((self.clock.now() - START).total_seconds() // 86400)
        while len(self.days_seen) < day and len(self.days_seen) < self.days:
            self.days_seen.append(self.sample(len(self.days_seen) + 1))

    def sample(self, day: int) -> dict:
        begin = START + timedelta(days=day - 1)
        ticks = [t for t in self.ticks if begin <= t.at < begin + timedelta(days=1)]
        return {"day": day, "ticks": len(ticks), "requests": sum(t.requests for t in ticks),
                "cpu": sum(t.cpu for t in ticks), "slowest": max((t.wall for t in ticks), default=0.0),
                "rss": rss_mb(), "sqlite": sqlite_bytes(self.installation.storage),
                "raw": self.daemon.store.db.execute("SELECT TOTAL(LENGTH(html)) FROM raw_pages").fetchone()[0]}

    def run(self) -> None:
        self.players.plan_phases(self.daemon.store, self.clock.now())
        run_loop(self.daemon, self.stop, sleep=self.sleep)

    def latencies(self) -> list[tuple[str, float]]:
        """(game/phase, seconds from deadline + grace until its last draft was made): the game time
        of the draft (the polite pauses of the tick included) plus the tick's real time."""
        grace = timedelta(seconds=self.installation.deadline_grace)
        store = self.daemon.store
        out = []
        for record in self.ticks:
            for resolved in record.resolved:
                game_id, key = resolved.split("/", 1)
                resolution = max(r["id"] for r in store.resolutions(game_id, key))
                made = max(d["created_at"] for d in store.drafts(game_id=game_id) if d["resolution_id"] == resolution)
                due = store.phase(game_id, key)["deadline"] + grace
                out.append((resolved, (made - due).total_seconds() + record.wall))
        return out


    def receipts(self) -> list[tuple[str, int, float | None]]:
        """(game/phase, its receipts, seconds from deadline + grace until the last was sent) per
        resolved phase."""
        grace = timedelta(seconds=self.installation.deadline_grace)
        store = self.daemon.store
        out = []
        for record in self.ticks:
            for resolved in record.resolved:
                game_id, key = resolved.split("/", 1)
                # (a draft's sent_at is its publishing tick's start: the board's moment is wanted)
                sent = [self.pm_sent_at[d["forum_ref"]] for d in store.drafts(game_id=game_id)
                        if d["kind"] == "receipt" and d["phase_key"] == key and d["forum_ref"] in self.pm_sent_at]
                due = store.phase(game_id, key)["deadline"] + grace
                out.append((resolved, len(sent), (max(sent) - due).total_seconds() if sent else None))
        return out


def sqlite_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def report(soak: Soak, out=sys.stdout) -> None:
    print(machine(), file=out)
    print("day  ticks  requests  cpu_s  slowest_tick_s  rss_mb  sqlite_mb  raw_pages_mb", file=out)
    for d in soak.days_seen:
        print(f"{d['day']:3}  {d['ticks']:5}  {d['requests']:8}  {d['cpu']:5.2f}  {d['slowest']:14.2f}  "
              f"{d['rss']:6.1f}  {d['sqlite'] / 2**20:9.1f}  {d['raw'] / 2**20:12.1f}", file=out)
    store = soak.daemon.store
    for game in soak.daemon.games:
        phases = store.phases(game.id, status="resolved")
        winner = game.rules.winner(game.rules.load(store.latest_snapshot(game.id)["state"]))
        print(f"{game.id}: {len(phases)} phases resolved, winner: {winner or 'none yet'}, "
              f"{len(store.drafts(game_id=game.id))} drafts, {len(store.posts(game.id))} thread posts", file=out)
    print(f"player actions: {soak.players.done}", file=out)
    print("deadline-to-drafts latency (s), per phase:", file=out)
    for name, seconds in soak.latencies():
        print(f"  {name:28} {seconds:6.1f}", file=out)
    if soak.pace.rush:
        print(f"late rush: every order PM in the last {soak.pace.rush:.0f} s before its deadline; receipts "
              "(sent, the last at s after deadline + grace), per phase:", file=out)
        for name, count, last in soak.receipts():
            print(f"  {name:28} {count:3}  {'—' if last is None else f'{last:6.1f}'}", file=out)


def main(days: float = 30, pace: Pace = Pace()) -> None:
    logging.basicConfig(level=logging.ERROR)
    shared = multiprocessing.get_context("fork").Value("d", START.timestamp(), lock=False)
    clock = VirtualClock(shared)
    players = legends_script().players + mafia_script().players + list(OUTSIDERS)
    with tempfile.TemporaryDirectory() as folder, \
            ForumProcess(lambda: soak_board(clock.now, players), commands=apply) as server:
        soak = Soak(Path(folder), server.url, clock, server.send, days, pace)
        started = time.perf_counter()
        soak.run()
        report(soak)
        print(f"real time: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    rush = sys.argv[2:3] == ["rush"]
    pace = dataclasses.replace(RUSH, rush=float(sys.argv[3])) if rush and sys.argv[3:] else RUSH if rush else Pace()
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 1 if rush else 30, pace)
