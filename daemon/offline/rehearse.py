"""`forumgm rehearse GAME_FILE`: the host's own game played on the local forum, on a fast clock.

The game file is copied into the rehearsal's folder with its thread replaced by the local forum's
(the host's file stays as it is); its players and the host become accounts there, with passwords
printed for the host, so that anyone may log in to the local forum's pages and sign up, post, edit,
delete and send PMs as a player. The game's own calendar runs compressed: the clock is sped up so
that its longest phase takes `phase_seconds` real seconds, and it waits at each phase's opening
and deadline for the daemon's tick (offline.hosting). The same rules, templates and drafts as the
real game: with `auto_approve` every draft is posted, else the drafts wait on the host's page and
nothing is posted, as in real life. With `autoplay` each living player is a stand-in sending what
the engine's `Rules.stand_ins` says each phase; a game that does not end stops after `max_phases`.
"""
from __future__ import annotations

import os
import re
import secrets
import tempfile
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Callable, TextIO

from forumgm.daemon.offline.hosting import (
    HOST, REAL, RealTime, Refused, fast_clock, forum_config, host, print_page, run_hosted,
)
from forumgm.daemon.offline.localforum import Board
from forumgm.daemon.settings.records import GameConfig
from forumgm.daemon.tick.finish import is_finished
from forumgm.engines.base import Phase

TOPIC = 2                                  # the local forum's first topic: the game's thread
LEAD = timedelta(minutes=10)              # the clock starts this long before the game's start
# stand-ins act this long after a phase opens: a PM dated at the opening itself may still be the
# previous phase's
ACT_AFTER = timedelta(minutes=5)
# keys of a game file naming a file relative to it: absolute in the copy, which lives elsewhere
_PATH_KEY = re.compile(r'^(?P<key>roles_file|templates)(?P<eq>\s*=\s*)"(?P<path>[^"]+)"', re.M)
_THREAD_URL = re.compile(r'^thread_url\s*=.*$', re.M)


def phase_span(game: GameConfig) -> timedelta:
    """The longest phase of the game's calendar."""
    spans = []
    for times in game.calendar.values():
        if times.duration is not None:
            spans.append(times.duration)
        else:
            day = date(2000, 1, 1)
            span = datetime.combine(day, times.closes) - datetime.combine(day, times.opens)
            spans.append(span if span > timedelta(0) else span + timedelta(days=1))
    return max(spans, default=timedelta(days=1))


def rehearsal_copy(source: Path, text: str, thread_url: str) -> str:
    """The game file's text with the local forum's thread and its relative paths made absolute."""
    if not _THREAD_URL.search(text):
        raise Refused(f"{source}: no thread_url line to replace")
    text = _THREAD_URL.sub(lambda _: f'thread_url = "{thread_url}"', text, count=1)

    def absolute(match: re.Match) -> str:
        path = Path(match["path"])
        path = path if path.is_absolute() else (source.parent / path).resolve()
        return f'{match["key"]}{match["eq"]}"{path}"'
    return _PATH_KEY.sub(absolute, text)


def accounts(game: GameConfig) -> dict[str, str]:
    """{account: password} of the rehearsal's local forum: the host, then every player."""
    return {name: secrets.token_urlsafe(9) for name in (HOST, *(p.nick for p in game.players))}


def rehearsal_board(game: GameConfig, passwords: dict[str, str], clock: Callable[[], datetime],
                    real: RealTime = REAL) -> Board:
    # attachments on, as on most boards: Bellum's turn map and the game's record go up as files
    board = Board(clock=clock, title="forumgm: репетиция", form_clock=real.epoch, attachments=True)
    for name, password in passwords.items():
        board.add_user(name, password, admin=name == HOST)
    board.add_topic(HOST, f"Репетиция: {game.id}",
                    "Репетиция игры на локальном форуме. Пишите в тему и в личку ведущему, как в настоящей игре.")
    return board


@dataclass
class RehearsalScript:
    """The players' side: stand-ins (with `autoplay`) each phase, soon after it opens; the run is
    over once every game is finished or `max_phases` phases are resolved."""
    games: Callable[[], list]          # the daemon's GameRuns
    autoplay: bool
    max_phases: int
    played: set[tuple[str, str]] = field(default_factory=set)

    def act(self, board: Board, store, now: datetime) -> list[str]:
        lines = []
        for game, phase in self._open(store):
            if (game.id, phase["key"]) in self.played or _acts_at(phase) > now:
                continue
            self.played.add((game.id, phase["key"]))
            if self.autoplay:
                lines += self._stand_ins(game, Phase.from_key(phase["key"]), board, store)
        return lines

    def _stand_ins(self, game, phase: Phase, board: Board, store) -> list[str]:
        state = game.rules.load(store.latest_snapshot(game.id)["state"])
        lines = []
        for move in game.rules.stand_ins(state, phase, game.config.seed):
            if move.pm:
                board.send_pm(move.nick, HOST, game.rules.phase_name(phase).capitalize(), move.pm)
                lines.append(f"{move.nick}: pm {' / '.join(move.pm.splitlines())}")
            if move.vote:
                # the game file's first colour, else one of the rule table's
                color = (game.config.vote_colors or sorted(game.rules.vote_rules(state, phase).colors))[0]
                board.reply(move.nick, TOPIC, f"Голосую за [color={color}]{move.vote}[/color]")
                lines.append(f"{move.nick}: votes for {move.vote}")
        return lines

    def next_stop(self, store, grace: timedelta) -> datetime | None:
        stops = []
        for game, phase in self._open(store):
            if (game.id, phase["key"]) not in self.played:
                stops.append(_acts_at(phase))
            stops.append(phase["deadline"] + grace)
        return min(stops, default=None)

    def over(self, store) -> str | None:
        games = self.games()
        if all(is_finished(store, game.id) for game in games):
            return "the game is over"
        resolved = sum(len(store.phases(game.id, status="resolved")) for game in games)
        if resolved >= self.max_phases:
            return (f"stopped after {resolved} phases (--max-phases {self.max_phases}): the game has not "
                    "ended by then")
        return None

    def _open(self, store):
        for game in self.games():
            pending = [] if is_finished(store, game.id) else store.phases(game.id, status="pending")
            if pending and store.latest_snapshot(game.id) is not None:
                yield game, pending[0]


