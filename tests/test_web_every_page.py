"""Every page of the host's web page, for a game of each kind played through the local forum over
HTTP, in a real browser (Debian's Chromium via Playwright) at 1280 and 390 px: Russian words only
outside nicks, ids and code blocks; nothing scrolls sideways; on a touch phone every button is at
least 44 px high."""
from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Any, Callable

import pytest
import requests
from playwright.sync_api import expect

import test_e2e_arena as arena_e2e
from forumgm.daemon.cli import main
import bellum_forum_support as bellum_e2e
import test_e2e_mafia as mafia_e2e
from legends_host_support import PASSWORD, hosts_page
from legends_forum_support import GAME as LEGENDS_GAME, ROLES as LEGENDS_ROLES
from browser_support import fresh_page, send_password
from web_pages import PHONE, TOUCH_TARGET, WIDTHS, latin_words, names_of, screenshot_folder, show


@dataclass(frozen=True)
class Played:
    kind: str
    game_id: str
    daemon: Any
    stop: Callable[[], None]


def played_mafia(request, tmp_path, monkeypatch) -> Played:
    """Round 1 played and its report on the forum (conftest.py's `round_one`, a copy of its own); in
    round 2 two players have sent their PMs."""
    table = request.getfixturevalue("round_one").copy(tmp_path, monkeypatch)
    table.send(mafia_e2e.ROUND_2[:2])
    table.tick(mafia_e2e.msk(4, 10, 30))
    return Played("mafia", mafia_e2e.GAME, table.daemon, table.close)


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


def missing_now(store, game_id: str, roles) -> list[str]:
    """The players in the game who have sent nothing for the open phase, by the store's own rows."""
    phase = store.phases(game_id, status="pending")[0]["key"]
    gone = {row["nick"] for row in store.eliminations(game_id)}
    sent = {row["sender"] for row in store.orders(game_id, phase)}
    sent |= {row["voter"] for row in store.votes(game_id, phase) if row["counted"]}
    return [nick for nick in roles if nick not in gone | sent]


def check_mafia(page, store, base):
    """The attention box of a game with drafts waiting, a deadline and players missing; a past phase
    in words with its raw record readable; the roles; a paused game with its reason and its button."""
    box = page.locator("#attention")
    expect(box.locator(".fact.waiting").first).to_contain_text("черновик")
    expect(box.locator(".fact.deadline")).to_contain_text("круг 2 — дедлайн 04.03.2026 22:45 (МСК), осталось 12 ч 15 мин")
    expect(box.locator(".fact.deadline a.missing")).to_have_text(missing_now(store, mafia_e2e.GAME, mafia_e2e.ROLES))
    box.locator(".fact.deadline a.missing").first.click()
    assert page.evaluate("location.hash") != "" and page.locator(":target").count() == 1   # his row on the page
    phase = page.locator("#phase-round-1")
    expect(phase.locator(".events .preview")).to_contain_text("Итоги первого игрового дня")
    expect(phase.locator("text=Лиса (тюрьма по итогам голосования)")).to_have_count(1)
    raw = phase.locator("details.raw").first
    raw.locator("summary").click()
    expect(raw.locator("pre")).to_contain_text('"type": "jailed"')
    assert "\\u04" not in raw.locator("pre").inner_text()
    check_roles(page, mafia_e2e.ROLES)
    page.locator("form#pause").get_by_role("button", name="Поставить на паузу").click()
    paused = page.locator("#attention .fact.paused")
    expect(paused).to_contain_text("Игра на паузе с 04.03.2026 10:30 (МСК), поставил Ведущий: фазы не подводятся")
    paused.get_by_role("button", name="Продолжить игру").click()
    expect(page.locator(".flash.ok")).to_have_text("Игра продолжается.")
    expect(page.locator("#attention .fact.paused")).to_have_count(0)


def check_roles(page, roles: dict[str, str]):
    """The roles table, closed until the host opens it, every seat with its role."""
    table = page.locator("table.roles")
    expect(table).not_to_be_visible()
    page.locator("details.roles summary").click()
    for nick, role in roles.items():
        expect(table.locator("tr", has=page.locator("td", has_text=nick)).locator("td").nth(1)).to_have_text(role)


def check_legends(page, store, base):
    check_roles(page, LEGENDS_ROLES)
    expect(page.locator("table.roles")).to_contain_text("роли ещё не знает")
    expect(page.locator("#phase-night-1 .events .preview")).to_contain_text("Технический отчёт — ночь 1")
    expect(page.locator("#phase-day-2 .events .preview")).to_contain_text("Линч")


