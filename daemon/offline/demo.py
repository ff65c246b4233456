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
import secrets
import tempfile
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TextIO
from zoneinfo import ZoneInfo

from forumgm.daemon.offline.hosting import (
    HOST, PASSWORD_ENV, REAL, RealTime, Refused, fast_clock, forum_config, host, print_page, run_hosted,
)
from forumgm.daemon.offline.localforum import Board, LocalForum
from forumgm.daemon.tick.clock import Clock, FastClock

ZONE = ZoneInfo("Europe/Moscow")
START = datetime(2026, 3, 2, 21, 0, tzinfo=ZONE)          # night 1 opens
PLAYERS = {"Зорро": "Вампир", "Хан": "Мантикора", "Тор": "Дракон", "Лиса": "Единорог"}
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


def demo_clock(speed: float, real: RealTime = REAL) -> FastClock:
    """Game time `speed` times faster than real time, starting a little before night 1; it stands
    there until the demo's first tick holds it at the next stop."""
    return fast_clock(CLOCK_STARTS, speed, real)


def next_stop(store, pending: tuple[Act, ...], grace: timedelta) -> datetime | None:
    """Where the demo's clock waits for the next tick: the next scripted act or the next deadline
    (resolved after the daemon's grace), whichever comes first. However long a tick takes against
    the fast clock, every act then happens at its own game time and the daemon reads it before
    the deadline after it resolves."""
    stops = [START + timedelta(hours=act.at_hours) for act in pending[:1]]
    stops += [phase["deadline"] + grace for phase in store.phases(GAME_ID, status="pending")]
    return min(stops, default=None)


def demo_board(clock: Clock, host_password: str, real: RealTime = REAL) -> Board:
    board = Board(clock=clock.now, title="forumgm demo board", form_clock=real.epoch)
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
    config.write_text(forum_config(forum_url, web_port, web_password_file, [f"games/{GAME_ID}.toml"], "demo"),
                      encoding="utf-8")
    return config


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


@dataclass
class DemoScript:
    """The demo's players: the scripted acts, each at its game time; the game is over once day 2's
    lynch is resolved."""
    pending: tuple[Act, ...] = SCRIPT

    def act(self, board: Board, store, now: datetime) -> list[str]:
        done = play(board, self.pending, (now - START) / timedelta(hours=1))
        self.pending = self.pending[len(done):]
        return [f"{act.player}: {act.kind} {act.text.splitlines()[-1][:60]}" for act in done]

    def next_stop(self, store, grace: timedelta) -> datetime | None:
        return next_stop(store, self.pending, grace)

    def over(self, store) -> str | None:
        return "the scripted game is over" if _over(store) else None


def run_demo(duration: float, speed: float, auto_approve: bool, folder: Path | None, port: int,
             out: TextIO, poll: float = 2.0, web_port: int = 0, real: RealTime = REAL) -> int:
    folder = folder or Path(tempfile.mkdtemp(prefix="forumgm-demo-"))
    clock = demo_clock(speed, real)
    password = secrets.token_urlsafe(12)

    def config(folder: Path, forum_url: str, web_port: int, web_password_file: Path) -> Path:
        return write_config(folder, forum_url, forum_url + "viewtopic.php?t=2", web_port, web_password_file)

    def refuse(installation) -> str | None:
        return speed_problem(speed, duration, poll, timedelta(seconds=installation.deadline_grace))

    try:
        hosted = host(demo_board(clock, password, real), clock, folder, config, port, web_port, password, refuse,
                      real)
    except Refused as problem:
        print(f"forumgm demo: {problem}", file=out)
        return 2
    try:
        print(f"local forum: {hosted.server.url}viewtopic.php?t=2  (game clock x{speed:g})", file=out)
        print_page(hosted, out, "demo")
        print(f"config and database: {folder}", file=out)
        run_hosted(hosted, DemoScript(), auto_approve, out, ZONE, poll, duration)
        _summary(hosted.store, hosted.server, hosted.config, auto_approve, out, hosted.web_password_file)
    finally:
        hosted.close()
    return 0


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
