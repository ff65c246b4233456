"""The checked settings as frozen records (what settings.installation and settings.game return), and
`ConfigError`, which lists every problem found before anything is refused."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from pathlib import Path
from typing import Any, Mapping, Sequence
from zoneinfo import ZoneInfo

from forumgm.daemon.store import RAW_PAGES_KEPT

# seconds after a deadline before its phase resolves: order PMs still in flight, and a late rush read at
# the polite rate (35 PMs sent in the last seconds cost about 38 s of requests after the deadline); the
# host approves the drafts anyway, so half a minute more costs little
DEADLINE_GRACE = 60


class ConfigError(Exception):
    """`problems`, and `games`: those whose engine can still check their [setup] (their type, seed,
    players and usable [rules] are right), so that its problems are listed with these."""

    def __init__(self, problems: list[str], games: Sequence[GameConfig] = ()) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems
        self.games = tuple(games)


@dataclass(frozen=True)
class ForumConfig:
    id: str
    engine: str
    base_url: str
    account: str
    password_env: str | None = None
    password_file: Path | None = None
    selectors: Mapping[str, Any] = field(default_factory=dict)   # the generic adapter's
    time_zone: str | None = None          # the zone the board shows dates in for this account
    min_interval: float | None = None     # polite pause between two requests, seconds
    timeout: float | None = None
    retries: int | None = None
    posts_per_page: int | None = None
    post_interval: float | None = None    # the board's flood interval for the account: seconds between posts
    inbox_cleanup: str = "off"            # "delete" or "move": stored, answered PMs leave the board's inbox
    inbox_cleanup_folder: str | None = None   # move: the account's PM folder on the board
    inbox_cleanup_after: timedelta = timedelta(days=1)   # ... this long after forumgm stored them
    inbox_cleanup_fill: float = 0.8       # ... or at once while the inbox holds this share of its limit
    sent_cleanup: bool = True             # forumgm's own sent copies leave the board once recorded (daemon/forum/housekeeping/sent_copies.py)


@dataclass(frozen=True)
class PhaseTimes:
    """When a phase kind runs: between two local times of day, or for a fixed duration."""

    opens: time | None = None
    closes: time | None = None
    duration: timedelta | None = None


@dataclass(frozen=True)
class PlayerConfig:
    nick: str
    aliases: tuple[str, ...] = ()
    role: str | None = None
    gender: str | None = None       # "f" or "m": the texts agree with it (else guessed from the nick)


@dataclass(frozen=True)
class GameConfig:
    id: str
    type: str
    source: Path
    thread_url: str
    seed: int
    time_zone: ZoneInfo
    start: datetime                       # aware, in the game's zone
    players: tuple[PlayerConfig, ...]
    calendar: Mapping[str, PhaseTimes]
    vote_colors: tuple[str, ...] = ()     # empty: the colours of the game's rule table
    vote_policy: str | None = None        # "last" | "first"; None: the rule table's
    vote_count_every: timedelta | None = None   # a running vote-count draft this often; None: on demand only
    approval: Mapping[str, bool] = field(default_factory=dict)
    templates: Path | None = None
    setup: Mapping[str, Any] = field(default_factory=dict)
    rules: Mapping[str, Any] = field(default_factory=dict)
    role_delivery: str = "pm"             # "pm": the role in a PM; "link": a PM with a one-time link
    reminder_before: timedelta | None = timedelta(hours=1)   # missing day votes listed this long before
    edit_window: timedelta = timedelta(hours=1)   # posts this young at a deadline are re-read once after it
    key_prefix: str = ""                  # where its keys are in `source`: "games[N]" when written inline

    @property
    def signup_open(self) -> bool:
        """`players = []`: the sign-up is still running, nothing is dealt yet."""
        return not self.players

    def setup_table(self) -> dict:
        """What `Rules.setup` receives: the game's [setup] plus the players with roles and aliases."""
        players = []
        for player in self.players:
            entry: dict[str, Any] = {"nick": player.nick}
            if player.role is not None:
                entry["role"] = player.role
            if player.aliases:
                entry["aliases"] = list(player.aliases)
            if player.gender is not None:
                entry["gender"] = player.gender
            players.append(entry)
        return {**self.setup, "players": players}


@dataclass(frozen=True)
class Installation:
    source: Path
    forum: ForumConfig
    storage: Path
    poll_interval: int
    log_level: str
    web_host: str
    web_port: int
    games: tuple[GameConfig, ...]
    web_password_env: str | None = None    # the host's login password for the web page
    web_password_file: Path | None = None
    web_public_url: str | None = None      # the page's address as players reach it (role links)
    poll_near: int = 30          # seconds between two ticks within `near_deadline` of a deadline
    near_deadline: int = 3600    # seconds before a deadline when polling turns to `poll_near`
    deadline_grace: int = DEADLINE_GRACE     # seconds after a deadline before it resolves
    inbox_full_read: int = 1800  # seconds between two whole reads of the PM inbox when the pages count none unread
    notify: Any = None           # forumgm.daemon.settings.notify.NotifyConfig, or None: nobody is told
    raw_pages_kept: int = RAW_PAGES_KEPT   # thread pages kept per game as the forum showed them (the newest)
