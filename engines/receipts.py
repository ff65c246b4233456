"""The answer to an order PM: each line as understood, or refused with the reason."""
from __future__ import annotations

from typing import Any, Sequence

from forumgm.engines.base import Verdict
from forumgm.engines.texts import Texts


def receipt_template(game: str, texts: Texts) -> str:
    own = f"{game}/receipt.j2"
    return own if texts.has(own) else "common/receipt.j2"


def receipt_text(game: str, sender: str, verdicts: Sequence[Verdict], texts: Texts,
                 template: str | None = None, **context: Any) -> str:
    """The game's receipt; `template` may extend it (its `base` is the game's receipt template)."""
    base = receipt_template(game, texts)
    return texts.render(
        template or base,
        base=base,
        **context,
        sender=sender,
        verdicts=list(verdicts),
        accepted=[v for v in verdicts if v.ok],
        rejected=[v for v in verdicts if not v.ok],
    )
