"""The host's page through Flask's test client: login, CSRF, each view, draft decisions, role links."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest

from forumgm.daemon.settings.games import game_types
from forumgm.daemon.store.role_links import role_link_path
from forumgm.daemon.web import create_app
from forumgm.daemon.web.queries import running_tally
from web_seed import GAME, MAP_GAME, NOW, PASSWORD, PNG, audit_actions, seeded_store, without_labels

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def seeded(tmp_path):
    seeded = seeded_store(tmp_path)
    yield seeded
    seeded.store.close()


@pytest.fixture
def client(seeded):
    return create_app(seeded.store, PASSWORD).test_client()


def csrf(client, path="/login") -> str:
    return TOKEN.search(client.get(path).get_data(as_text=True)).group(1)


@pytest.fixture
def host(client):
    response = client.post("/login", data={"password": PASSWORD, "csrf_token": csrf(client)})
    assert response.status_code == 302
    return client


def page(client, path) -> str:
    """The page's HTML, its cells without the column names they carry for the phone's cards."""
    response = client.get(path)
    assert response.status_code == 200
    return without_labels(response.get_data(as_text=True))


def test_pages_need_login(client):
    for path in ("/", "/drafts", f"/games/{GAME}"):
        response = client.get(path)
        assert response.status_code == 302 and response.headers["Location"].endswith("/login")


def test_wrong_password_is_refused_and_audited(client, seeded):
    response = client.post("/login", data={"password": PASSWORD + "x", "csrf_token": csrf(client)})
    assert response.status_code == 401
    assert "Неверный пароль" in response.get_data(as_text=True)
    assert client.get("/").status_code == 302
    assert ("web", "web.login_failed", {"address": "127.0.0.1"}) in audit_actions(seeded.store)


def test_password_never_reaches_page_or_store(host, seeded):
    for path in ("/login", "/", "/drafts", f"/games/{GAME}"):
        assert PASSWORD not in host.get(path).get_data(as_text=True)
    assert PASSWORD not in repr(audit_actions(seeded.store))


def test_session_cookie_is_httponly_and_strict(client):
    response = client.post("/login", data={"password": PASSWORD, "csrf_token": csrf(client)})
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_login_without_csrf_token_is_refused(client):
    client.get("/login")
    assert client.post("/login", data={"password": PASSWORD}).status_code == 403
    assert client.get("/").status_code == 302


def test_post_with_wrong_or_missing_token_is_refused(host, seeded):
    for data in ({"action": "approve"}, {"action": "approve", "csrf_token": "forged"}):
        response = host.post(f"/drafts/{seeded.vote_count}", data=data)
        assert response.status_code == 403 and "Форма устарела" in response.get_data(as_text=True)
    assert seeded.store.draft(seeded.vote_count)["status"] == "pending"


def test_token_from_another_session_is_refused(seeded, host):
    other = create_app(seeded.store, PASSWORD).test_client()
    foreign = csrf(other)
    response = host.post(f"/drafts/{seeded.vote_count}", data={"action": "approve", "csrf_token": foreign})
    assert response.status_code == 403


def test_games_page_shows_phase_moscow_deadline_and_living(host):
    html = page(host, "/")
    assert "круг 2" in html and "02.03.2024 22:45 (МСК)" in html
    assert "4: Аскон, Хана, Вереск, &lt;b&gt;Злодей&lt;/b&gt;" in html
    assert "Дима" not in html


def test_game_page_shows_tally_orders_receipts_and_no_maps_for_a_game_without_them(host, seeded):
    html = page(host, f"/games/{GAME}")
    assert re.search(r"<td>Хана</td><td>2</td><td>Аскон, Вереск</td>", html)
    assert re.search(r"<td>Аскон</td><td>1</td><td>Хана</td>", html)
    assert "&lt;i&gt;Хвост&lt;/i&gt;" in html and "<i>" not in html
    assert "ник не распознан, возможно: &lt;u&gt;Хана&lt;/u&gt;" in html
    assert "отклонено: непонятный приказ" in html and "Квитанция №%d" % seeded.receipt in html
    assert 'id="maps"' not in html and "Карты" not in html          # Mafia's engine draws no maps


@pytest.mark.parametrize("game_type", ["legends", "arena"])
def test_no_other_game_without_maps_has_the_section(host, seeded, game_type):
    seeded.store.register_game("other", game_type, "local", "http://127.0.0.1:1/viewtopic.php?t=9",
                               "Europe/Moscow", 9, {"Аскон": []})
    html = page(host, "/games/other")
    assert "Журнал действий" in html and 'id="maps"' not in html


# what each game's engine calls it (Rules.title); a game discovered without a title fails here
TITLES = {"mafia": "Мафия", "legends": "Легенды меча и магии", "bellum": "Bellum 2.0", "arena": "Арена"}


def test_each_game_is_listed_and_headed_by_its_engines_title(host, seeded):
    assert set(TITLES) == set(game_types())
    for topic, game_type in enumerate(game_types(), start=10):
        seeded.store.register_game(f"g-{game_type}", game_type, "local",
                                   f"http://127.0.0.1:1/viewtopic.php?t={topic}", "Europe/Moscow", topic, {"Аскон": []})
    listed = page(host, "/")
    for game_type, title in TITLES.items():
        assert re.search(rf'>g-{game_type}</a>\s*</td>\s*<td>{title}</td>', listed)
        assert f'<h1>g-{game_type} <span class="muted">({title})</span></h1>' in page(host, f"/games/g-{game_type}")


def test_game_page_of_a_game_with_maps_shows_them(host, seeded):
    html = page(host, f"/games/{MAP_GAME}")
    assert '<h2 id="maps">Карты</h2>' in html
    assert "turn-1.png" in html and "missing.svg" not in html


def test_map_image_is_served_only_when_a_draft_carries_it(host, seeded):
    html = page(host, f"/games/{MAP_GAME}")
    src = re.search(r'<img class="map" src="([^"]+)"', html).group(1)
    response = host.get(src)
    assert response.status_code == 200 and response.mimetype == "image/png" and response.data == PNG
    assert host.get(src[:-1] + "1").status_code == 404          # the listed but missing SVG
    assert host.get(f"/games/{MAP_GAME}/maps/{seeded.vote_count}/0").status_code == 404
    assert host.get(f"/games/{GAME}/maps/{seeded.report}/0").status_code == 404     # another game's draft
    # previewed inside the report that carries it, where its mark puts it in the post
    preview = re.search(r'<div class="preview"[^>]*>((?:(?!</div>).)*Конец\.)', page(host, "/drafts"), re.S).group(1)
    assert re.search(rf'Итоги дня\..*<figure>\s*<img class="map" src="{re.escape(src)}".*</figure>.*Конец\.',
                     preview, re.S)
    assert "[карта]" not in preview


def test_tally_follows_the_current_phase(seeded):
    assert running_tally(seeded.store, GAME).phase_key == "round-2"
    with seeded.store.transaction():
        seeded.store.begin_resolution(GAME, "round-2", seeded.store.now())
    assert running_tally(seeded.store, GAME).lines == ()


def test_drafts_page_escapes_bodies_and_lists_sent_forum_ids(host, seeded):
    html = page(host, "/drafts")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>" not in html
    assert "pm:9001" in html
    assert len(re.findall(r'<form class="draft pending"', html)) == len(seeded.store.drafts(status="pending"))


def test_a_pm_to_a_replaced_seat_is_listed_by_the_account_it_goes_to(host, seeded):
    """Вереск's warning went to him before his seat changed hands; Аскон's role PM, still to be sent,
    goes to the account holding his seat now, shown with the seat."""
    seeded.store.add_replacement(GAME, "Вереск", "Вереск", "Новичок", "host", NOW + timedelta(minutes=1))
    seeded.store.add_replacement(GAME, "Аскон", "Аскон", "Гладиатор", "host", NOW - timedelta(hours=1))
    html = page(host, "/drafts")
    assert "ЛС: Гладиатор (место Аскон)" in html and "ЛС: Аскон" not in html
    assert "ЛС: Вереск" in html and "Новичок" not in html          # sent before the replacement
    assert "ЛС: Хана<" in html.replace("\n", "") or "ЛС: Хана" in html    # a seat nobody replaced: its nick alone
    assert "(место Хана)" not in html


def test_edit_keeps_history_and_is_audited(host, seeded):
    before = seeded.store.draft(seeded.vote_count)["body"]
    token = csrf(host, "/drafts")
    response = host.post(f"/drafts/{seeded.vote_count}",
                         data={"action": "save", "body": "Хана — 2\r\nАскон — 1", "csrf_token": token})
    assert response.status_code == 302
    draft = seeded.store.draft(seeded.vote_count)
    assert (draft["body"], draft["status"]) == ("Хана — 2\nАскон — 1", "pending")
    [edit] = seeded.store.draft_edits(seeded.vote_count)
    assert (edit["body_before"], edit["edited_by"]) == (before, "host")
    assert ("host", "draft.edit", {"draft": seeded.vote_count}) in audit_actions(seeded.store)
    assert "История правок (1)" in page(host, "/drafts")


def test_approve_sends_the_text_as_shown(host, seeded):
    token = csrf(host, "/drafts")
    host.post(f"/drafts/{seeded.round_report}",
              data={"action": "approve", "body": "Посажен: Хана", "csrf_token": token})
    draft = seeded.store.draft(seeded.round_report)
    assert (draft["status"], draft["body"], draft["decided_by"]) == ("approved", "Посажен: Хана", "host")
    actions = [action for actor, action, detail in audit_actions(seeded.store)
               if actor == "host" and detail.get("draft") == seeded.round_report]
    assert actions == ["draft.edit", "draft.approved"]


def test_approve_unchanged_text_records_no_edit(host, seeded):
    body = seeded.store.draft(seeded.role_pm)["body"]
    host.post(f"/drafts/{seeded.role_pm}", data={"action": "approve", "body": body, "csrf_token": csrf(host, "/drafts")})
    assert seeded.store.draft(seeded.role_pm)["status"] == "approved"
    assert seeded.store.draft_edits(seeded.role_pm) == []


def test_reject_ignores_the_text_and_is_audited(host, seeded):
    body = seeded.store.draft(seeded.role_pm)["body"]
    host.post(f"/drafts/{seeded.role_pm}", data={"action": "reject", "body": "другое", "csrf_token": csrf(host, "/drafts")})
    draft = seeded.store.draft(seeded.role_pm)
    assert (draft["status"], draft["body"]) == ("rejected", body)
    assert ("host", "draft.rejected", {"draft": seeded.role_pm}) in audit_actions(seeded.store)


def test_a_decided_draft_cannot_be_changed_again(host, seeded):
    token = csrf(host, "/drafts")
    response = host.post(f"/drafts/{seeded.sent}", data={"action": "reject", "csrf_token": token},
                         follow_redirects=True)
    assert (f"Не сделано: черновик №{seeded.sent} уже отправлен, отклонить его больше нельзя."
            in response.get_data(as_text=True))
    assert seeded.store.draft(seeded.sent)["status"] == "sent"


def test_unknown_action_is_a_bad_request(host, seeded):
    token = csrf(host, "/drafts")
    assert host.post(f"/drafts/{seeded.vote_count}", data={"action": "send", "csrf_token": token}).status_code == 400


def test_logout_ends_the_session(host):
    host.post("/logout", data={"csrf_token": csrf(host, "/")})
    assert host.get("/").status_code == 302


def test_role_link_shows_the_role_once(client, seeded):
    token = seeded.store.role_link_token(seeded.store.create_role_link(GAME, "Аскон", "Комиссар <проверяет ночью>"))
    assert client.head(role_link_path(token)).status_code == 200     # a link previewer's look uses nothing up
    assert client.head(role_link_path(token)).status_code == 200
    first = client.get(role_link_path(token))
    assert first.status_code == 200
    assert "Комиссар &lt;проверяет ночью&gt;" in first.get_data(as_text=True)
    second = client.get(role_link_path(token))
    assert second.status_code == 410 and "Ссылка уже использована" in second.get_data(as_text=True)
    assert "Комиссар" not in second.get_data(as_text=True)
    assert client.head(role_link_path(token)).status_code == 404
    assert client.get(role_link_path(token[:-2])).status_code == 404


def test_role_link_token_is_stored_hashed(seeded):
    nonce = seeded.store.create_role_link(GAME, "Хана", "Доктор")
    token = seeded.store.role_link_token(nonce)
    dump = "\n".join(seeded.store.db.conn.iterdump())
    assert len(token) >= 43 and token not in dump
    assert ("daemon", "role_link.create", {"game": GAME, "nick": "Хана"}) in audit_actions(seeded.store)


def test_pages_forbid_scripts_and_framing(client):
    headers = client.get("/login").headers
    assert "script-src" not in headers["Content-Security-Policy"]
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("password", ["", "seven77"])
def test_an_empty_or_short_password_is_refused(seeded, password):
    with pytest.raises(ValueError, match="at least 8 characters"):
        create_app(seeded.store, password)


def test_a_draft_the_forum_refused_shows_the_forums_message_escaped(host, seeded):
    store = seeded.store
    store.approve(seeded.role_pm, by="host")
    store.mark_sending(seeded.role_pm, store.now())
    store.mark_refused(seeded.role_pm, "The user <b>Аскон</b> does not accept messages.", store.now())
    html = page(host, "/drafts")
    refused = html.split(f'id="draft-{seeded.role_pm}"')[1].split("</form>")[0]
    assert ("Форум не принял этот текст: <code>The user &lt;b&gt;Аскон&lt;/b&gt; does not accept messages.</code>"
            in refused)
    assert html.count('class="send-error"') == 1


def test_drafts_are_named_in_russian_as_the_host_calls_them(host, seeded):
    html = page(host, "/drafts")
    assert "· квитанция ·" in html and "· подсчёт голосов ·" in html
    assert "· receipt ·" not in html and "· vote_count ·" not in html
