"""The local forum serves what the phpBB parser reads, and enforces phpBB's form rules."""
import requests
import pytest

from forumgm.daemon.offline.demo import PLAYERS, SCRIPT, demo_board, demo_clock, play
from forumgm.daemon.offline.localforum import LocalForum
from forumgm.parsers.forums import phpbb
from localforum_support import HOST, seeded_board


@pytest.fixture
def server(clock):
    with LocalForum(seeded_board(clock, replies=6)) as running:
        yield running


def login_form(session, server):
    page = session.get(server.url + "ucp.php?mode=login")
    return phpbb.form(page.text, "login")


def test_thread_pages_hold_five_posts_with_pagination(server):
    first = requests.get(server.url + "viewtopic.php?t=2").text
    second = requests.get(server.url + "viewtopic.php?t=2&start=5").text
    assert phpbb.page_info(first).pages == 2 and phpbb.page_info(second).page == 2
    assert len(phpbb.posts(first, "UTC")) == 5 and len(phpbb.posts(second, "UTC")) == 2
    assert 'href="./viewtopic.php?t=2&amp;start=5"' in first


def test_a_post_permalink_redirects_to_its_page(server):
    response = requests.get(server.url + "viewtopic.php?p=8", allow_redirects=False)
    assert response.status_code == 302 and "start=5#p8" in response.headers["Location"]


def test_edit_notice_is_read_by_the_parser(server, clock):
    server.board.edit_post(3, "Голосую за [color=blue]Кума[/color]")
    post = phpbb.posts(requests.get(server.url + "viewtopic.php?t=2").text, "UTC")[1]
    assert post.edited_by == "Аскон" and post.edited_at == clock.now()
    assert [f.text for f in post.colored] == ["Кума"]


def test_editing_the_last_post_leaves_no_notice_as_on_phpbb(server):
    last = server.board.visible_posts(2)[-1]
    server.board.edit_post(last.id, "исправил")
    post = phpbb.posts(requests.get(server.url + "viewtopic.php?t=2&start=5").text, "UTC")[-1]
    assert post.text == "исправил" and post.edited_at is None


def test_login_in_the_same_second_as_the_form_is_refused(server, clock):
    session = requests.Session()
    form = login_form(session, server)
    values = {**form.fields, "username": HOST, "password": "host-secret", "login": "Login"}
    refused = session.post(server.url + "ucp.php?mode=login", data=values)
    assert "The submitted form was invalid" in refused.text
    clock.sleep(1)
    accepted = session.post(server.url + "ucp.php?mode=login", data=values)
    assert 'id="username_logged_in"' in accepted.text


def test_a_forged_token_is_refused(server, clock):
    session = requests.Session()
    form = login_form(session, server)
    clock.sleep(2)
    values = {**form.fields, "form_token": "0" * 40, "username": HOST, "password": "host-secret"}
    assert "The submitted form was invalid" in session.post(server.url + "ucp.php?mode=login", data=values).text


def test_pm_pages_need_a_login(server):
    page = requests.get(server.url + "ucp.php?i=pm&folder=inbox").text
    assert phpbb.form(page, "login").fields["username"] == ""


def test_the_demo_script_plays_in_order_on_the_board():
    clock = demo_clock(speed=1)
    board = demo_board(clock, "pw")
    done = play(board, SCRIPT, hours=48)
    assert done == [act for act in SCRIPT if act.at_hours <= 48]
    thread = board.visible_posts(2)
    assert [board.users[p.author_id].name for p in thread[1:]] == ["Зорро", "Зорро", "Лиса", "Тор", "Хан"]
    assert "Передумал" in thread[-2].bbcode
    assert {board.users[m.sender_id].name for m in board.pms.values()} <= set(PLAYERS)