def _acts_at(phase: dict) -> datetime:
    return phase["opens_at"] + ACT_AFTER if phase["opens_at"] else phase["deadline"] - ACT_AFTER


def run_rehearsal(game_file: Path, phase_seconds: float, autoplay: bool, auto_approve: bool, max_phases: int,
                  folder: Path | None, port: int, out: TextIO, poll: float = 1.0, web_port: int = 0,
                  real: RealTime = REAL) -> int:
    from forumgm.daemon.settings.game import load_game
    from forumgm.daemon.settings.records import ConfigError

    try:
        game = load_game(game_file)
    except ConfigError as problem:
        print(f"forumgm rehearse: {problem}", file=out)
        return 2
    if game.signup_open:
        print(f"forumgm rehearse: {game_file} lists no players yet (the sign-up is open): list them in "
              "[[players]] to rehearse the game", file=out)
        return 2
    if not phase_seconds > 0 or max_phases < 1:
        print("forumgm rehearse: --phase-seconds must be more than 0 and --max-phases at least 1", file=out)
        return 2
    folder = folder or Path(tempfile.mkdtemp(prefix="forumgm-rehearse-"))
    speed = phase_span(game) / timedelta(seconds=phase_seconds)
    clock = fast_clock(game.start - LEAD, speed, real)
    passwords = accounts(game)

    def config(folder: Path, forum_url: str, web_port: int, web_password_file: Path) -> Path:
        games = folder / "games"
        games.mkdir(parents=True, exist_ok=True)
        copy = games / game_file.name
        copy.write_text(rehearsal_copy(game_file, game_file.read_text(encoding="utf-8"),
                                       f"{forum_url}viewtopic.php?t={TOPIC}"), encoding="utf-8")
        path = folder / "forumgm.toml"
        path.write_text(forum_config(forum_url, web_port, web_password_file, [f"games/{copy.name}"], "rehearsal"),
                        encoding="utf-8")
        return path

    try:
        hosted = host(rehearsal_board(game, passwords, clock.now, real), clock, folder, config, port, web_port,
                      passwords[HOST], real=real)
    except Refused as problem:
        print(f"forumgm rehearse: {problem}", file=out)
        return 2
    try:
        print(f"local forum: {hosted.server.url}viewtopic.php?t={TOPIC}  (a phase of up to "
              f"{phase_span(game) / timedelta(hours=1):g} h in {phase_seconds:g} s)", file=out)
        print_page(hosted, out, "rehearsal")
        _print_accounts(folder, passwords, out)
        print(f"config, database and the copy of the game file: {folder}", file=out)
        script = RehearsalScript(lambda: hosted.daemon.games, autoplay, max_phases)
        why = run_hosted(hosted, script, auto_approve, out, game.time_zone, poll, who="rehearsal")
        _summary(hosted, why, auto_approve, out)
    finally:
        hosted.close()
    return 0


def _print_accounts(folder: Path, passwords: dict[str, str], out: TextIO) -> None:
    """The accounts, printed and kept in an owner-only file: the local forum's only, gone with it."""
    lines = [f"{name}  {password}" for name, password in passwords.items()]
    descriptor = os.open(folder / "accounts.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    print("accounts on the local forum (log in as anyone to post, edit, delete or send a PM):", file=out)
    for line in lines:
        print(f"  {line}", file=out)


def _summary(hosted, why: str, auto_approve: bool, out: TextIO) -> None:
    by_status: dict[str, int] = {}
    for draft in hosted.store.drafts():
        by_status[draft["status"]] = by_status.get(draft["status"], 0) + 1
    print("", file=out)
    print(f"rehearsal over: {why}", file=out)
    print(f"drafts: {', '.join(f'{n} {s}' for s, n in sorted(by_status.items())) or 'none'}", file=out)
    if not auto_approve:
        print("nothing was posted: the drafts waited for approval as in a real game "
              "(forumgm rehearse --auto-approve posts them)", file=out)
    print(f"every draft on the host's page: forumgm web --config {hosted.config}  "
          f"(password in {hosted.web_password_file})", file=out)
    print(f"or listed: forumgm drafts --config {hosted.config} list --all", file=out)
