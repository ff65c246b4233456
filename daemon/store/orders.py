"""The order PMs of a phase as the store keeps them, turned back into the engine's input."""
from __future__ import annotations

from typing import Iterable

from forumgm.engines.base import OrderPm


def order_pms(rows: Iterable[dict]) -> list[OrderPm]:
    """Rows of `Store.orders` (oldest first) as the engine reads them."""
    return [OrderPm(row["sender"], row["raw_text"], row["pm_id"], row["sent_at"]) for row in rows]
