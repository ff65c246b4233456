"""`forumgm demo`: a Legends game on the local forum, played by a script on a fast clock.

The local forum runs over real HTTP; the daemon logs in to it with the host's account like on
any phpBB board, syncs the thread and the inbox, resolves the phases at their deadlines and
drafts every text. Players act through the board's admin side at fixed game times; the clock
waits at each of them and at each deadline for a tick, so the game plays the same at any speed.
The demo ends by itself once the scripted game is over (day 2's lynch decides it), or after
`duration`; a speed too slow for `duration` is refused before it starts.
"""
from __future__ import annotations

import math
import os
import secrets
import socket
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TextIO
from zoneinfo import ZoneInfo

from forumgm.daemon.offline.localforum import Board, LocalForum
from forumgm.daemon.offline.localforum.server import STOP_POLL
from forumgm.daemon.tick.clock import Clock, FastClock

HOST = "Ведущий"
ZONE = ZoneInfo("Europe/Moscow")
START = datetime(2026, 3, 2, 21, 0, tzinfo=ZONE)          # night 1 opens
PLAYERS = {"Зорро": "Вампир", "Хан": "Мантикора", "Тор": "Дракон", "Лиса": "Единорог"}
PASSWORD_ENV = "FORUMGM_DEMO_PASSWORD"
GAME_ID = "legends-demo"


@dataclass(frozen=True)
class Act:
    """One scripted player action at a game time (hours after START)."""
    at_hours: float
    player: str
    kind: str          # "post" | "pm" | "edit-last"
    text: str
    subject: str = ""


SCRIPT = (
    Act(1, "Зорро", "pm", "Шпионаж Хан", "Ночь 1"),
    Act(2, "Хан", "pm", "Защита 3", "Ночь 1"),
    Act(3, "Тор", "pm", "Атака 5 Лиса", "Ночь 1"),            # night 1 forbids attacks: a rejection
    Act(16, "Зорро", "post", "Доброе утро! Первый Линч — только на второй день, присматриваемся."),
    Act(25, "Зорро", "pm", "Атака 5 Хана\nАтака магией Тор", "Ночь 2"),
    Act(26, "Хан", "pm", "Атака 7 Зорро", "Ночь 2"),
    Act(27, "Тор", "pm", "Защита 4", "Ночь 2"),
    Act(40, "Зорро", "post", "Голосую за [color=blue]Лиса[/color]"),
    Act(41, "Лиса", "post", "[quote=Зорро]Голосую за [color=blue]Лиса[/color][/quote]\n"
                            "Почему я? Голосую за [color=blue]Зорро[/color]"),
    Act(42, "Тор", "post", "Голосую за [color=blue]Хан[/color]"),
    Act(43, "Тор", "edit-last", "Передумал. Голосую за [color=blue]Зорро[/color]"),
    Act(44, "Хан", "post", "Согласен: [color=blue]Зорро[/color]"),
)
LAST_PHASE = "day-2"      # its lynch ends the scripted game
CLOCK_STARTS = START - timedelta(minutes=30)
ENDS = datetime(2026, 3, 4, 21, 0, tzinfo=ZONE)           # day 2 closes (the calendar below)
PHASES = 4                # night 1 to day 2
# real seconds a tick of the daemon on the local forum may take (a login, the thread, the inbox,
# posting what was approved): the clock waits for one at each act and deadline
TICK_ALLOWANCE = 1.0
# the game plays the same at any speed up to this one; beyond it the game time a poll spans
# (`poll` × speed seconds: 63 years at 2 s) soon leaves the range of a date
MAX_SPEED = 1e9


def speed_problem(speed: float, duration: float, poll: float, grace: timedelta) -> str | None:
    """Why the scripted game cannot end within `duration` real seconds at `speed`, if it cannot."""
    if not 0 < speed <= MAX_SPEED:
        return f"--speed must be more than 0 and at most {MAX_SPEED:g} game seconds per real second, not {speed:g}"
    game = (ENDS + grace - CLOCK_STARTS).total_seconds()
    stops = len(SCRIPT) + PHASES
    ticks = stops * (poll + TICK_ALLOWANCE)
    if game / speed + ticks <= duration:
        return None
    fastest_needed = game / (duration - ticks) if duration > ticks else math.inf
    faster = f"--speed {math.ceil(fastest_needed)} or more, or " if fastest_needed <= MAX_SPEED else ""
    return (f"at --speed {speed:g} the scripted game ({game / 3600:.1f} game hours, and a tick at each of its "
            f"{stops} acts and deadlines) needs about {game / speed + ticks:.0f} real seconds, more than "
            f"--duration {duration:g}: use {faster}a longer --duration")


