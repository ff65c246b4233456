"""Every page of the host's web page, for a game of each kind played through the local forum over
HTTP, in a real browser (Debian's Chromium via Playwright) at 1280 and 390 px: Russian words only
outside nicks, ids and code blocks; nothing scrolls sideways; on a touch phone every button is at
least 44 px high."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pytest
from playwright.sync_api import sync_playwright

import test_e2e_arena as arena_e2e
import test_e2e_bellum as bellum_e2e
import test_e2e_mafia as mafia_e2e
from test_host_actions_votes import PASSWORD, day_two, day_two_resolved, hosts_page  # noqa: F401  (fixtures reused)
from legends_forum_support import GAME as LEGENDS_GAME
from test_e2e_legends import game  # noqa: F401  (the fixture is reused: the local forum and the installation)
from test_web_browser import CHROMIUM_ARGS, log_in
from web_pages import PHONE, TOUCH_TARGET, WIDTHS, latin_words, names_of, screenshot_folder, show


@dataclass(frozen=True)
class Played:
    kind: str
    game_id: str
    daemon: Any
    stop: Callable[[], None]


def played_mafia(request, tmp_path, monkeypatch) -> Played:
    """Round 1 played and its report on the forum, round 2 open with orders missing."""
    table = mafia_e2e.Table(tmp_path, monkeypatch)
    table.tick(mafia_e2e.msk(2, 22))
    table.approve()
    table.tick(mafia_e2e.msk(2, 22, 10))
    mafia_e2e.play_round(table, 1, mafia_e2e.ROUND_1, 3)
    table.at(mafia_e2e.msk(4, 9))
    return Played("mafia", mafia_e2e.GAME, table.daemon, lambda: (table.store.close(), table.server.stop()))


def played_legends(request, tmp_path, monkeypatch) -> Played:
    """Two nights and day 2's lynch resolved, the drafts of day 2 waiting."""
    _server, _clock, _config, daemon, _posts = request.getfixturevalue("day_two_resolved")
    return Played("legends", LEGENDS_GAME, daemon, lambda: None)


def played_bellum(request, tmp_path, monkeypatch) -> Played:
    """Turn 1 resolved once every player was ready, its reports and map waiting."""
    table = bellum_e2e.Table(tmp_path, monkeypatch)
    table.tick(bellum_e2e.msk(2, 12))
    table.send(bellum_e2e.msk(2, 13), "Хан", "3 из Паннонии в Норик, атакуя ЗРИ\nход готов")
    table.send(bellum_e2e.msk(2, 14), "Аскон", "Норик: встретить боем всех\nход готов")
    table.send(bellum_e2e.msk(2, 15), "Зорро", "4 аланов из Сарматии в Дакию, атакуя остготов\nход готов")
    table.tick(bellum_e2e.msk(2, 18))
    return Played("bellum", bellum_e2e.GAME, table.daemon, lambda: (table.store.close(), table.server.stop()))


def played_arena(request, tmp_path, monkeypatch) -> Played:
    """Step 1 of a duel played and posted, step 2 open."""
    arena = arena_e2e.Arena(tmp_path, monkeypatch, setup=arena_e2e.DUEL)
    arena.tick(arena_e2e.msk(2, 12))
    arena.send(arena_e2e.msk(2, 13), "Хан", "ПР: Отдых ×4, X L(голова)\nНоги: Шаг вперёд")
    arena.send(arena_e2e.msk(2, 13, 5), "Аскон", "Правая рука: Выпад(голова)\nЛР: Блок(тело)")
    arena_e2e.resolve_step(arena, 1)
    return Played("arena", arena_e2e.GAME, arena.daemon, lambda: (arena.store.close(), arena.server.stop()))


PLAYS = {"mafia": played_mafia, "legends": played_legends, "bellum": played_bellum, "arena": played_arena}


@pytest.fixture(params=sorted(PLAYS))
def played(request, tmp_path, monkeypatch):
    done = PLAYS[request.param](request, tmp_path, monkeypatch)
    yield done
    done.stop()


def pages(page, base: str, game_id: str, store, kind: str, width: int):
    """Each page of the site in turn, loaded in `page` (logged in): (name, loaded)."""
    yield f"{kind}-home", page.goto(f"{base}/")
    yield f"{kind}-game", page.goto(f"{base}/games/{game_id}")
    yield f"{kind}-drafts", page.goto(f"{base}/drafts")
    pending = store.drafts(status="pending", game_id=game_id)
    if pending:
        page.locator(f"#draft-{pending[0]['id']}").get_by_role("button", name="Предпросмотр").click()
        yield f"{kind}-preview", None
    resolved = store.phases(game_id, status="resolved")
    yield f"{kind}-rerun", page.goto(f"{base}/games/{game_id}/phases/{resolved[-1]['key']}/rerun")
    yield f"{kind}-missing", page.goto(f"{base}/games/{game_id}-нет")
    yield f"{kind}-role", page.goto(f"{base}/role/нет-такой-ссылки")


def test_every_page_reads_in_russian_and_fits_the_screen(played):
    problems: list[str] = []
    screenshots = screenshot_folder()
    with hosts_page(played.daemon) as (store, base), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        allowed = names_of(store, played.game_id)
        for width in WIDTHS:
            phone = width == PHONE
            context = browser.new_context(viewport={"width": width, "height": 844 if phone else 900},
                                          has_touch=phone, is_mobile=phone)
            page = context.new_page()
            page.goto(f"{base}/login")
            shown = [show(page, f"{played.kind}-login", width, screenshots)]
            log_in(page, base, PASSWORD)
            shown += [show(page, name, width, screenshots)
                      for name, _ in pages(page, base, played.game_id, store, played.kind, width)]
            for one in shown:
                if one.scroll_width > width:
                    problems.append(f"{one.name} at {width} px scrolls sideways: {one.scroll_width} px wide")
                if one.small_targets:
                    problems.append(f"{one.name}: buttons under {TOUCH_TARGET} px: {', '.join(one.small_targets)}")
                if set(one.table_rows) - {"block", "hidden"}:
                    problems.append(f"{one.name} at {width} px has table rows that are no cards: {one.table_rows}")
                words = latin_words(one.html, allowed)
                if words:
                    problems.append(f"{one.name} at {width} px has Latin words: {sorted(set(words))}")
            assert not phone or any(one.table_rows for one in shown), "no table measured on the phone"
            context.close()
        browser.close()
    assert not problems, "\n".join(problems)
