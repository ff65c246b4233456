"""One function makes every draft and applies the game's [approval]: drafts/compose.py `draft`. No other
daemon module calls the store's raw insert, and the host's notices and sign-up drafts wait for him
whatever [approval] says, because [approval] cannot name them."""
from __future__ import annotations

import ast
from datetime import datetime, timezone
from pathlib import Path

import pytest

import forumgm.daemon
from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.settings.game import draft_kinds
from forumgm.daemon.store import Store
from forumgm.daemon.tick import notices, signup, signup_choices

DAEMON = Path(forumgm.daemon.__file__).parent
COMPOSE = DAEMON / "drafts" / "compose.py"
RAW_INSERT = "insert_draft"


def raw_inserts(source: str) -> list[int]:
    """Lines that call the store's raw draft insert (or name it, to call it later)."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and node.attr == RAW_INSERT]


def test_the_check_sees_a_raw_insert():
    assert raw_inserts("store.insert_draft('g', 'receipt', 'Аскон', 'текст', None, True)") == [1]
    assert raw_inserts("make = store.insert_draft\nmake('g')") == [1]
    assert raw_inserts("draft(store, 'g', 'receipt', 'Аскон', 'текст')") == []


def test_only_compose_calls_the_raw_insert():
    modules = sorted(DAEMON.rglob("*.py"))
    assert COMPOSE in modules and raw_inserts(COMPOSE.read_text(encoding="utf-8"))
    found = {str(path.relative_to(DAEMON)): lines for path in modules
             if path not in (COMPOSE, DAEMON / "store" / "drafts.py")
             and (lines := raw_inserts(path.read_text(encoding="utf-8")))}
    assert found == {}


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "store.sqlite", now=lambda: datetime(2026, 3, 2, 20, 0, tzinfo=timezone.utc))
    store.register_game("m1", "mafia", None, "https://forum.example/t/1", "Europe/Moscow", 7, {"Аскон": []})
    yield store
    store.close()


def test_approval_false_sends_without_the_host_and_everything_else_waits(store):
    approval = {"receipt": False, "lynch_report": True}
    sent = draft(store, "m1", "receipt", "Аскон", "Приказ принят", "night-1", approval=approval, ref="receipt:1")
    held = draft(store, "m1", "lynch_report", "thread", "Итоги дня", "day-1", approval=approval)
    unlisted = draft(store, "m1", "vote_count", "thread", "Подсчёт", "day-1", approval=approval)
    no_table = draft(store, "m1", signup.KIND, "host", "Список записавшихся")
    assert [store.draft(i)["status"] for i in (sent, held, unlisted, no_table)] == [
        "approved", "pending", "pending", "pending"]
    assert [store.draft(i)["needs_approval"] for i in (sent, held, unlisted, no_table)] == [0, 1, 1, 1]


def test_a_reference_is_drafted_once(store):
    first = draft(store, "m1", "receipt", "Аскон", "Приказ принят", "night-1", ref="receipt:7")
    again = draft(store, "m1", "receipt", "Аскон", "Приказ принят снова", "night-1", ref="receipt:7")
    assert again == first and store.draft(first)["body"] == "Приказ принят"


@pytest.mark.parametrize("game", ["mafia", "legends", "bellum", "arena"])
def test_no_approval_table_can_release_the_hosts_own_drafts(game):
    held = {notices.KIND, signup.KIND, signup_choices.KIND, signup_choices.REPLY_KIND}
    assert held.isdisjoint(draft_kinds(game))
