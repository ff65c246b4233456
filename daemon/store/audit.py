"""The audit log of every host action and publish, and which host notifications went out when."""
from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Iterable

from forumgm.daemon.store.base import StoreBase, from_text, to_text


class Audit(StoreBase):
    def notified_keys(self) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT key FROM notifications")}

    def last_notification_at(self) -> datetime | None:
        row = self.db.execute("SELECT MAX(sent_at) FROM notifications").fetchone()
        return from_text(row[0]) if row and row[0] else None

    def record_notification(self, keys: Iterable[str], at: datetime) -> None:
        for key in keys:
            self.db.execute("INSERT INTO notifications (key, sent_at) VALUES (?, ?) ON CONFLICT(key) DO NOTHING",
                            [key, to_text(at)])

    def audit(self, actor: str, action: str, detail: Any = None) -> None:
        self._insert("audit", {"at": to_text(self.now()), "actor": actor, "action": action,
                               "detail": json.dumps(detail if detail is not None else {}, ensure_ascii=False,
                                                    default=str)})

    def audit_log(self, limit: int | None = None) -> list[dict]:
        sql = "SELECT * FROM audit ORDER BY id DESC"
        return self._rows(sql + (f" LIMIT {int(limit)}" if limit else ""))
