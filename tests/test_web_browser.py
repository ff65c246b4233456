"""The host's page in a real browser (Debian's Chromium via Playwright) against a seeded store."""
from __future__ import annotations

import threading

import pytest
from playwright.sync_api import expect

from forumgm.daemon.offline.localforum.server import STOP_POLL
from forumgm.daemon.store.role_links import role_link_path
from forumgm.daemon.web.server import web_server
from browser_support import log_in
from web_seed import GAME, MAP_GAME, PASSWORD, audit_actions, seeded_store

@pytest.fixture
def site(tmp_path):
    seeded = seeded_store(tmp_path)
    server = web_server(seeded.store, PASSWORD, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": STOP_POLL}, daemon=True)
    thread.start()
    yield seeded, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()
    server.server_close()
    seeded.store.close()


def decide(page, draft_id, button):
    page.locator(f"#draft-{draft_id}").get_by_role("button", name=button).click()
    expect(page.locator(".flash")).to_contain_text(f"№{draft_id}")


def test_host_works_through_the_drafts(site, page, tmp_path):
    seeded, base = site
    store = seeded.store

    log_in(page, base, "не тот пароль")
    expect(page.locator(".flash.error")).to_have_text("Неверный пароль.")
    page.goto(f"{base}/drafts")
    expect(page.locator("h1")).to_have_text("Вход для ведущего")

    log_in(page, base, PASSWORD)
    expect(page.locator("h1")).to_have_text("Игры")
    page.locator("table.games").get_by_role("link", name=GAME).click()
    expect(page.locator("table.tally tr").nth(1).locator("td")).to_have_text(["Хана", "2", "Аскон, Вереск"])

    page.click("text=Черновики")
    page.locator(f"#draft-{seeded.vote_count} textarea").fill("Хана — 2\nАскон — 1\nВереск — 0")
    decide(page, seeded.vote_count, "Сохранить правку")
    decide(page, seeded.round_report, "Одобрить")
    decide(page, seeded.role_pm, "Отклонить")
    page.screenshot(path=tmp_path / "drafts.png", full_page=True)     # for a human eye, kept by pytest

    assert store.draft(seeded.vote_count)["body"] == "Хана — 2\nАскон — 1\nВереск — 0"
    assert store.draft(seeded.vote_count)["status"] == "pending"
    assert [edit["edited_by"] for edit in store.draft_edits(seeded.vote_count)] == ["host"]
    assert store.draft(seeded.round_report)["status"] == "approved"
    assert store.draft(seeded.role_pm)["status"] == "rejected"
    host_actions = [(action, detail["draft"]) for actor, action, detail in audit_actions(store)
                    if actor == "host" and "draft" in detail]
    assert host_actions == [("draft.edit", seeded.vote_count), ("draft.approved", seeded.round_report),
                            ("draft.rejected", seeded.role_pm)]
    expect(page.locator("form.pending")).to_have_count(len(store.drafts(status="pending")))


def test_a_post_without_the_csrf_token_is_refused(site, page):
    seeded, base = site
    log_in(page, base, PASSWORD)
    page.goto(f"{base}/drafts")
    target = f"{base}/drafts/{seeded.vote_count}"
    refused = page.request.post(target, form={"action": "approve"}, max_redirects=0)
    assert refused.status == 403
    assert seeded.store.draft(seeded.vote_count)["status"] == "pending"
    token = page.locator(f"#draft-{seeded.vote_count} input[name=csrf_token]").get_attribute("value")
    accepted = page.request.post(target, form={"action": "approve", "csrf_token": token}, max_redirects=0)
    assert accepted.status == 302
    assert seeded.store.draft(seeded.vote_count)["status"] == "approved"


def test_a_role_link_shows_the_role_once(site, page):
    seeded, base = site
    token = seeded.store.role_link_token(seeded.store.create_role_link(GAME, "Хана", "Доктор. Каждую ночь лечит одного игрока."))
    page.goto(base + role_link_path(token))
    expect(page.locator("h1")).to_have_text("Хана, ваша роль")
    expect(page.locator("pre")).to_have_text("Доктор. Каждую ночь лечит одного игрока.")
    page.reload()
    expect(page.locator("h1")).to_have_text("Ссылка уже использована")
    expect(page.locator("main")).not_to_contain_text("Доктор")


def test_an_edit_is_previewed_with_its_difference_before_it_is_saved(site, page):
    seeded, base = site
    store = seeded.store
    before = store.draft(seeded.round_report)["body"]
    log_in(page, base, PASSWORD)
    page.goto(f"{base}/drafts")
    edited = "Посажен: [b]Хана[/b]\nРоль: Доктор"
    page.locator(f"#draft-{seeded.round_report} textarea").fill(edited)
    page.locator(f"#draft-{seeded.round_report}").get_by_role("button", name="Предпросмотр").click()

    expect(page.locator("h1")).to_have_text(f"Предпросмотр черновика №{seeded.round_report}")
    expect(page.locator(".preview strong")).to_have_text("Хана")           # the BBCode as the forum shows it
    expect(page.locator("#preview-diff .del")).to_have_text(["-Посажен: ..."])
    expect(page.locator("#preview-diff .add")).to_have_text(["+Посажен: [b]Хана[/b]", "+Роль: Доктор"])
    expect(page.locator("textarea[name=body]")).to_have_value(edited)
    assert store.draft(seeded.round_report)["body"] == before and store.draft_edits(seeded.round_report) == []

    page.locator("textarea[name=body]").fill(edited + "\nМафия: 1")     # changed again: previewed again
    page.get_by_role("button", name="Предпросмотр").click()
    expect(page.locator("#preview-diff .add")).to_have_text(["+Посажен: [b]Хана[/b]", "+Роль: Доктор", "+Мафия: 1"])
    page.get_by_role("button", name="Сохранить").click()
    expect(page.locator(".flash.ok")).to_have_text(f"Черновик №{seeded.round_report} сохранён.")
    draft = store.draft(seeded.round_report)
    assert (draft["body"], draft["status"]) == (edited + "\nМафия: 1", "pending")
    assert [(e["body_before"], e["edited_by"]) for e in store.draft_edits(seeded.round_report)] == [(before, "host")]


def test_a_previewed_edit_is_not_saved_over_a_text_changed_since(site, page):
    seeded, base = site
    store = seeded.store
    log_in(page, base, PASSWORD)
    page.goto(f"{base}/drafts")
    page.locator(f"#draft-{seeded.vote_count} textarea").fill("Хана — 3")
    page.locator(f"#draft-{seeded.vote_count}").get_by_role("button", name="Предпросмотр").click()
    store.edit_draft(seeded.vote_count, "Хана — 2 (исправлено в другой вкладке)", by="host")
    page.get_by_role("button", name="Сохранить").click()
    expect(page.locator(".flash.error")).to_contain_text("его текст изменился после предпросмотра")
    assert store.draft(seeded.vote_count)["body"] == "Хана — 2 (исправлено в другой вкладке)"

    token = page.locator(f"#draft-{seeded.vote_count} input[name=csrf_token]").get_attribute("value")
    target = f"{base}/drafts/{seeded.vote_count}"
    refused = page.request.post(target, form={"action": "preview", "body": "x"}, max_redirects=0)
    assert refused.status == 403                        # a preview too needs the session's token
    shown = page.request.post(target, form={"action": "preview", "body": "x", "csrf_token": token}, max_redirects=0)
    assert shown.status == 200 and "Правка ещё не сохранена" in shown.text()
    assert store.draft(seeded.vote_count)["body"] == "Хана — 2 (исправлено в другой вкладке)"


def test_the_turn_report_is_previewed_with_its_map_where_the_mark_puts_it(site, page):
    seeded, base = site
    log_in(page, base, PASSWORD)
    page.goto(f"{base}/drafts")
    preview = page.locator(f"#draft-{seeded.report} .preview")
    expect(preview).to_contain_text("Итоги дня.")
    picture = preview.locator("img.map")
    expect(picture).to_have_count(1)                 # the PNG; the SVG named by the draft is not on disk
    assert picture.evaluate("img => img.complete && img.naturalWidth") == 1        # loaded: the 1×1 seed PNG
    order = preview.evaluate("""node => [...node.querySelectorAll('img.map')].map(img => {
        const before = document.createRange(); before.setStart(node, 0); before.setEndBefore(img);
        return before.toString().includes('Итоги дня.') && !before.toString().includes('Конец.'); })""")
    assert order == [True]                           # between the text before the mark and after it
    assert "[карта]" not in preview.inner_text()

    # the host moves the mark to the top: the edit's preview shows the map first
    page.locator(f"#draft-{seeded.report} textarea").fill("[карта]\nИтоги дня.\n\nКонец.")
    page.locator(f"#draft-{seeded.report}").get_by_role("button", name="Предпросмотр").click()
    expect(page.locator("h1")).to_have_text(f"Предпросмотр черновика №{seeded.report}")
    moved = page.locator(".preview")
    expect(moved.locator("img.map")).to_have_count(1)
    assert moved.evaluate("""node => { const before = document.createRange(); before.setStart(node, 0);
        before.setEndBefore(node.querySelector('img.map')); return before.toString().trim(); }""") == ""


def test_only_a_game_whose_engine_draws_maps_has_the_maps_section(site, page):
    seeded, base = site
    log_in(page, base, PASSWORD)
    page.goto(f"{base}/games/{GAME}")                            # Mafia: no maps
    expect(page.locator("h2#audit")).to_be_visible()
    expect(page.locator("#maps")).to_have_count(0)
    expect(page.get_by_role("heading", name="Карты")).to_have_count(0)

    page.goto(f"{base}/games/{MAP_GAME}")                        # Bellum: its turn map
    expect(page.get_by_role("heading", name="Карты")).to_be_visible()
    picture = page.locator("#maps ~ figure img.map")
    expect(picture).to_have_count(1)
    assert picture.evaluate("img => img.complete && img.naturalWidth") == 1


def test_every_game_is_named_by_its_engines_title_not_its_type_code(site, page):
    seeded, base = site
    seeded.store.register_game("arena-5", "arena", "local", "http://127.0.0.1:1/viewtopic.php?t=5",
                               "Europe/Moscow", 5, {"Аскон": [], "Хана": []})
    log_in(page, base, PASSWORD)
    rows = page.locator("table tr")
    for game_id, title in ((GAME, "Мафия"), (MAP_GAME, "Bellum 2.0"), ("arena-5", "Арена")):
        expect(rows.filter(has=page.get_by_role("link", name=game_id)).locator("td").nth(1)).to_have_text(title)
    page.get_by_role("link", name="arena-5").click()
    expect(page.locator("h1")).to_have_text("arena-5 (Арена)")
    page.goto(f"{base}/games/{MAP_GAME}")
    expect(page.locator("h1")).to_have_text(f"{MAP_GAME} (Bellum 2.0)")
