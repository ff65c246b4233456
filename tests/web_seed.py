"""A temporary store with one Mafia game as the host's page would find it mid-round, and a Bellum game whose turn
report carries its map (shared by test_web_*)."""
from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from forumgm.daemon.drafts.pictures import save_pictures
from forumgm.daemon.store import Store
from forumgm.engines.base import CountedVote, DiscardedVote

PASSWORD = "correct horse battery staple"
GAME = "mafia-7"
MAP_GAME = "bellum-3"      # a game whose engine draws maps
PLAYERS = ("Аскон", "Хана", "Вереск", "Дима", "<b>Злодей</b>")
NOW = datetime(2024, 3, 2, 12, 0, tzinfo=timezone.utc)
DEADLINE = datetime(2024, 3, 2, 19, 45, tzinfo=timezone.utc)   # 22:45 in Moscow
# a 1x1 transparent PNG: the smallest real image a draft can carry as its map
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")


@dataclass(frozen=True)
class Seeded:
    store: Store
    vote_count: int       # pending drafts
    round_report: int
    role_pm: int
    receipt: int
    sent: int
    map_path: Path
    report: int           # MAP_GAME's turn report carrying the map


def seeded_store(folder: Path) -> Seeded:
    store = Store(folder / "forumgm.sqlite3", now=lambda: NOW)
    store.register_forum("local", "phpbb", "http://127.0.0.1:1", "Ведущий")
    store.register_game(GAME, "mafia", "local", "http://127.0.0.1:1/viewtopic.php?t=7", "Europe/Moscow", 7,
                        {nick: [] for nick in PLAYERS})
    store.ensure_phase(GAME, "round-1", "round", 1, None, NOW - timedelta(hours=14))
    store.ensure_phase(GAME, "round-2", "round", 2, NOW - timedelta(hours=14), DEADLINE)
    with store.transaction():
        resolution = store.begin_resolution(GAME, "round-1", NOW - timedelta(hours=13))
        store.add_elimination(GAME, "round-1", resolution, "Дима", "kill_mafia")
    store.replace_votes(GAME, "round-2", [
        CountedVote("Аскон", "Хана", "p1", NOW, "Хана"),
        CountedVote("Вереск", "Хана", "p2", NOW, "Хана"),
        CountedVote("Хана", "Аскон", "p3", NOW, "Аскон"),
    ], [DiscardedVote("<b>Злодей</b>", "<i>Хвост</i>", "unknown_name", "p4", "<u>Хана</u>")])
    store.record_order(GAME, "round-2", "pm-11", "Хана", NOW, "голос: Аскон\nлетать над городом", [
        {"line": "голос: Аскон", "ok": True, "canonical": "голос: Аскон"},
        {"line": "летать над городом", "ok": False, "reason": "непонятный приказ"},
    ])
    receipt = store.insert_draft(GAME, "receipt", "Хана", "Принято: голос: Аскон\nОтклонено: летать над городом",
                              "round-2", True, ref="receipt:pm-11")
    vote_count = store.insert_draft(GAME, "vote_count", "thread", "Хана — 2\nАскон — 1 <script>alert(1)</script>",
                                 "round-2", True)
    round_report = store.insert_draft(GAME, "round_report", "thread", "Посажен: ...", "round-2", True)
    role_pm = store.insert_draft(GAME, "role", "Аскон", "Ваша роль: Комиссар", "round-1", True)
    sent = store.insert_draft(GAME, "warning", "Вереск", "Предупреждение", "round-1", False)
    store.mark_sending(sent, NOW)
    store.mark_sent(sent, "pm:9001", NOW)
    map_path, = save_pictures(store.path, MAP_GAME, "turn-1", {"turn-1.png": PNG})
    store.register_game(MAP_GAME, "bellum", "local", "http://127.0.0.1:1/viewtopic.php?t=3", "Europe/Moscow", 3,
                        {"Аларих": []})
    report = store.insert_draft(MAP_GAME, "literary_report", "thread", "Итоги дня.\n\n[карта]\n\nКонец.", "turn-1", True,
                             pictures=[map_path, map_path.with_name("missing.svg")])
    return Seeded(store, vote_count, round_report, role_pm, receipt, sent, map_path, report)


def audit_actions(store: Store) -> list[tuple[str, str, dict]]:
    return [(row["actor"], row["action"], row["detail"]) for row in reversed(store.audit_log())]


def without_labels(html: str) -> str:
    """A page's HTML, its table cells without the column names they carry for the phone's cards."""
    return re.sub(r'<td data-label="[^"]*"', "<td", html)