def demo_clock(speed: float) -> FastClock:
    """Game time `speed` times faster than real time, starting a little before night 1; it stands
    there until the demo's first tick holds it at the next stop."""
    clock = FastClock(CLOCK_STARTS, speed)
    clock.hold(CLOCK_STARTS)
    return clock


def hours_since_start(clock: Clock) -> float:
    return (clock.now() - START) / timedelta(hours=1)


def next_stop(store, pending: tuple[Act, ...], grace: timedelta) -> datetime | None:
    """Where the demo's clock waits for the next tick: the next scripted act or the next deadline
    (resolved after the daemon's grace), whichever comes first. However long a tick takes against
    the fast clock, every act then happens at its own game time and the daemon reads it before
    the deadline after it resolves."""
    stops = [START + timedelta(hours=act.at_hours) for act in pending[:1]]
    stops += [phase["deadline"] + grace for phase in store.phases(GAME_ID, status="pending")]
    return min(stops, default=None)


def demo_board(clock: Clock, host_password: str) -> Board:
    board = Board(clock=clock.now, title="forumgm demo board", form_clock=time.time)
    board.add_user(HOST, host_password, admin=True)
    for nick in PLAYERS:
        board.add_user(nick, secrets.token_hex(8))
    board.add_topic(HOST, "Легенды меча и магии: демо-партия",
                    "Добро пожаловать в игру!\nДнём голосуем ником [color=blue]синим цветом[/color], "
                    "ночные ходы — в личку ведущему.")
    return board


def write_config(folder: Path, forum_url: str, thread_url: str, web_port: int, web_password_file: Path) -> Path:
    games = folder / "games"
    games.mkdir(parents=True, exist_ok=True)
    players = "\n".join(f'[[players]]\nnick = "{nick}"\nrole = "{role}"\n' for nick, role in PLAYERS.items())
    (games / f"{GAME_ID}.toml").write_text(f'''id = "{GAME_ID}"
type = "legends"
thread_url = "{thread_url}"
seed = 7
time_zone = "{ZONE.key}"
start = {START.replace(tzinfo=None).isoformat()}
vote_colors = ["blue"]
vote_count_every = "3h"

{players}
[calendar.night]
opens = "21:00"
closes = "10:00"

[calendar.day]
opens = "12:00"
closes = "21:00"

[approval]
receipt = false
''', encoding="utf-8")
    config = folder / "forumgm.toml"
    config.write_text(f'''games = ["games/{GAME_ID}.toml"]

[forum]
id = "demo"
engine = "phpbb"
base_url = "{forum_url}"
account = "{HOST}"
time_zone = "UTC"
password_env = "{PASSWORD_ENV}"
min_interval = 0.2
posts_per_page = 5

[storage]
path = "forumgm.sqlite"

[daemon]
poll_interval = 2
log_level = "WARNING"

[web]
host = "127.0.0.1"
port = {web_port}
password_file = "{web_password_file}"
''', encoding="utf-8")
    return config


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def write_web_password(folder: Path) -> tuple[str, Path]:
    """A password for this demo's page, in an owner-only file the demo's config names."""
    password = secrets.token_urlsafe(12)
    path = folder / "web-password"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(password + "\n")
    return password, path


def play(board: Board, acts: tuple[Act, ...], hours: float) -> list[Act]:
    """Carry out every scripted act due by `hours`; returns those done."""
    done = []
    for act in acts:
        if act.at_hours > hours:
            break
        if act.kind == "post":
            board.reply(act.player, 2, act.text)
        elif act.kind == "pm":
            board.send_pm(act.player, HOST, act.subject, act.text)
        else:
            own = [p for p in board.visible_posts(2) if board.users[p.author_id].name == act.player]
            board.edit_post(own[-1].id, act.text)
        done.append(act)
    return done


