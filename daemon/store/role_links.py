"""One-time links that show a Mafia player his role once (docs/mafia.md, "Roles").

No text the store keeps holds a token: the role PM's draft holds a mark naming the link
(`{role-link:NONCE}`), which becomes the token only as the PM is sent (publish.py), the token
being an HMAC of the nonce under a key kept in a file of its own beside the store (chmod 600,
`<store>.role-key`). The store keeps the SHA-256 of the token: the store, its drafts page or
`forumgm drafts show` (or a copy of the store) cannot open anyone's link. The first GET of the page
claims the link atomically; every later visit is told the link was used.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from forumgm.daemon.store.base import StoreBase, StoreError, to_text

TOKEN_BYTES = 32
MARK = re.compile(r"\{role-link:([A-Za-z0-9_-]{16,64})\}")


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


def role_link_mark(nonce: str) -> str:
    """What a draft holds where the token goes."""
    return f"{{role-link:{nonce}}}"


def key_path(store: Path) -> Path:
    return store.with_name(store.name + ".role-key")


class RoleLinks(StoreBase):
    def create_role_link(self, game_id: str, nick: str, role_text: str) -> str:
        """Store a role behind a fresh one-time link and return its nonce (role_link_mark goes into
        the player's PM, role_link_token makes the token of it)."""
        nonce = secrets.token_urlsafe(24)
        token = self.role_link_token(nonce)
        with self.transaction():
            self.db.execute(
                "INSERT INTO role_links (token_hash, game_id, nick, role_text, created_at) VALUES (?, ?, ?, ?, ?)",
                [token_hash(token), game_id, nick, role_text, to_text(self.now())],
            )
            self.audit("daemon", "role_link.create", {"game": game_id, "nick": nick})
        return nonce

    def role_link_token(self, nonce: str) -> str:
        digest = hmac.new(self._role_key(), nonce.encode("ascii"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")

    def with_role_links(self, text: str) -> str:
        """`text` with each link's mark made its token, as the PM is sent; a link the store does not
        know by that token (its key file lost or another) is refused, never sent to open nothing."""
        def token(found: re.Match) -> str:
            made = self.role_link_token(found.group(1))
            if self.db.execute("SELECT 1 FROM role_links WHERE token_hash = ?", [token_hash(made)]).fetchone() is None:
                raise StoreError(f"ссылка на роль {found.group(0)} не открывается ключом из {key_path(self.path)} "
                                 "(файла, с которым создано хранилище, нет или он другой): верните этот файл на место; "
                                 "ничего не отправлено")
            return made
        return MARK.sub(token, text)

    def _role_key(self) -> bytes:
        """The links' key, made on first use, readable by its owner alone."""
        path = key_path(self.path)
        try:
            return path.read_bytes()
        except FileNotFoundError:
            pass
        key = secrets.token_bytes(TOKEN_BYTES)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:          # another process made it meanwhile
            return path.read_bytes()
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(key)
            handle.flush()
            os.fsync(handle.fileno())
        return key

    def peek_role_link(self, token: str) -> bool:
        """Whether the link would still show its role (a HEAD request: link previewers use none up)."""
        return self.db.execute("SELECT 1 FROM role_links WHERE token_hash = ? AND used_at IS NULL",
                               [token_hash(token)]).fetchone() is not None

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
