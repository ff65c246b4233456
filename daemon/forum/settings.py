"""What the forum edge needs from a forum's config, read from the config object or a mapping."""
from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import timedelta
from typing import Any


@dataclass(frozen=True)
class ForumSettings:
    engine: str
    base_url: str                 # the board root, e.g. https://forum.example/ (with the slash)
    username: str
    id: str = "forum"
    time_zone: str = "UTC"        # the account's time zone on the board (dates are shown in it)
    min_interval: float = 1.0     # polite pause between requests to the host, seconds
    timeout: float = 30.0
    retries: int = 4
    posts_per_page: int | None = None   # learnt from the pagination links when not set
    post_interval: float | None = None  # the board's flood interval (seconds between two posts, PMs or
                                        # logins); None: the engine's known default (spec.post_interval)
    selectors: Any = None         # the generic engine's config: a table or a TOML file's path
    inbox_cleanup: str = "off"    # "delete" / "move": stored, answered PMs leave the inbox (daemon/forum/housekeeping/inbox_cleanup.py)
    inbox_cleanup_folder: str | None = None
    inbox_cleanup_after: timedelta = timedelta(days=1)
    inbox_cleanup_fill: float = 0.8
    sent_cleanup: bool = True     # forumgm's recorded sent copies leave the sent folder (daemon/forum/housekeeping/sent_copies.py)

    @classmethod
    def read(cls, config: Any) -> "ForumSettings":
        def value(name: str):
            return config.get(name) if isinstance(config, dict) else getattr(config, name, None)

        known = {f.name: value(f.name) for f in fields(cls)}
        if known["min_interval"] is None:
            known["min_interval"] = value("rate_limit")
        if known["username"] is None:
            known["username"] = value("account")
        base = known["base_url"] or ""
        known["base_url"] = base if base.endswith("/") else base + "/"
        return cls(**{k: v for k, v in known.items() if v is not None})