def run_demo(duration: float, speed: float, auto_approve: bool, folder: Path | None, port: int,
             out: TextIO, poll: float = 2.0, web_port: int = 0) -> int:
    from forumgm.daemon.settings.installation import load_installation
    from forumgm.daemon.forum import open_forum
    from forumgm.daemon.runtime.loop import Daemon
    from forumgm.daemon.settings.secrets import load_secrets
    from forumgm.daemon.store import Store
    from forumgm.daemon.web.server import web_server

    folder = folder or Path(tempfile.mkdtemp(prefix="forumgm-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    web_password, web_password_file = write_web_password(folder)
    clock = demo_clock(speed)
    password = secrets.token_urlsafe(12)
    os.environ[PASSWORD_ENV] = password
    server = LocalForum(demo_board(clock, password), port=port).start()
    try:
        config = write_config(folder, server.url, server.url + "viewtopic.php?t=2", web_port or free_port(),
                              web_password_file)
        installation = load_installation(config)
        problem = speed_problem(speed, duration, poll, timedelta(seconds=installation.deadline_grace))
        if problem:
            print(f"forumgm demo: {problem}", file=out)
            return 2
        store = Store(installation.storage, now=clock.now)
        forum = open_forum(installation.forum, load_secrets(installation.forum))
        daemon = Daemon(installation, store, forum, clock)
        # the page has its own connection to the store: it answers in its own thread
        page_store = Store(installation.storage, now=clock.now)
        page = web_server(page_store, web_password, installation.web_host, installation.web_port,
                          games=lambda: {game.id: game for game in daemon.games}, quiet=True)
        threading.Thread(target=page.serve_forever, kwargs={"poll_interval": STOP_POLL}, daemon=True).start()
        print(f"local forum: {server.url}viewtopic.php?t=2  (game clock x{speed:g})", file=out)
        print(f"host's page: http://{installation.web_host}:{page.server_port}/  password: {web_password}  "
              "(this demo's own; approve drafts there while it runs)", file=out)
        print(f"config and database: {folder}", file=out)
        pending = SCRIPT
        ends = time.monotonic() + duration
        last_tick = None
        while time.monotonic() < ends and not _over(store):
            done = play(server.board, pending, hours_since_start(clock))
            pending = pending[len(done):]
            for act in done:
                print(f"{_at(clock)} {act.player}: {act.kind} {act.text.splitlines()[-1][:60]}",
                      file=out)
            last_tick = clock.now()
            report = daemon.tick()
            for line in report.resolved:
                print(f"{_at(clock)} resolved {line}", file=out)
            for line in report.errors:
                print(f"{_at(clock)} problem: {line}", file=out)
            if auto_approve:
                _approve_all(store)
            stop = next_stop(store, pending, daemon.polling.grace)
            clock.hold(stop or clock.now())     # nothing left to wait for (the game is over): it stays
            # the demo ticks every `poll` real seconds, whatever the schedule would say: `status` tells so
            ahead = clock.now() + timedelta(seconds=poll * speed)
            daemon.keep_plan(last_tick, ahead if stop is None else min(ahead, stop),
                             f"the demo reads the forum every {poll:g} s")
            time.sleep(poll)
        if auto_approve:      # what the last resolution drafted goes out too
            _approve_all(store)
            last_tick = clock.now()
            daemon.tick()
        if last_tick is not None:     # `forumgm status` on its config says the demo's daemon stopped
            daemon.stopped(last_tick, "the demo is over")
        page.shutdown()
        page.server_close()
        page_store.close()
        _summary(store, server, config, auto_approve, out, web_password_file)
        store.close()
    finally:
        server.stop()
    return 0


def _at(clock: Clock) -> str:
    """The game time as the demo's lines show it: in the game's zone, like its calendar."""
    return f"[{clock.now().astimezone(ZONE):%d.%m %H:%M}]"


def _approve_all(store) -> None:
    for draft in store.drafts(status="pending"):
        store.approve(draft["id"], by="demo --auto-approve")


def _over(store) -> bool:
    last = store.phase(GAME_ID, LAST_PHASE)
    return last is not None and last["status"] == "resolved"


def _summary(store, server: LocalForum, config: Path, auto_approve: bool, out: TextIO,
             web_password_file: Path) -> None:
    drafts = store.drafts()
    by_status: dict[str, int] = {}
    for draft in drafts:
        by_status[draft["status"]] = by_status.get(draft["status"], 0) + 1
    host_posts = [p for p in server.board.visible_posts(2) if server.board.users[p.author_id].admin]
    print("", file=out)
    print(f"drafts: {', '.join(f'{n} {s}' for s, n in sorted(by_status.items())) or 'none'}", file=out)
    print(f"posts by the host in the thread: {len(host_posts) - 1}, PMs sent by the host: "
          f"{sum(1 for m in server.board.pms.values() if server.board.users[m.sender_id].admin)}", file=out)
    print(f"game over: {'yes' if _over(store) else 'no (run longer: --duration)'}", file=out)
    print(f"look at the drafts:   forumgm drafts --config {config} list --all", file=out)
    print(f"read one:             forumgm drafts --config {config} show ID", file=out)
    print(f"the day-2 vote count: forumgm votes --config {config} {GAME_ID} --phase {LAST_PHASE}", file=out)
    if not auto_approve:    # approving now would post nothing: the demo's forum stopped with it
        print("see drafts approved and posted on the forum: forumgm demo --auto-approve", file=out)
    print("", file=out)
    print(f"What stays after the demo: its config, database and drafts in {config.parent}, and", file=out)
    print(f"the host's page on them: forumgm web --config {config}  (password in {web_password_file})", file=out)
    print("The local forum is gone with the demo: nothing more gets posted or read.", file=out)
