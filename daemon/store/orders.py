"""The order PMs of a phase as the store keeps them, turned back into the engine's input."""
from __future__ import annotations

from typing import Iterable

from forumgm.daemon.store.seats import Seats
from forumgm.engines.base import OrderPm


def order_pms(rows: Iterable[dict], seats: Seats) -> list[OrderPm]:
    """Rows of `Store.orders` (oldest first) as the engine reads them: each with the names the
    seats went by when it was sent, so a re-run reads it as it was read."""
    return [OrderPm(row["sender"], row["raw_text"], row["pm_id"], row["sent_at"], seats.names(row["sent_at"]))
            for row in rows]
