"""The host's actions on his page in a real browser (Debian's Chromium via Playwright), on a Mafia game
played through the local forum over HTTP (conftest.py's `hosted`): correct an order, see the re-run's
difference, confirm, approve, and the corrected report reaches the forum once; deadline, pause,
replace and finish from the page; no action without the session and its CSRF token."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from forumgm.daemon.offline.localforum.server import STOP_POLL
from forumgm.daemon.runtime.loop import game_runs
from forumgm.daemon.store import Store
from forumgm.daemon.web.server import web_server
from legends_host_support import PASSWORD
from localforum_support import HOST, msk
from test_e2e_mafia import GAME, Table
from mafia_walk_support import GAME as SPINE_GAME
from browser_support import log_in, submit_correction


def corrections(table: Table) -> list:
    return table.host_posts("Исправление.")


def test_a_corrected_vote_rerun_from_the_page_reaches_the_forum_once(hosted, page):
    table, store, base = hosted
    log_in(page, base, PASSWORD)
    page.goto(f"{base}/games/{GAME}")
    submit_correction(page, "round-1", "Гор", "голос: Тора")
    expect(page.locator(".flash.ok")).to_contain_text("Приказы игрока Гор (круг 1) исправлены")
    expect(page.locator(".order.correction")).to_contain_text("исправление ведущего №1: Ведущий, круг 1")
    expect(page.locator(".order.replaced")).to_contain_text("Заменено исправлением ведущего №1")

    page.get_by_role("link", name="Пересчитать круг 1…").click()
    expect(page.locator("h1")).to_have_text(f"Пересчёт: {GAME}, круг 1")
    report = page.locator(".draft.change", has_text="итоги дня")
    expect(report.locator("h3")).to_contain_text("уже отправлен, поэтому уйдёт как исправление")
    expect(report.locator("pre.diff .add").first).to_contain_text("Исправление.")
    expect(page.locator("table.eliminated td").first).to_contain_text("Лиса (тюрьма по итогам голосования)")
    assert [r["rerun"] for r in store.resolutions(GAME, "round-1")] == [0]     # nothing changed yet

    page.get_by_role("button", name="Подтвердить пересчёт").click()
    expect(page.locator(".flash.ok")).to_contain_text("Пересчитано: круг 1;")
    [draft] = [d for d in store.drafts(status="pending", game_id=GAME) if d["kind"] == "round_report"]
    assert draft["body"].startswith("[b]Исправление.[/b] Ведущий пересчитал итоги (круг 1)")
    page.locator(f"#draft-{draft['id']}").get_by_role("button", name="Одобрить").click()
    expect(page.locator(".flash.ok")).to_contain_text(f"№{draft['id']}")

    table.tick(msk(4, 9, 5))
    table.tick(msk(4, 9, 10))
    [posted] = corrections(table)
    assert posted.author == HOST and "Итоги первого игрового дня" in posted.text
    assert len(table.host_posts("Итоги первого игрового дня")) == 2      # the report, then its correction
    actions = [row["action"] for row in store.audit_log()[::-1] if row["actor"] == "host"]
    assert actions[-4:] == ["web.login", "order.correct", "phase.rerun", "draft.approved"]


def test_deadline_pause_replace_and_finish_from_the_page(hosted, page):
    table, store, base = hosted
    log_in(page, base, PASSWORD)
    page.goto(f"{base}/games/{GAME}")
    deadline = store.phase(GAME, "round-2")["deadline"]
    page.locator("form#deadline input[name=extend]").fill("2ч")
    page.get_by_role("button", name="Перенести дедлайн").click()
    expect(page.locator(".flash.ok")).to_have_text("Дедлайн перенесён.")
    assert store.phase(GAME, "round-2")["deadline"] - deadline == timedelta(hours=2)
    page.locator("form#deadline input[name=extend]").fill("через часик")
    page.get_by_role("button", name="Перенести дедлайн").click()
    expect(page.locator(".flash.error")).to_contain_text("«через часик» — не промежуток времени")
    # the time the page shows is the time it takes back, in the game's zone
    moved = store.phase(GAME, "round-2")["deadline"] + timedelta(minutes=30)
    page.locator("form#deadline input[name=set]").fill(moved.astimezone(msk(1, 0).tzinfo).strftime("%d.%m.%Y %H:%M"))
    page.get_by_role("button", name="Перенести дедлайн").click()
    expect(page.locator(".flash.ok")).to_have_text("Дедлайн перенесён.")
    assert store.phase(GAME, "round-2")["deadline"] == moved

    page.get_by_role("button", name="Поставить на паузу").click()
    expect(page.locator("#attention .fact.paused")).to_contain_text("Игра на паузе")
    table.tick(msk(4, 23, 30))                 # past the moved deadline: nothing resolves while paused
    assert store.phase(GAME, "round-2")["status"] == "pending"
    page.locator("#attention").get_by_role("button", name="Продолжить игру").click()      # the box's own button
    expect(page.locator(".flash.ok")).to_have_text("Игра продолжается.")
    expect(page.locator("#attention .fact.paused")).to_have_count(0)

    form = page.locator("form#replace")
    form.locator("select[name=old]").select_option("Ива")
    form.locator("input[name=new]").fill("Новенький")
    form.get_by_role("button", name="Заменить").click()
    expect(page.locator(".flash.ok")).to_have_text("Новенький играет вместо Ива.")
    expect(page.locator("table.players")).to_contain_text("Ива→ Новенький с ")     # the seat and who holds it since when
    state = str(store.latest_snapshot(GAME)["state"])
    assert "Ива" in state and "Новенький" not in state          # the seat keeps its name: nothing is rewritten

    page.locator("form#finish input[name=winner]").fill("Мирные жители")
    page.get_by_role("button", name="Закончить игру").click()
    expect(page.locator(".flash.ok")).to_have_text("Игра окончена; объявление об итогах в черновиках.")
    expect(page.locator("p.state")).to_contain_text("победитель: Мирные жители")
    expect(page.locator("form#correct")).to_have_count(0)
    expect(page.locator("p.state")).not_to_contain_text("дедлайн")      # the open phase's deadline is no more
    expect(page.locator("table.audit tr").nth(1).locator("td").nth(2)).to_contain_text("Закончил игру; победитель: Мирные жители.")
    assert [row["action"] for row in store.audit_log()[::-1] if row["actor"] == "host"][-7:] == ["web.login",
        "deadline.move", "deadline.move", "game.pause", "game.resume", "player.replace", "game.finish"]
    page.goto(base)
    expect(page.locator("table.games td[data-label=Дедлайн]")).to_have_text("—")
    expect(page.locator("#attention .fact.deadline")).to_have_count(0)


def test_host_actions_need_the_session_and_its_csrf_token(hosted, page):
    table, store, base = hosted
    target = f"{base}/games/{GAME}/pause"
    anonymous = page.request.post(target, form={"csrf_token": "x"}, max_redirects=0)
    assert anonymous.status == 403
    preview = page.request.get(f"{base}/games/{GAME}/phases/round-1/rerun", max_redirects=0)
    assert preview.status == 302 and preview.headers["location"].endswith("/login")
    log_in(page, base, PASSWORD)
    page.goto(f"{base}/games/{GAME}")
    refused = page.request.post(target, form={}, max_redirects=0)
    assert refused.status == 403
    forged = page.request.post(f"{base}/games/{GAME}/phases/round-1/rerun", form={"csrf_token": "forged", "digest": "x"},
                               max_redirects=0)
    assert forged.status == 403
    assert store.game(GAME)["paused_at"] is None and len(store.resolutions(GAME, "round-1")) == 1
    token = page.locator("form#pause input[name=csrf_token]").get_attribute("value")
    accepted = page.request.post(target, form={"csrf_token": token}, max_redirects=0)
    assert accepted.status == 302 and store.game(GAME)["paused_at"] is not None


def test_the_draft_queue_previews_bbcode_and_shows_the_last_edit(hosted, page):
    table, store, base = hosted
    draft = store.insert_draft(GAME, "host_notice", "thread", "[b]Жирный[/b] и <script>alert(1)</script>", "round-1", True)
    log_in(page, base, PASSWORD)
    page.goto(f"{base}/drafts")
    card = page.locator(f"#draft-{draft}")
    expect(card.locator(".preview strong")).to_have_text("Жирный")
    expect(card.locator(".preview")).to_contain_text("<script>alert(1)</script>")   # shown as text, not run
    expect(card.locator(".preview script")).to_have_count(0)
    card.locator("textarea").fill("[b]Жирный[/b] и [color=red]красный[/color]")
    card.get_by_role("button", name="Сохранить правку").click()
    card = page.locator(f"#draft-{draft}")
    expect(card.locator(".preview span[style*='color']")).to_have_text("красный")
    card.locator(".last-change summary").click()
    expect(card.locator(".last-change .del")).to_have_text("-[b]Жирный[/b] и <script>alert(1)</script>")
    expect(card.locator(".last-change .add")).to_have_text("+[b]Жирный[/b] и [color=red]красный[/color]")


def test_the_tally_links_each_vote_to_its_post(tmp_path, page):
    """The seeded store of the page tests (thread votes in posts p1-p3), served with a phpBB game's links."""
    from functools import partial
    from types import SimpleNamespace

    from forumgm.config import data_path
    from forumgm.daemon.settings.installation import load_installation
    from forumgm.daemon.forum.permalink import post_url_builder
    from forumgm.engines.base import Rules
    from web_seed import GAME as SEEDED, PASSWORD as SEEDED_PASSWORD, seeded_store

    forum = load_installation(data_path("forumgm.example.toml")).forum
    # a game whose engine counts no votes by PM (Rules' default): the page shows the thread's votes as stored
    links = SimpleNamespace(post_url=post_url_builder(forum, "https://forum.example.org/viewtopic.php?t=7"),
                            rules=SimpleNamespace(load=dict, pm_vote_tally=partial(Rules.pm_vote_tally, None)))
    seeded = seeded_store(tmp_path)
    server = web_server(seeded.store, SEEDED_PASSWORD, "127.0.0.1", 0, games=lambda: {SEEDED: links})
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": STOP_POLL}, daemon=True)
    thread.start()
    try:
        log_in(page, f"http://127.0.0.1:{server.server_port}", SEEDED_PASSWORD)
        page.goto(f"http://127.0.0.1:{server.server_port}/games/{SEEDED}")
        expect(page.locator("table.tally tr").nth(1).locator("a")).to_have_text(["Аскон", "Вереск"])
        expect(page.locator("table.tally a", has_text="Вереск")).to_have_attribute(
            "href", "https://forum.example.org/viewtopic.php?p=p2#pp2")
    finally:
        server.shutdown()
        thread.join()
        server.server_close()
        seeded.store.close()


