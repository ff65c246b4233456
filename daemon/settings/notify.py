"""The installation's `[notify]` table: which channels, where to, and when.

Read by settings.installation.load_installation through its Checker, so that a problem here is
reported with the file and key like any other.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Mapping

from forumgm.daemon.settings.values import COUNT, PATH, PORT, STRINGS, TEXT, Kind, one_of, password_file, typed

CHANNELS = ("pm", "email")
TLS_MODES = ("starttls", "ssl")
NOTIFY_KEYS = {"channels", "pm_to", "email_to", "email_from", "smtp_host", "smtp_port", "smtp_tls", "smtp_user",
               "password_env", "password_file", "smtp_ca_file", "deadline_hours", "quiet_minutes"}


@dataclass(frozen=True)
class NotifyConfig:
    channels: tuple[str, ...]
    pm_to: str | None = None                  # the host's personal forum account (not the one forumgm uses)
    email_to: tuple[str, ...] = ()
    email_from: str | None = None
    smtp_host: str | None = None
    smtp_port: int = 587
    smtp_tls: str = "starttls"               # "starttls" on the submission port, "ssl" from the first byte
    smtp_user: str | None = None
    password_env: str | None = None           # the SMTP password: an environment variable ...
    password_file: Path | None = None         # ... or an owner-only file
    smtp_ca_file: Path | None = None          # trust this CA too (a server with a private certificate)
    deadline_hours: float = 3.0
    quiet: timedelta = timedelta(minutes=30)


def read_notify(check, table: Mapping, account: str | None) -> NotifyConfig | None:
    """The [notify] table as a NotifyConfig; None when it is absent. Problems go to `check`."""
    if not table:
        return None
    check.known_keys(table, NOTIFY_KEYS, "notify")
    channels = check.get(table, "channels", Kind(f"an array of channels ({', '.join(CHANNELS)})", _channels),
                         "notify") or ()
    hours = typed((int, float), "a number of hours above 0", lambda v: v > 0 and not isinstance(v, bool))
    config = NotifyConfig(
        channels=channels,
        pm_to=check.get(table, "pm_to", TEXT, "notify", default=None),
        email_to=check.get(table, "email_to", STRINGS, "notify", default=()),
        email_from=check.get(table, "email_from", TEXT, "notify", default=None),
        smtp_host=check.get(table, "smtp_host", TEXT, "notify", default=None),
        smtp_port=check.get(table, "smtp_port", PORT, "notify", default=587),
        smtp_tls=check.get(table, "smtp_tls", one_of(TLS_MODES), "notify", default="starttls"),
        smtp_user=check.get(table, "smtp_user", TEXT, "notify", default=None),
        password_env=check.get(table, "password_env", TEXT, "notify", default=None),
        password_file=password_file(check, table, "notify"),
        smtp_ca_file=check.path(check.get(table, "smtp_ca_file", PATH, "notify", default=None)),
        deadline_hours=check.get(table, "deadline_hours", hours, "notify", default=3.0),
        quiet=timedelta(minutes=check.get(table, "quiet_minutes", COUNT, "notify", default=30) or 0),
    )
    if "pm" in channels:
        if config.pm_to is None:
            check.problem("notify.pm_to", 'the host\'s personal forum account (required by channels = ["pm"])')
        elif account and config.pm_to.casefold() == account.casefold():
            check.problem("notify.pm_to", "another account than forum.account (forumgm would read its own "
                                          "notices as PMs to the host)", config.pm_to)
    if "email" in channels:
        for key in ("email_to", "email_from", "smtp_host"):
            if not table.get(key):
                check.problem(f"notify.{key}", 'a value (required by channels = ["email"])')
        if config.smtp_user and not (config.password_env or config.password_file):
            check.problem("notify.password_env", "a variable name, or password_file = a chmod 600 file "
                                                 "(smtp_user is given: the SMTP login needs its password)")
    if config.smtp_ca_file is not None and not config.smtp_ca_file.is_file():
        check.problem("notify.smtp_ca_file", "an existing file of PEM certificates", str(config.smtp_ca_file))
    return config


def _channels(value) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or any(item not in CHANNELS for item in value):
        raise ValueError(value)
    return tuple(dict.fromkeys(value))
