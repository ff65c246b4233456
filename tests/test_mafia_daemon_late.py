"""A PM sent between 22:45 and 23:00 gets the late receipt and never becomes next round's order."""
from __future__ import annotations

from forumgm.daemon.tick.clock import FixedClock
from mafia_daemon_support import GAME, daemon, drafts_of, example_installation, msk
from spine_fakes import MemoryForum, ScriptedPm


def test_a_pm_after_the_deadline_is_answered_late_and_not_carried_over(tmp_path, monkeypatch):
    installation = example_installation(tmp_path, monkeypatch)
    clock = FixedClock(msk(3, 10))
    forum = MemoryForum(clock, pms=[
        ScriptedPm("Аскон", "голос: Лиса", msk(3, 10)),
        ScriptedPm("Ива", "голос: Лиса\nпроверить Бука", msk(3, 22, 50)),   # after 22:45
        ScriptedPm("Ива", "голос: Бук", msk(3, 23, 10)),                    # round 2 has opened
    ])
    run = daemon(installation, clock, forum)
    for at in (msk(3, 10), msk(3, 22, 55), msk(3, 23, 15)):
        clock.set(at)
        assert not run.tick().errors
    store = run.store
    assert [o["pm_id"] for o in store.orders(GAME, "round-1")] == ["1"]
    assert [o["pm_id"] for o in store.orders(GAME, "round-2")] == ["3"]
    late = store.orders(GAME, "round-1/late")
    assert [o["pm_id"] for o in late] == ["2"]
    assert {v["ok"] for v in late[0]["verdicts"]} == {False}
    receipts = {d["ref"]: d for d in drafts_of(store, "receipt")}
    assert receipts["receipt:2"]["phase_key"] == "round-1"
    assert "после окончания игрового дня" in receipts["receipt:2"]["body"]
    # ...and tells when the next round opens, in the game's zone, named
    assert "Следующий игровой день начинается 03.03.2026 23:00 (МСК)" in receipts["receipt:2"]["body"]
    assert "голос: Бук" in receipts["receipt:3"]["body"] and "Принято" in receipts["receipt:3"]["body"]
    # Ива's late vote counted nowhere: round 1's table shows no vote from her
    table = next(e["data"]["table"] for e in store.events(GAME, "round-1") if e["type"] == "votes")
    assert {row["voter"]: row["vote"] for row in table}["Ива"] is None
