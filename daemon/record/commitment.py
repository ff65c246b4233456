"""The commitment: a SHA-256 that binds the game to its seed, its secret salt and its frozen rule
table before any of them is shown (docs/verify.md, «Как проверить игру»).

The text hashed is UTF-8, three lines joined by "\n" (no newline at the end):

    forumgm-commitment-1
    seed=<the seed as the game file writes it, in decimal>
    salt=<the salt: 32 lowercase hex digits>
    rules=<the rule table as JSON: keys sorted, no spaces, non-ASCII letters as they are>

The rule table is the merged one the game is frozen under (daemon/tick/rules_freeze.py); a TOML
date in it is its text. The salt makes the seed, a small number, impossible to guess from the hash.

Pure: no store, no clock; the salt is drawn with `secrets` by the daemon (never by an engine).
"""
from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any, Mapping

FORMAT = "forumgm-commitment-1"


def canonical_rules(rules: Mapping[str, Any]) -> str:
    return json.dumps(rules, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def canonical_text(seed: int | str, salt: str, rules: Mapping[str, Any]) -> str:
    return "\n".join((FORMAT, f"seed={seed}", f"salt={salt}", f"rules={canonical_rules(rules)}"))


def commitment(seed: int | str, salt: str, rules: Mapping[str, Any]) -> str:
    """The hex SHA-256 of the canonical text."""
    return hashlib.sha256(canonical_text(seed, salt, rules).encode("utf-8")).hexdigest()


def new_salt() -> str:
    return secrets.token_hex(16)
