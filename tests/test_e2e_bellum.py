"""A Bellum turn on the local forum over real HTTP, hosted by the daemon: orders by PM, a
receipt for each, the turn ending early once everyone is ready, the reports and the players'
PMs approved by the host and posted once."""
from __future__ import annotations

import re
from pathlib import Path

from forumgm.daemon.web import create_app
from bellum_forum_support import GAME, PUBLIC_URL, msk


def test_a_turn_played_through_the_forum(bellum_table):
    table = bellum_table
    table.tick(msk(2, 12))                                   # dealt: turn 1 opens, deadline in 3 days
    [turn] = table.store.phases(GAME)
    assert turn["key"] == "turn-1" and turn["status"] == "pending"

    table.send(msk(2, 13), "Хан", "3 из Паннонии в Норик, атакуя ЗРИ\n2 из Паннонии в Италию")
    table.send(msk(2, 14), "Аскон", "Норик: встретить боем всех\n1 из Италии в Германию\nход готов")
    table.send(msk(2, 15), "Зорро", "4 аланов из Сарматии в Дакию, атакуя остготов\nход готов")
    table.tick(msk(2, 16))                                   # receipts go out at once
    [khan] = table.received("Хан", "Re: Приказ")
    assert "• 3 из Паннонии в Норик, атакуя Западную Римскую Империю" in khan
    assert "«2 из Паннонии в Италию» — Италия не граничит с Паннонией" in khan
    [askon] = table.received("Аскон", "Re: Приказ")
    assert "«1 из Италии в Германию» — Германия не граничит с Италией" in askon
    assert table.store.phase(GAME, "turn-1")["status"] == "pending"      # Хан is not ready yet

    # the last PM replaces the earlier orders for the same people, and Хан is ready: the turn
    # resolves at the next tick, days before its deadline
    table.send(msk(2, 17), "Хан", "5 из Паннонии в Норик, атакуя ЗРИ\nход готов")
    table.tick(msk(2, 18))
    assert any("5 из Паннонии в Норик, атакуя Западную Римскую Империю (заменяет прежний приказ)" in receipt
               for receipt in table.received("Хан", "Re: Приказ"))
    assert table.store.phase(GAME, "turn-1")["status"] == "resolved"
    assert table.store.phase(GAME, "turn-2")["status"] == "pending"

    pending = table.store.drafts(status="pending")
    # the commitment posted at the deal waits for the host too
    assert sorted(d["kind"] for d in pending) == ["commitment", "literary_report", "technical_report", "turn_pm",
                                                  "turn_pm", "turn_pm"]
    # the turn report carries the map: its files, and the mark in its text where the post shows it
    [report] = [d for d in pending if d["kind"] == "literary_report"]
    pictures = [Path(name) for name in report["pictures"]]
    assert [p.name for p in pictures] == ["map.png", "map.svg"]
    assert pictures[0].read_bytes().startswith(b"\x89PNG") and b"<text" in pictures[1].read_bytes()
    assert report["body"].rstrip().endswith("[карта]")
    assert all(not d["pictures"] for d in pending if d["id"] != report["id"])
    web = create_app(table.store, "a-long-web-password").test_client()
    picture_url = f"/maps/{GAME}/{report['id']}/0"
    assert web.get(picture_url).status_code == 404           # not public before the host approves it
    for draft in pending:
        table.store.approve(draft["id"], by="host")
    table.tick(msk(2, 19))
    table.tick(msk(2, 20))                                   # nothing is posted twice
    [technical] = table.host_posts("Ход 1 (370 г.): технический отчёт")
    assert "Норик (бой): Западная Римская Империя (2 чел. × 2 × 1 = 4)" in technical.text
    assert "Вестготы (5 чел. × 1 = 5)" in technical.text and "Победа: Вестготы." in technical.text
    assert "Западная Римская Империя: 2 человека отступили: Норик → Венетия" in technical.text
    [posted] = [p.bbcode for p in table.server.board.visible_posts(2) if "[img]" in p.bbcode]
    assert posted.startswith("[b]370–374 годы[/b]") and "[карта]" not in posted
    assert posted.rstrip().endswith(f"[img]{PUBLIC_URL.rstrip('/')}{picture_url}[/img]\n"
                                    f"[url={PUBLIC_URL.rstrip('/')}/maps/{GAME}/{report['id']}/1]SVG[/url]")
    served = web.get(picture_url)                            # what the forum's readers load
    assert served.status_code == 200 and served.mimetype == "image/png"
    assert served.data == pictures[0].read_bytes()
    [literary] = table.host_posts("370–374 годы")
    # a war between players is told with both sides declined: «…победу Вестготам: войско Западной Римской Империи…»
    assert any("Норик" in line and "Вестгот" in line and re.search("Западн(ой|ую) Римск(ой|ую) Импери[июе]", line)
               for line in literary.text.splitlines()), literary.text
    [own] = table.received("Аскон", "Bellum: итоги хода 1")
    assert "Венетия — 5" in own and "Норик (бой)" in own
    [zorro] = table.received("Зорро", "Bellum: итоги хода 1")
    assert "[b]" not in zorro and "Аланы" in zorro and "Дакия (бой)" in zorro
    state = table.store.latest_snapshot(GAME)["state"]
    assert state["people"]["noricum"] == {"vestgoty": 5}


def test_the_orders_of_a_turn_after_one_that_ended_early_are_read(bellum_table):
    table = bellum_table
    """Turn 1 ends on its first day: what players send for turn 2 the same day, long before turn 1's
    own deadline, is turn 2's orders (answered, and it ends turn 2 early in turn)."""
    table.tick(msk(2, 12))
    for nick in ("Аскон", "Хан", "Зорро"):
        table.send(msk(2, 13), nick, "ход готов")
    table.tick(msk(2, 14))
    assert table.store.phase(GAME, "turn-1")["status"] == "resolved"
    for nick in ("Аскон", "Хан", "Зорро"):
        table.send(msk(2, 15), nick, "ход готов")
    table.tick(msk(2, 16))
    assert {order["sender"] for order in table.store.orders(GAME, "turn-2")} == {"Аскон", "Хан", "Зорро"}
    assert len(table.received("Хан", "Re: Приказ")) == 2
    assert table.store.phase(GAME, "turn-2")["status"] == "resolved"
