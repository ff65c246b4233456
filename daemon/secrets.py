"""The forum password: read from an environment variable or an owner-only file, never logged.

Config files name where the secret lives, never the secret itself. `RedactingFilter` is
installed on the root handlers so that a password that slips into a log line (an exception
text quoting a form, a URL) is printed as `***`.
"""
from __future__ import annotations

import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path

REDACTED = "***"


class SecretError(Exception):
    """The secret cannot be read: the variable is unset, the file missing or readable by others."""


@dataclass(frozen=True)
class Secrets:
    password: str = ""

    def values(self) -> tuple[str, ...]:
        return tuple(v for v in (self.password,) if v)

    def __repr__(self) -> str:  # a Secrets object printed by accident shows nothing
        return "Secrets(***)"


def file_permission_problem(path: Path) -> str | None:
    """Why `path` may not hold a secret (None when it may): missing, open to group/others, or
    empty (an empty password would only fail at the forum's login, as a wrong one)."""
    try:
        mode = path.stat().st_mode
    except OSError as error:
        return f"a readable file (got {error.strerror.lower()})"
    if not stat.S_ISREG(mode):
        return "a regular file"
    if mode & 0o077:
        return f"a file only its owner can read, chmod 600 (got mode {stat.S_IMODE(mode):04o})"
    try:
        if not path.read_text(encoding="utf-8").strip():
            return "a file holding the password (it is empty)"
    except (OSError, UnicodeDecodeError) as error:
        return f"a readable UTF-8 file (got {error})"
    return None


def read_password(env_var: str | None, file: Path | None, what: str = "the forum password") -> str:
    if env_var is not None:
        value = os.environ.get(env_var)
        if not value:
            raise SecretError(f"the environment variable {env_var} that should hold {what} is not set")
        return value
    if file is not None:
        problem = file_permission_problem(file)
        if problem:
            raise SecretError(f"{file}: password file: expected {problem}")
        return file.read_text(encoding="utf-8").strip()
    return ""


def load_secrets(forum) -> Secrets:
    """The secrets of a `ForumConfig` (password_env or password_file)."""
    return Secrets(password=read_password(forum.password_env, forum.password_file))


class RedactingFilter(logging.Filter):
    """Replaces every secret value in a log record's final message with `***`."""

    def __init__(self, secrets: Secrets) -> None:
        super().__init__()
        self._values = secrets.values()

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._values:
            return True
        message = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        for value in self._values:
            message = message.replace(value, REDACTED)
            if record.exc_text:
                record.exc_text = record.exc_text.replace(value, REDACTED)
        record.msg, record.args = message, None
        return True


def install_redaction(secrets: Secrets) -> None:
    """Put the filter on every handler of the root logger (handlers see records of every logger)."""
    for handler in logging.getLogger().handlers:
        handler.addFilter(RedactingFilter(secrets))
