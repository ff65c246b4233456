"""The account a seat was given to (forumgm replace) is asked of the board at the daemon's next tick.

`forumgm replace` runs without the forum (the daemon holds its session), so it cannot tell a
misspelt account from a real one. The daemon asks the board once per replacement, without sending
anything (ForumAdapter.knows_account); when the board knows no such member, or cannot be asked so,
the host gets a notice: PMs for the seat would be refused, and the seat's player never hears of it.
"""
from __future__ import annotations

import logging
from datetime import datetime
from typing import Any, Sequence

from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.store import Store
from forumgm.daemon.tick.notices import KIND

log = logging.getLogger(__name__)

TEMPLATE = "common/notice_seat_account.j2"
SUBJECT = "Замена игрока: аккаунт"


def check_seat_accounts(forum: Any, store: Store, games: Sequence[Any], now: datetime) -> list[int]:
    """Ask the board about each new account not asked yet; the notices drafted now. A failure to ask
    (the board is down) leaves the replacement to be asked at the next tick."""
    made = []
    for game in games:
        for row in store.replacements(game.id):
            if row["account_checked_at"] is not None:
                continue
            known = forum.knows_account(row["new_nick"])
            with store.transaction():
                if known is not True:
                    body = game.texts.render(TEMPLATE, game=game.id, seat=row["seat"], account=row["new_nick"],
                                             unknown=known is False, board=getattr(forum.spec, "name", ""))
                    made.append(draft(store, game.id, KIND, game.account, body, ref=f"seat_account:{row['id']}",
                                      subject=SUBJECT))
                    log.info("game %s: the board %s the account %s the seat %s was given to", game.id,
                             "knows no" if known is False else "cannot be asked about", row["new_nick"], row["seat"])
                store.account_checked(row["id"], now)
    return made
