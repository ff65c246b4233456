"""A Bellum turn resolved and posted on the local forum, one order corrected by the host, the turn
re-run through the daemon's own commands (`forumgm correct`, `forumgm resolve --rerun`): the
difference shows only the battle and the people that order touches, and the confirmed re-run
posts corrections of what changed and nothing twice."""
from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from forumgm.daemon.cli import main
from seats_support import rerun_after_replacement
from bellum_forum_support import GAME, msk

# Хан's 5 Visigoths beat the Western Empire's 2 (×2) in Noricum; corrected to 3, they lose there.
# The Alans' battle in Dacia is the same whatever Хан sends.
ORDERS = {"Хан": "5 из Паннонии в Норик, атакуя ЗРИ\nход готов",
          "Аскон": "Норик: встретить боем всех\nход готов",
          "Зорро": "4 аланов из Сарматии в Дакию, атакуя остготов\nход готов"}
CORRECTED = "3 из Паннонии в Норик, атакуя ЗРИ\nход готов\n"
CORRECTION = "[b]Исправление.[/b] Ведущий пересчитал итоги (ход 1)"


def cli(table, *args, stdin: str | None = None, monkeypatch=None) -> int:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return main([args[0], "--config", str(table.daemon.installation.source), *args[1:], "--by", "ведущий"])


@pytest.fixture
def posted(bellum_table):
    """Turn 1 resolved early (everyone ready), every draft approved and sent."""
    table = bellum_table
    table.tick(msk(2, 12))
    for minute, (nick, text) in enumerate(ORDERS.items()):
        table.send(msk(2, 13, minute), nick, text)
    table.tick(msk(2, 14))
    table.tick(msk(2, 15))
    assert table.store.phase(GAME, "turn-1")["status"] == "resolved"
    for draft in table.store.drafts(status="pending"):
        table.store.approve(draft["id"], by="host")
    table.tick(msk(2, 16))
    assert {d["status"] for d in table.store.drafts(game_id=GAME)} == {"sent"}
    return table


def state_paths(out: str) -> set[str]:
    return set(re.findall(r"^state (\S+):", out, re.M))


