"""The answer to an order PM: each line as understood, or refused with the reason."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from forumgm.engines.base import Verdict
from forumgm.engines.texts import Texts

# A receipt is one PM, and boards refuse a long one (SMF 2.1 stock: 20,000 characters; phpBB
# 60,000): refused, it never reached the player. A PM of any length (a pasted report, a flood)
# still gets a receipt that fits: this many lines of each list, each echo of the player's text cut
# to so many characters, and the lines past them counted.
SHOWN_LINES = 30
SHOWN_CHARS = {"line": 80, "reason": 200}


def receipt_template(game: str, texts: Texts, name: str = "receipt") -> str:
    """The game's own template of that name, else the common one."""
    own = f"{game}/{name}.j2"
    return own if texts.has(own) else f"common/{name}.j2"


def receipt_text(game: str, sender: str, verdicts: Sequence[Verdict], texts: Texts,
                 template: str | None = None, **context: Any) -> str:
    """The game's receipt; `template` may extend it (its `base` is the game's receipt template)."""
    base = receipt_template(game, texts)
    # the echoes as the players read them before a template cuts them to length
    verdicts = [replace(v, line=texts.said(v.line), canonical=texts.said(v.canonical)) if v.ok
                else replace(v, line=texts.said(v.line), reason=texts.said(v.reason)) for v in verdicts]
    return texts.render(
        template or base,
        base=base,
        **context,
        shown_lines=SHOWN_LINES,
        shown_chars=SHOWN_CHARS,
        sender=sender,
        verdicts=list(verdicts),
        accepted=[v for v in verdicts if v.ok],
        rejected=[v for v in verdicts if not v.ok],
    )