def check_bellum(page, store, base):
    """The latest turn map, drawn and loaded, beside the game."""
    image = page.locator("#latest-map + figure img.map")
    expect(image).to_be_visible()
    assert image.evaluate("img => img.complete && img.naturalWidth > 0")
    expect(page.locator("#phase-turn-1 .events .preview")).to_contain_text("Ход 1 (370 г.): технический отчёт")
    expect(page.locator("p.muted", has_text="Тайных ролей")).to_have_count(1)


def check_arena(page, store, base):
    """The fighters' state after the latest step, as the summary report shows it."""
    expect(page.locator("#position")).to_have_text("Состояние бойцов (шаг 1)")
    expect(page.locator("#position + .preview")).to_contain_text("Аскон")
    expect(page.locator("#position + .preview")).to_contain_text("Хан")
    expect(page.locator("#phase-step-1 .events .preview").first).to_contain_text("Арена — шаг 1, технический отчёт")


CHECKS = {"mafia": check_mafia, "legends": check_legends, "bellum": check_bellum, "arena": check_arena}
PLAYS = {"mafia": played_mafia, "legends": played_legends, "bellum": played_bellum, "arena": played_arena}


@pytest.fixture(params=sorted(PLAYS))
def played(request, tmp_path, monkeypatch):
    done = PLAYS[request.param](request, tmp_path, monkeypatch)
    yield done
    done.stop()


def pages(page, base: str, game_id: str, store, kind: str, width: int):
    """Each page of the site in turn, loaded in `page` (logged in): (name, loaded). The game's own
    page comes last: the checks of its kind go on on it."""
    yield f"{kind}-home", page.goto(f"{base}/")
    yield f"{kind}-drafts", page.goto(f"{base}/drafts")
    pending = store.drafts(status="pending", game_id=game_id)
    if pending:
        page.locator(f"#draft-{pending[0]['id']}").get_by_role("button", name="Предпросмотр").click()
        yield f"{kind}-preview", None
    resolved = store.phases(game_id, status="resolved")
    yield f"{kind}-rerun", page.goto(f"{base}/games/{game_id}/phases/{resolved[-1]['key']}/rerun")
    yield f"{kind}-missing", page.goto(f"{base}/games/{game_id}-нет")
    yield f"{kind}-role", page.goto(f"{base}/role/нет-такой-ссылки")
    yield f"{kind}-game", page.goto(f"{base}/games/{game_id}")


def test_every_page_reads_in_russian_and_fits_the_screen(played, desktop, handset):
    problems: list[str] = []
    screenshots = screenshot_folder()
    with hosts_page(played.daemon) as (store, base):
        allowed = names_of(store, played.game_id)
        for width in WIDTHS:
            phone = width == PHONE
            with fresh_page(handset) if phone else fresh_page(desktop, width) as page:
                page.goto(f"{base}/login")
                shown = [show(page, f"{played.kind}-login", width, screenshots)]
                send_password(page, PASSWORD)
                shown += [show(page, name, width, screenshots)
                          for name, _ in pages(page, base, played.game_id, store, played.kind, width)]
                CHECKS[played.kind](page, store, base)
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
    assert not problems, "\n".join(problems)


def test_the_roles_are_the_hosts_alone(day_two_resolved, caplog, capsys):
    """On his page behind the login and in `forumgm status --roles`; on no page anyone else opens, and
    in no log line."""
    _server, _clock, config, daemon, _posts = day_two_resolved
    roles = set(LEGENDS_ROLES.values())
    with caplog.at_level(logging.DEBUG), hosts_page(daemon) as (store, base):
        anyone = requests.Session()
        public = [anyone.get(f"{base}{path}") for path in ("/", f"/games/{LEGENDS_GAME}", "/drafts",
                                                            "/role/нет-такой-ссылки", f"/maps/{LEGENDS_GAME}/1/0")]
        assert [answer.url.endswith("/login") for answer in public[:3]] == [True] * 3
        host = requests.Session()
        form = host.get(f"{base}/login").text
        token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
        host.post(f"{base}/login", data={"password": PASSWORD, "csrf_token": token})
        own = host.get(f"{base}/games/{LEGENDS_GAME}").text
        audited = json.dumps([row["detail"] for row in store.audit_log()], ensure_ascii=False)
    assert all(f"<td data-label=\"Роль\">{role}</td>" in own for role in roles)
    for answer in public:
        assert not [role for role in roles if role in answer.text], answer.url
    assert not [role for role in roles if role in caplog.text]
    assert not [role for role in roles if role in audited]

    assert main(["status", "--config", str(config)]) == 0
    assert not [role for role in roles if role in capsys.readouterr().out]
    assert main(["status", "--config", str(config), "--roles"]) == 0
    listed = capsys.readouterr().out
    assert "  roles (secret):" in listed
    assert "    Аскон: Бес, Клан Хаоса, in the game (роли ещё не знает)" in listed
    assert "    Кума: Единорог, Клан Природы, out (роли ещё не знает)" in listed