def test_a_corrected_order_rerun_changes_only_what_it_touches(posted, monkeypatch, capsys):
    table, store = posted, posted.store
    before = store.latest_snapshot(GAME)["state"]
    [old_report] = [d for d in store.drafts(game_id=GAME) if d["kind"] == "literary_report"]
    old_pictures = {path: path.read_bytes() for path in map(Path, old_report["pictures"])}

    assert cli(table, "correct", GAME, "turn-1", "Хан", stdin=CORRECTED, monkeypatch=monkeypatch) == 0
    out = capsys.readouterr().out
    assert "Хан's orders are now host-1 (replacing 1)" in out
    assert "accepted: 3 из Паннонии в Норик, атакуя Западную Римскую Империю" in out
    assert "turn-1 is resolved: the correction counts once it is re-run" in out
    drafts_before = store.drafts(game_id=GAME)

    assert cli(table, "resolve", GAME, "turn-1", "--rerun", "--dry-run") == 0
    out = capsys.readouterr().out
    # the state: Noricum's battle and the people of its two sides, nothing in Dacia
    factions = [f["id"] for f in before["factions"]]
    empire, goths = factions.index("zapadnaya_rim"), factions.index("vestgoty")
    battle = [b["province"] for b in before["last_battles"]].index("noricum")
    assert state_paths(out) == {
        f"factions.{empire}.losing_turns", f"factions.{goths}.losing_turns",
        "people.noricum.vestgoty", "people.noricum.zapadnaya_rim", "people.venetia.zapadnaya_rim", "people.pannonia",
        f"last_battles.{battle}.sides.1.strength", f"last_battles.{battle}.people.vestgoty",
        f"last_battles.{battle}.strengths.vestgoty", f"last_battles.{battle}.winner",
        f"last_battles.{battle}.winners.0", f"last_battles.{battle}.losers.0"}
    assert "state people.noricum.vestgoty: 5 -> None" in out
    assert "state people.noricum.zapadnaya_rim: None -> 2" in out
    # the drafts: both reports (the first with its new map), the two players' PMs; Зорро's PM is the same
    changed = re.findall(r"^draft (\S+) to (\S+): changed \(was sent; goes out as a correction\)$", out, re.M)
    assert sorted(changed) == [("literary_report", "thread"), ("technical_report", "thread"),
                               ("turn_pm", "Аскон"), ("turn_pm", "Хан")]
    assert len(re.findall(r"^  -\[карта\] \w+/map\.png$", out, re.M)) == 1
    assert len(re.findall(r"^  \+\[карта\] \w+/map\.png$", out, re.M)) == 1
    # the chronicle now tells the Empire's victory in Noricum (its phrase is the seeded picker's)
    assert any(line.startswith("  +") and "Норик" in line and "Западн" in line and "Вестгот" in line
               for line in out.splitlines())
    assert "  -Западная Римская Империя: 2 человека отступили: Норик → Венетия" in out
    assert "  +Вестготы: 3 человека вернулись: Норик → Паннония (поражение)" in out
    dacia = [line for line in out.splitlines() if "Дакия (бой)" in line]
    assert dacia and all(line.startswith("   ") for line in dacia)      # context, never - or +
    # a preview changes nothing: not the drafts, not the map already in the thread
    assert store.drafts(game_id=GAME) == drafts_before
    assert {path: path.read_bytes() for path in old_pictures} == old_pictures
    assert [r["rerun"] for r in store.resolutions(GAME, "turn-1")] == [0]

    assert cli(table, "resolve", GAME, "turn-1", "--rerun", stdin="да\n", monkeypatch=monkeypatch) == 0
    after = store.latest_snapshot(GAME)["state"]
    assert after["people"]["noricum"] == {"zapadnaya_rim": 2} and after["people"]["pannonia"] == {"vestgoty": 5}
    assert after["people"]["venetia"]["zapadnaya_rim"] == 3
    untouched = set(before["people"]) - {"noricum", "pannonia", "venetia"}
    assert {p: after["people"].get(p) for p in untouched} == {p: before["people"][p] for p in untouched}
    assert after["last_battles"][1 - battle] == before["last_battles"][1 - battle]

    new_id = store.resolutions(GAME, "turn-1")[1]["id"]
    new = {(d["kind"], d["target"]): d for d in store.drafts(game_id=GAME) if d["resolution_id"] == new_id}
    assert new.pop(("turn_pm", "Зорро"))["status"] == "superseded"           # the same text is not sent twice
    for key in (("literary_report", "thread"), ("technical_report", "thread"), ("turn_pm", "Аскон"), ("turn_pm", "Хан")):
        assert new[key]["status"] == "pending" and new[key]["body"].startswith(CORRECTION), key
    new_report = new[("literary_report", "thread")]
    assert new_report["body"].rstrip().endswith("[карта]")
    new_pictures = [Path(name) for name in new_report["pictures"]]
    assert [p.name for p in new_pictures] == ["map.png", "map.svg"]
    assert new_pictures[1].read_bytes() != old_pictures[Path(old_report["pictures"][1])]
    assert {path: path.read_bytes() for path in old_pictures} == old_pictures
    assert [store.draft(d["id"])["status"] for d in drafts_before] == [d["status"] for d in drafts_before]

    # approved, the corrections go out once; Зорро hears nothing new
    for draft in store.drafts(status="pending"):
        store.approve(draft["id"], by="host")
    table.tick(msk(2, 17))
    table.tick(msk(2, 18))
    [technical] = table.host_posts("технический отчёт")[1:]
    assert technical.text.startswith("Исправление.") and "Победа: Западная Римская Империя." in technical.text
    corrected = [post for post in table.host_posts("370–374 годы") if post.text.startswith("Исправление.")]
    assert len(corrected) == 1 and "Норик" in corrected[0].text
    assert len(table.received("Хан", "Bellum: итоги хода 1")) == 2
    assert len(table.received("Зорро", "Bellum: итоги хода 1")) == 1
    assert len(table.received("Хан", "Ведущий исправил ваши приказы")) == 1
    assert len([p for p in table.server.board.visible_posts(2) if "[img]" in p.bbcode]) == 2


def test_the_same_order_entered_again_reruns_to_the_same_outcome(posted, monkeypatch, capsys):
    assert cli(posted, "correct", GAME, "turn-1", "Хан", stdin=ORDERS["Хан"], monkeypatch=monkeypatch) == 0
    capsys.readouterr()
    assert cli(posted, "resolve", GAME, "turn-1", "--rerun", "--dry-run") == 0
    assert capsys.readouterr().out.strip() == "the re-run gives the same outcome: nothing changes"
    assert cli(posted, "resolve", GAME, "turn-1", "--rerun", "--yes") == 0
    new_id = posted.store.resolutions(GAME, "turn-1")[1]["id"]
    assert {d["status"] for d in posted.store.drafts(game_id=GAME) if d["resolution_id"] == new_id} == {"superseded"}


def test_a_rerun_after_a_replacement_gives_the_same_rolls_and_outcome(posted, capsys):
    battles = [e for e in posted.store.events(GAME, "turn-1") if e["type"] == "battle"]
    assert battles and all(e["data"]["rolls"] for e in battles)
    rerun_after_replacement(posted.daemon.installation.source, posted.store, GAME, "Хан", "Новичок", "turn-1", capsys)
