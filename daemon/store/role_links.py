"""One-time links that show a Mafia player his role once (docs/mafia.md, "Roles").

Only the SHA-256 of a token is stored: the token itself exists in the player's PM alone, so
the store (or a copy of it) cannot be used to open anyone's link. The first visit claims the
link atomically; every later visit is told the link was used.
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from forumgm.daemon.store.base import StoreBase, to_text

TOKEN_BYTES = 32


@dataclass(frozen=True)
class RoleShown:
    game_id: str
    nick: str
    text: str


class LinkUsed:
    """The link existed and was already opened once."""


class LinkUnknown:
    """No such link (mistyped, or never issued)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def role_link_path(token: str) -> str:
    """The path the player opens; the daemon prefixes the page's public address."""
    return f"/role/{token}"


class RoleLinks(StoreBase):
    def create_role_link(self, game_id: str, nick: str, role_text: str) -> str:
        """Store a role behind a fresh one-time token and return the token (to put in the player's PM)."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with self.transaction():
            self.db.execute(
                "INSERT INTO role_links (token_hash, game_id, nick, role_text, created_at) VALUES (?, ?, ?, ?, ?)",
                [token_hash(token), game_id, nick, role_text, to_text(self.now())],
            )
            self.audit("daemon", "role_link.create", {"game": game_id, "nick": nick})
        return token

    def open_role_link(self, token: str) -> RoleShown | LinkUsed | LinkUnknown:
        """Claim the link: the role the first time, LinkUsed ever after."""
        digest = token_hash(token)
        with self.transaction():
            claimed = self.db.execute(
                "UPDATE role_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL",
                [to_text(self.now()), digest],
            ).rowcount == 1
            row = self.db.execute("SELECT game_id, nick, role_text FROM role_links WHERE token_hash = ?",
                                  [digest]).fetchone()
            if row is None:
                return LinkUnknown()
            if not claimed:
                return LinkUsed()
            game_id, nick, text = row
            self.audit("web", "role_link.shown", {"game": game_id, "nick": nick})
        return RoleShown(game_id, nick, text)
