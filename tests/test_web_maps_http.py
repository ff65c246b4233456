"""Map pictures over real HTTP with two games: each game's page serves its own drafts' pictures only,
and no path sent to the server reaches a file outside the game's pictures folder."""
from __future__ import annotations

import http.client
import io
import re
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
from PIL import Image

from forumgm.daemon.drafts.pictures import in_game_folder, save_pictures
from forumgm.daemon.offline.localforum.server import STOP_POLL
from forumgm.daemon.store import Store
from forumgm.daemon.web.server import web_server
from web_seed import NOW, PASSWORD

FIRST, SECOND = "bellum-1", "bellum-2"
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def png(color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (2, 2), color).save(out, format="PNG")
    return out.getvalue()


@dataclass(frozen=True)
class Site:
    store: Store
    base: str
    port: int
    cookie: str                      # the host's session
    reports: dict[str, int]          # game id -> its turn report carrying its map
    maps: dict[str, bytes]           # game id -> its map's bytes


@pytest.fixture
def site(tmp_path):
    store = Store(tmp_path / "forumgm.sqlite3", now=lambda: NOW)
    store.register_forum("local", "phpbb", "http://127.0.0.1:1", "Ведущий")
    reports, maps = {}, {}
    for topic, (game_id, color) in enumerate(((FIRST, "red"), (SECOND, "blue")), start=1):
        store.register_game(game_id, "bellum", "local", f"http://127.0.0.1:1/viewtopic.php?t={topic}",
                            "Europe/Moscow", topic, {"Аларих": []})
        maps[game_id] = png(color)
        pictures = save_pictures(store.path, game_id, "turn-1", {"map.png": maps[game_id]})
        reports[game_id] = store.insert_draft(game_id, "literary_report", "thread", "Итоги.\n\n[карта]\n", "turn-1",
                                           True, pictures=pictures)
    (tmp_path / "secret.png").write_bytes(b"not for the page")
    server = web_server(store, PASSWORD, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": STOP_POLL}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    with requests.Session() as session:
        token = TOKEN.search(session.get(f"{base}/login").text).group(1)
        assert session.post(f"{base}/login", data={"password": PASSWORD, "csrf_token": token},
                            allow_redirects=False).status_code == 302
        cookie = "; ".join(f"{name}={value}" for name, value in session.cookies.items())
    yield Site(store, base, server.server_port, cookie, reports, maps)
    server.shutdown()
    thread.join()
    server.server_close()
    store.close()


def raw_get(site: Site, path: str, session: bool = True) -> tuple[int, bytes]:
    """GET `path` exactly as written: no client folds "..", decodes %2F or drops a NUL on the way."""
    connection = http.client.HTTPConnection("127.0.0.1", site.port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_accept_encoding=True)
        if session:
            connection.putheader("Cookie", site.cookie)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_each_game_serves_its_own_map_and_not_the_other_games(site):
    for game_id, draft_id in site.reports.items():
        status, body = raw_get(site, f"/games/{game_id}/maps/{draft_id}/0")
        assert (status, body) == (200, site.maps[game_id])
        page = raw_get(site, f"/games/{game_id}")[1].decode("utf-8")
        assert f"/games/{game_id}/maps/{draft_id}/0" in page
    assert site.maps[FIRST] != site.maps[SECOND]
    assert raw_get(site, f"/games/{FIRST}/maps/{site.reports[SECOND]}/0")[0] == 404
    assert raw_get(site, f"/games/{SECOND}/maps/{site.reports[FIRST]}/0")[0] == 404
    assert raw_get(site, f"/games/no-such-game/maps/{site.reports[FIRST]}/0")[0] == 404


def test_the_public_address_serves_an_approved_map_under_its_own_game_only(site):
    first = site.reports[FIRST]
    assert raw_get(site, f"/maps/{FIRST}/{first}/0", session=False)[0] == 404       # not approved yet
    site.store.approve(first, by="host")
    assert raw_get(site, f"/maps/{FIRST}/{first}/0", session=False) == (200, site.maps[FIRST])
    assert raw_get(site, f"/maps/{SECOND}/{first}/0", session=False)[0] == 404
    assert raw_get(site, f"/maps/{SECOND}/{site.reports[SECOND]}/0", session=False)[0] == 404   # its own, unapproved


@pytest.mark.parametrize("path", [
    "/games/{first}/maps/../../../forumgm.sqlite3",
    "/games/{first}/maps/{draft}/..%2F..%2F..%2F..%2Fforumgm.sqlite3",
    "/games/{first}/maps/{draft}/0%2F..%2F..%2F..%2F..%2Fsecret.png",
    "/games/..%2F..%2F..%2F/maps/{draft}/0",
    "/games/{first}%2F..%2F{second}/maps/{other}/0",
    "/games/../maps/{draft}/0",
    "/games/{first}/maps/{draft}/-1",
    "/games/{first}/maps/-{draft}/0",
    "/games/{first}/maps/{draft}/0%00",
    "/maps/{second}/../{first}/{draft}/0",
    "/maps/..%2F{first}/{draft}/0",
    "/games/{first}/maps/%2E%2E/{draft}/0",
])
def test_no_path_escapes_to_another_file(site, path):
    site.store.approve(site.reports[FIRST], by="host")           # the public route would serve it
    status, body = raw_get(site, path.format(first=FIRST, second=SECOND, draft=site.reports[FIRST],
                                             other=site.reports[SECOND]))
    assert status in (400, 404)
    assert body not in site.maps.values() and b"not for the page" not in body and b"SQLite" not in body


def test_a_draft_listing_a_file_outside_its_games_folder_serves_nothing(site, tmp_path):
    """What a draft's list names is served only from its own game's folder: not the other game's map,
    not a file beside the store, not a link inside the folder pointing out of it."""
    second_map = Path(site.store.draft(site.reports[SECOND])["pictures"][0])
    link = second_map.parents[2] / FIRST / "turn-1" / "link.png"      # in the first game's folder
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(second_map)
    planted = site.store.insert_draft(FIRST, "literary_report", "thread", "Итоги.\n\n[карта]\n", "turn-2", True,
                                   pictures=[second_map, tmp_path / "secret.png", link])
    for index in range(3):
        assert raw_get(site, f"/games/{FIRST}/maps/{planted}/{index}")[0] == 404
    assert f"/maps/{planted}/" not in raw_get(site, f"/games/{FIRST}")[1].decode("utf-8")
    assert raw_get(site, f"/games/{SECOND}/maps/{site.reports[SECOND]}/0") == (200, site.maps[SECOND])


def test_a_game_id_that_names_a_folder_above_is_no_game_folder(tmp_path):
    store_path = tmp_path / "forumgm.sqlite3"
    (tmp_path / "pictures" / FIRST).mkdir(parents=True)
    (tmp_path / "pictures" / FIRST / "map.png").write_bytes(png("red"))
    assert in_game_folder(store_path, FIRST, tmp_path / "pictures" / FIRST / "map.png")
    assert not in_game_folder(store_path, "..", tmp_path / "pictures" / FIRST / "map.png")
    assert not in_game_folder(store_path, ".", tmp_path / "pictures" / FIRST / "map.png")
    assert not in_game_folder(store_path, FIRST, tmp_path / "pictures" / FIRST / "missing.png")
