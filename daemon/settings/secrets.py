"""The forum password: read from an environment variable or an owner-only file, never logged.

Config files name where the secret lives, never the secret itself. `RedactingFilter` is
installed on the root handlers so that a password that slips into a log line where it is a secret
(an exception text quoting a form body, a URL, a header) is printed as `***`. Elsewhere the same
letters are left alone: masking every substring mangled logs (`inbo***` for a one-letter password)
and told where the password's letters were.
"""
from __future__ import annotations

import logging
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, quote_plus

REDACTED = "***"
# The host's page guards his drafts and the players' roles: a password a guess away is refused.
WEB_PASSWORD_MIN = 8
# Header values that are secrets whatever they hold (session cookies included).
SECRET_HEADERS = re.compile(r"(?im)^(\s*(?:authorization|proxy-authorization|cookie|set-cookie)\s*:\s*).+$")


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


def web_password_problem(password: str) -> str | None:
    """Why `password` may not guard the host's page (None when it may); never shows the password."""
    if len(password) < WEB_PASSWORD_MIN:
        return f"a password of at least {WEB_PASSWORD_MIN} characters (the one given is shorter)"
    return None


def secret_pattern(value: str) -> re.Pattern:
    """Where `value` is a secret in a text: a whole value after `=` (URL queries, form bodies,
    cookies), a whole quoted value (a form's dict or JSON), or the password of a URL
    (`//user:value@`); as written or URL-encoded."""
    forms = "|".join(re.escape(form) for form in sorted({value, quote_plus(value), quote(value, safe="")},
                                                       key=len, reverse=True))
    return re.compile(rf"(?<==)(?:{forms})(?=[&;,\s'\"]|$)|(?<=(?P<q>['\"]))(?:{forms})(?=(?P=q))"
                      rf"|(?<=:)(?:{forms})(?=@)")


def redact(text: str, patterns: tuple[re.Pattern, ...]) -> str:
    text = SECRET_HEADERS.sub(lambda match: match.group(1) + REDACTED, text)
    for pattern in patterns:
        text = pattern.sub(REDACTED, text)
    return text


class RedactingFilter(logging.Filter):
    """Masks the secrets in a log record's final message (and its traceback) where they are secrets."""

    def __init__(self, secrets: Secrets) -> None:
        super().__init__()
        self._patterns = tuple(secret_pattern(value) for value in secrets.values())

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self._patterns)
        record.msg, record.args = redact(message, self._patterns), None
        return True


def install_redaction(secrets: Secrets) -> None:
    """Put the filter on every handler of the root logger (handlers see records of every logger)."""
    for handler in logging.getLogger().handlers:
        handler.addFilter(RedactingFilter(secrets))