@pytest.mark.parametrize("path", ["/", f"/games/{GAME}", "/drafts", f"/games/{GAME}/phases/round-1/rerun"])
def test_the_pages_fit_a_phone_screen(hosted, phone, path):
    _table, _store, base = hosted
    log_in(phone, base, PASSWORD)
    phone.goto(base + path)
    expect(phone.locator("main")).to_be_visible()
    overflow = phone.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0


def test_an_older_phase_is_re_run_from_the_page_with_every_later_one(played, page, monkeypatch):
    """Two rounds of the example game resolved; the host corrects day 1 and re-runs it: day 2 follows."""
    from forumgm.daemon.host_actions.correct import correct

    installation, _config = played
    store = Store(installation.storage)
    games = {game.id: game for game in game_runs(installation)}
    game = games[SPINE_GAME]
    for nick, text in (("Аскон", "голос: Бук\nпроверить Бука"), ("Хан", "голос: Бук\nлечить Аскона"),
                       ("Тора", "голос: Бук")):
        correct(game, store, "round-1", nick, text, "host", store.now())
    server = web_server(store, PASSWORD, "127.0.0.1", 0, games=lambda: games)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": STOP_POLL}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        log_in(page, base, PASSWORD)
        page.goto(f"{base}/games/{SPINE_GAME}")
        page.get_by_role("link", name="Пересчитать круг 1…").click()
        expect(page.locator("#chain")).to_contain_text("После этой фазы уже подведены: круг 2.")
        expect(page.locator("#rerun-round-1 table.eliminated td")).to_have_text(
            ["Лиса (тюрьма по итогам голосования)", "Бук (тюрьма по итогам голосования), Хан (убийство мафией)"])
        expect(page.locator("#rerun-round-2 .draft.change", has_text="предупреждение · ЛС: Аскон")).to_contain_text(
            "новый")
        assert [r["rerun"] for r in store.resolutions(SPINE_GAME)] == [0, 0]      # nothing changed yet

        page.get_by_role("button", name="Подтвердить пересчёт").click()
        expect(page.locator(".flash.ok")).to_contain_text("Пересчитано: круг 1, круг 2;")
        assert [(r["phase_key"], r["current"]) for r in store.resolutions(SPINE_GAME) if r["rerun"]] == [
            ("round-1", 1), ("round-2", 1)]
        assert [e["nick"] for e in store.eliminations(SPINE_GAME) if e["phase_key"] == "round-1"] == ["Бук", "Хан"]
    finally:
        server.shutdown()
        thread.join()
        server.server_close()
        store.close()
