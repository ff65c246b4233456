"""A turn map's files are found whatever folder the daemon or the page was started from: the host
started the daemon with a relative --config (its store beside the config), the host's page and the
public map address serve the map, and a daemon started later from another folder publishes it."""
from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from bellum_forum_support import GAME, PUBLIC_URL, Table, msk
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.store import MIGRATIONS, Store
from forumgm.daemon.store.schema import statements
from forumgm.daemon.web import create_app

WEB_PASSWORD = "a-long-web-password"
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def host_page(store):
    client = create_app(store, WEB_PASSWORD).test_client()
    token = TOKEN.search(client.get("/login").get_data(as_text=True)).group(1)
    assert client.post("/login", data={"password": WEB_PASSWORD, "csrf_token": token}).status_code == 302
    return client


def test_a_relative_config_from_one_folder_and_a_daemon_from_another(tmp_path, monkeypatch):
    (tmp_path / "hosting" / "conf").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "hosting")
    table = Table(Path("conf"), monkeypatch)         # forumgm run --config conf/forumgm.toml
    try:
        table.tick(msk(2, 12))
        for nick in ("Аскон", "Хан", "Зорро"):
            table.send(msk(2, 13), nick, "ход готов")
        table.tick(msk(2, 14))                       # everyone is ready: the turn resolves, its map drawn
        [report] = [d for d in table.store.drafts(status="pending") if d["kind"] == "literary_report"]
        png = Path(report["pictures"][0])
        assert png.is_absolute() and png.read_bytes().startswith(b"\x89PNG")

        page = host_page(table.store)
        own = page.get(f"/games/{GAME}/maps/{report['id']}/0")
        assert own.status_code == 200 and own.data == png.read_bytes()
        assert f"/games/{GAME}/maps/{report['id']}/0" in page.get(f"/games/{GAME}").get_data(as_text=True)
        for draft in table.store.drafts(status="pending"):
            table.store.approve(draft["id"], by="host")
        table.store.close()

        # the next start is from another folder, naming the same config by another relative path
        monkeypatch.chdir(tmp_path / "elsewhere")
        table.restart(load_installation(Path("../hosting/conf/forumgm.toml")))
        [draft] = [d for d in table.store.drafts() if d["id"] == report["id"]]
        assert draft["pictures"] == report["pictures"]
        table.tick(msk(2, 15))
        assert table.store.draft(report["id"])["status"] == "sent"
        [posted] = [p.bbcode for p in table.server.board.visible_posts(2) if "[img]" in p.bbcode]
        assert f"[img]{PUBLIC_URL.rstrip('/')}/maps/{GAME}/{report['id']}/0[/img]" in posted
        public = create_app(table.store, WEB_PASSWORD).test_client().get(f"/maps/{GAME}/{report['id']}/0")
        assert public.status_code == 200 and public.data == png.read_bytes()
    finally:
        table.store.close()
        table.server.stop()


def test_a_store_from_before_keeps_its_pictures_by_the_store_folder(tmp_path):
    """Drafts kept their pictures as the daemon named them: relative to the folder it ran in, or
    absolute (an absolute --config); both are found beside the store once it is opened."""
    path = tmp_path / "conf" / "forumgm.sqlite"
    path.parent.mkdir()
    step = next(n for n, script in enumerate(MIGRATIONS) if "json_each(drafts.pictures)" in script)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    for script in MIGRATIONS[:step]:
        for statement in statements(script):
            db.execute(statement)
    db.execute("INSERT INTO schema_version (version) VALUES (?)", [step])
    db.execute("INSERT INTO games (id, type, thread_url, time_zone, seed, registered_at) VALUES (?, ?, ?, ?, ?, ?)",
               ["g1", "bellum", "http://forum/viewtopic.php?t=1", "UTC", "1", "2026-03-02T12:00:00+00:00"])
    kept = {"conf/pictures/g1/turn-1/ab12/map.png": "pictures/g1/turn-1/ab12/map.png",
            f"{path.parent}/pictures/g1/turn-2/cd34/map.png": "pictures/g1/turn-2/cd34/map.png",
            "pictures/g1/turn-3/ef56/map.svg": "pictures/g1/turn-3/ef56/map.svg"}
    for number, name in enumerate(kept, start=1):
        db.execute("INSERT INTO drafts (game_id, kind, target, body, phase_key, needs_approval, status, created_at, "
                   "updated_at, pictures) VALUES ('g1', 'literary_report', 'thread', 'Итоги', ?, 1, 'pending', ?, ?, ?)",
                   [f"turn-{number}", "2026-03-02T12:00:00+00:00", "2026-03-02T12:00:00+00:00",
                    json.dumps([name])])
    db.commit()
    db.close()
    store = Store(path)
    assert [draft["pictures"] for draft in store.drafts()] == [[str(path.parent / place)] for place in kept.values()]
    assert store.schema_version == len(MIGRATIONS)
    assert [json.loads(row[0])[0] for row in store.db.execute("SELECT pictures FROM drafts ORDER BY id")] == list(kept.values())
    store.close()
