"""What the host's page says when it refuses an action, in a real browser (Chromium via Playwright) on
a Mafia game played through the local forum over HTTP: a dead player's seat, an empty correction, a
game finished twice (from a second tab), a draft approved after it was sent, a phase re-run before it
resolved. Each refusal is said in Russian, naming what was refused and what to do, with no Latin
word but the game's id and its players' nicks."""
from __future__ import annotations

from playwright.sync_api import expect

from forumgm.daemon.drafts.phase_names import phase_label
from forumgm.daemon.settings.games import shipped_rules
from localforum_support import msk
from legends_host_support import PASSWORD
from test_e2e_mafia import GAME
from browser_support import log_in, submit_correction
from web_pages import latin_words, names_of


def refusal(page, store) -> str:
    """The page's one error notice, checked for Latin words outside the game's names."""
    notice = page.locator(".flash.error")
    expect(notice).to_have_count(1)
    assert latin_words(notice.inner_html(), names_of(store, GAME)) == []
    return notice.inner_text()


def test_the_pages_refusals_are_russian_and_say_what_to_do(hosted, page):
    table, store, base = hosted
    mafia = shipped_rules("mafia")
    log_in(page, base, PASSWORD)
    page.goto(f"{base}/games/{GAME}")

    gone = store.eliminations(GAME)[0]
    form = page.locator("form#replace")
    form.locator("select[name=old]").select_option(gone["nick"])
    form.locator("input[name=new]").fill("Новенький")
    form.get_by_role("button", name="Заменить").click()
    assert refusal(page, store) == (f"Не сделано: {gone['nick']} уже вне игры {GAME} "
                                    f"({mafia.cause_labels[gone['cause']]}, {phase_label(mafia, gone['phase_key'])}): "
                                    "место выбывшего игрока не передаётся")
    assert store.replacements(GAME) == []

    submit_correction(page, "round-2", "Гор", "  \n ")         # blanks pass the form's «required»
    assert refusal(page, store) == ("Не сделано: исправление пустое: впишите приказы или голос так, "
                                    "как написал бы их игрок")
    assert [row for row in store.orders(GAME) if row["entered_by"]] == []     # no correction recorded

    page.goto(f"{base}/games/{GAME}/phases/round-2/rerun")       # the open phase: nothing resolved to re-run
    assert refusal(page, store) == (f"Пересчёт невозможен: фаза «круг 2» в игре {GAME} не подведена: "
                                    "пересчитывать нечего")

    # a draft the host approves in one tab, the tick sends, and a stale tab approves again
    notice = store.insert_draft(GAME, "host_notice", "thread", "Объявление ведущего.", "round-2", True)
    stale = page.context.new_page()
    stale.goto(f"{base}/drafts")
    page.goto(f"{base}/drafts")
    page.locator(f"#draft-{notice}").get_by_role("button", name="Одобрить").click()
    expect(page.locator(".flash.ok")).to_contain_text(f"№{notice}")
    table.tick(msk(4, 9, 5))
    table.tick(msk(4, 9, 10))
    assert store.draft(notice)["status"] == "sent"
    stale.locator(f"#draft-{notice}").get_by_role("button", name="Одобрить").click()
    assert refusal(stale, store) == f"Не сделано: черновик №{notice} уже отправлен, одобрить его больше нельзя."

    # the game finished in one tab, then again from a tab opened before
    stale.goto(f"{base}/games/{GAME}")
    page.goto(f"{base}/games/{GAME}")
    page.locator("form#finish input[name=winner]").fill("Мирные жители")
    page.get_by_role("button", name="Закончить игру").click()
    expect(page.locator(".flash.ok")).to_have_text("Игра окончена; объявление об итогах в черновиках.")
    stale.locator("form#finish input[name=winner]").fill("Мафия")
    stale.get_by_role("button", name="Закончить игру").click()
    assert refusal(stale, store) == f"Не сделано: игра {GAME} уже закончена (победитель: Мирные жители)"
    assert store.game(GAME)["winner"] == "Мирные жители"
