"""The local forum's pages in a real browser (Chromium via Playwright), as a rehearsal's players use
them: log in, a sign-up post, a reply, an edit, a delete and a PM to the host, at 1280 and 390 px."""
from __future__ import annotations

import itertools

import pytest
from playwright.sync_api import expect

from forumgm.daemon.offline.localforum import Board, LocalForum
from localforum_support import HOST, PLAYERS
from browser_support import fresh_page

WIDTHS = [1280, 390]


@pytest.fixture
def forum():
    # phpBB refuses a form sent within a second of being shown: here every reading of the form clock
    # is two seconds on, so a browser that answers at once is not refused
    ticks = itertools.count(0, 2)
    board = Board(form_clock=lambda: next(ticks))
    board.add_user(HOST, "host-secret", admin=True)
    for nick in PLAYERS:
        board.add_user(nick, f"{nick}-pw")
    board.add_topic(HOST, "Репетиция: mafia-example", "Записывайтесь в игру ответом в теме.")
    with LocalForum(board) as server:
        yield server


@pytest.fixture(params=WIDTHS, ids=lambda width: f"{width}px")
def page(request, desktop):
    with fresh_page(desktop, request.param) as opened:
        yield opened


def log_in(page, forum, nick: str, password: str) -> None:
    page.goto(forum.url + "ucp.php?mode=login")
    page.fill("#username", nick)
    page.fill("#password", password)
    page.click("input[name=login]")


def own_posts(forum, nick: str):
    board = forum.board
    return [post for post in board.visible_posts(2) if board.users[post.author_id].name == nick]


def test_a_player_signs_up_replies_edits_and_deletes_his_posts(forum, page):
    log_in(page, forum, "Аскон", "Аскон-pw")
    page.goto(forum.url + "viewtopic.php?t=2")
    page.get_by_role("link", name="Post Reply").click()
    page.fill("#message", "Записываюсь!")
    page.click("input[name=post]")
    expect(page.locator(".content").last).to_have_text("Записываюсь!")
    page.goto(forum.url + "posting.php?mode=reply&t=2")
    page.fill("#message", "Голосую за [color=blue]Кума[/color]")
    page.click("input[name=post]")
    assert [post.bbcode for post in own_posts(forum, "Аскон")] == ["Записываюсь!", "Голосую за [color=blue]Кума[/color]"]

    sign_up, vote = own_posts(forum, "Аскон")
    page.locator(f"#p{sign_up.id}").get_by_title("Edit post").click()
    expect(page.locator("#message")).to_have_value("Записываюсь!")
    page.fill("#message", "Записываюсь! (Аскон, мужской род)")
    page.click("input[name=post]")
    expect(page.locator(f"#p{sign_up.id} .content")).to_have_text("Записываюсь! (Аскон, мужской род)")
    expect(page.locator(f"#p{sign_up.id} .notice")).to_contain_text("Last edited by Аскон")

    page.locator(f"#p{vote.id}").get_by_title("Delete post").click()
    page.click("input[name=confirm]")
    expect(page.locator("body")).to_contain_text("This post has been deleted successfully.")
    assert [post.id for post in own_posts(forum, "Аскон")] == [sign_up.id]
    page.goto(forum.url + "viewtopic.php?t=2")
    expect(page.locator(f"#p{vote.id}")).to_have_count(0)


def test_a_player_cannot_edit_or_delete_anothers_post(forum, page):
    theirs = forum.board.reply("Кума", 2, "Мой пост")
    log_in(page, forum, "Аскон", "Аскон-pw")
    page.goto(forum.url + "viewtopic.php?t=2")
    expect(page.locator(f"#p{theirs.id}").get_by_title("Edit post")).to_have_count(0)
    page.goto(forum.url + f"posting.php?mode=delete&p={theirs.id}")
    expect(page.locator("body")).to_contain_text("You are not authorised")
    assert own_posts(forum, "Кума")[0].bbcode == "Мой пост"


def test_a_player_sends_the_host_a_pm(forum, page):
    log_in(page, forum, "Кума", "Кума-pw")
    page.goto(forum.url + "ucp.php?i=pm&mode=compose")
    page.fill("#username_list", HOST)
    page.click("input[name=add_to]")
    page.fill("#subject", "Круг 1")
    page.fill("#message", "голосую за Аскон")
    page.click("input[name=post]")
    expect(page.locator("body")).to_contain_text("This message has been sent successfully.")
    pms = list(forum.board.pms.values())
    assert [(forum.board.users[pm.sender_id].name, forum.board.users[pm.recipient_id].name, pm.bbcode)
            for pm in pms] == [("Кума", HOST, "голосую за Аскон")]
