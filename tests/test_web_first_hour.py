"""The host's page: approve every pending draft of a kind and phase at once; a receipt's status agrees
with its noun; the game shows by its name."""
from __future__ import annotations

import re

import pytest

from forumgm.daemon.web import create_app
from forumgm.daemon.web.app import status_label
from web_seed import GAME, PASSWORD, seeded_store

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
APPROVE_ALL = re.compile(r'name="ids" value="([^"]+)">\s*<button[^>]*>Одобрить все: ([^<]+)</button>')


@pytest.fixture
def seeded(tmp_path):
    seeded = seeded_store(tmp_path)
    yield seeded
    seeded.store.close()


@pytest.fixture
def host(seeded):
    client = create_app(seeded.store, PASSWORD).test_client()
    token = TOKEN.search(client.get("/login").get_data(as_text=True)).group(1)
    assert client.post("/login", data={"password": PASSWORD, "csrf_token": token}).status_code == 302
    return client


def test_approve_all_of_a_kind_and_phase(host, seeded):
    store = seeded.store
    extra = [store.insert_draft(GAME, "receipt", nick, "Принято: голос", "round-3", True) for nick in ("Аскон", "Вереск")]
    store.insert_draft(GAME, "receipt", "Хана", "Принято", "round-4", True)        # another phase: a group of one
    html = host.get("/drafts").get_data(as_text=True)
    groups = APPROVE_ALL.findall(html)
    assert (",".join(map(str, extra)), f"квитанция, {GAME}, круг 3 (2)") in groups
    assert not any("круг 4" in label for _, label in groups)
    later = store.insert_draft(GAME, "receipt", "Хана", "Принято: ещё", "round-3", True)   # after the page was shown
    token = TOKEN.search(html).group(1)
    response = host.post("/drafts/approve-all", data={"ids": ",".join(map(str, extra)), "csrf_token": token},
                         follow_redirects=True)
    assert "Одобрено черновиков: 2 из 2." in response.get_data(as_text=True)
    assert [store.draft(i)["status"] for i in extra] == ["approved", "approved"]
    assert store.draft(later)["status"] == "pending"                          # not shown: not approved
    response = host.post("/drafts/approve-all", data={"ids": ",".join(map(str, extra)), "csrf_token": token},
                         follow_redirects=True)
    assert "Одобрено черновиков: 0 из 2." in response.get_data(as_text=True)


def test_approve_all_needs_the_session_and_the_token(seeded, host):
    draft = seeded.store.insert_draft(GAME, "receipt", "Аскон", "Принято", "round-3", True)
    assert host.post("/drafts/approve-all", data={"ids": str(draft)}).status_code in (400, 403)
    anonymous = create_app(seeded.store, PASSWORD).test_client()
    assert anonymous.post("/drafts/approve-all", data={"ids": str(draft)}).status_code in (302, 400, 403)
    assert seeded.store.draft(draft)["status"] == "pending"


def test_a_receipts_status_agrees_with_its_noun():
    assert (status_label("sent", "f"), status_label("sent")) == ("отправлена", "отправлен")
    assert (status_label("pending", "f"), status_label("rejected", "f")) == ("ждёт решения", "отклонена")
