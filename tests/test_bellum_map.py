"""The Bellum turn map, read back: the SVG's cells, links, names and people symbols, and the PNG."""
import functools
import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from forumgm.daemon.cli import main
from forumgm.engines.bellum.mapdraw import (
    OWNER_ALPHA, UNOWNED_CIVILIZED, UNOWNED_WILD, WIDTH_PX, draw_map, faction_looks, start_position,
)
from tests.bellum_helpers import setup_of, shipped_scenario

SVG = "{http://www.w3.org/2000/svg}"


@functools.cache
def shipped_maps():
    """The maps of the shipped rules: geography and fonts read at the edge, as the daemon has them."""
    from forumgm.daemon.settings.games import shipped_rules

    return shipped_rules("bellum").maps


def draw(*args, **kwargs) -> bytes:
    return draw_map(*args, fonts=shipped_maps().letters(), **kwargs)
XLINK = "{http://www.w3.org/1999/xlink}href"


@pytest.fixture(scope="module")
def s370():
    return shipped_scenario()


def style_of(element):
    return dict(part.strip().split(": ", 1) for part in element.get("style", "").split(";") if ": " in part)


def read_svg(data: bytes):
    """What the picture shows, from the SVG alone: cells, links, symbols (by their link names),
    the texts of each named group and every text."""
    root = ET.fromstring(data)
    groups = {g.get("id"): g for g in root.iter(f"{SVG}g") if g.get("id")}
    found = {"cells": {}, "links": {}, "stacks": {}, "names": {}, "texts": [t.text for t in root.iter(f"{SVG}text")]}
    for gid, group in groups.items():
        if gid.startswith("name:"):
            found["names"][gid[5:]] = " ".join(t.text for t in group.iter(f"{SVG}text"))
        if not gid.startswith(("provinces", "links:", "stacks:")):
            continue
        for anchor in group.iter(f"{SVG}a"):
            target = anchor.get(XLINK)[1:]
            shape = next(iter(anchor))
            kind, _, rest = target.partition(":")
            if kind == "province":
                pid, owner = rest.split(":")
                found["cells"][pid] = (owner, style_of(shape))
            elif kind == "link":
                found["links"][rest] = (gid, style_of(shape))
            elif kind == "stack":
                pid, fid, count = rest.split(":")
                found["stacks"][pid, fid] = (gid.split(":")[1], int(count), style_of(shape))
    return found


@pytest.fixture(scope="module")
def start_svg(s370):
    return read_svg(draw(s370, fmt="svg", **start_position(s370)))


def test_every_province_is_a_cell_in_its_owners_colour_with_its_name_as_text(s370, start_svg):
    assert set(start_svg["cells"]) == set(s370.provinces)
    assert start_svg["names"] == {pid: p.name for pid, p in s370.provinces.items()}
    for pid, (owner, style) in start_svg["cells"].items():
        if pid in s370.owners:
            assert owner == s370.owners[pid]
            assert style["fill"] == s370.factions[owner].color
            assert float(style["fill-opacity"]) == pytest.approx(OWNER_ALPHA)
        else:
            assert owner == ""
            assert style["fill"] == (UNOWNED_CIVILIZED if s370.provinces[pid].civilized else UNOWNED_WILD)


def test_every_link_is_drawn_in_its_kind(s370, start_svg):
    assert len(start_svg["links"]) == len(s370.links)
    colours = {"land": "#8a8a8a", "blue": "#1f6fd1", "purple": "#9b30b0"}
    for link in s370.links:
        group, style = start_svg["links"][f"{link.kind}:{link.a}:{link.b}"]
        assert group == f"links:{link.kind}"
        assert style["stroke"] == colours[link.kind]


def test_every_stack_of_people_is_a_symbol_in_its_factions_colour(s370, start_svg):
    expected = {(stack.province, stack.faction): stack.count for stack in s370.people}
    assert {key: count for key, (_, count, _) in start_svg["stacks"].items()} == expected
    for (pid, fid), (kind, _, style) in start_svg["stacks"].items():
        faction = s370.factions[fid]
        assert kind == ("square" if faction.is_state else "circle"), (pid, fid)
        assert style["fill"] == faction.color


def test_every_faction_is_named_in_the_legend(s370, start_svg):
    texts = set(start_svg["texts"])
    for faction in s370.factions.values():
        assert faction.name in texts
    assert {"цивилизованный народ", "племя", "племя-покоритель", "морской путь для государств"} <= texts


def test_subjugation_rings_the_tribe_in_its_masters_colour_and_the_master_is_a_concave_square(s370):
    position = start_position(s370)
    position["subjugated"] = {"anty": "ostgoty"}
    position["people"]["pridneprovye"]["gunny"] = 4
    stacks = read_svg(draw(s370, fmt="svg", **position))["stacks"]
    kind, count, style = stacks["pridneprovye", "anty"]
    assert (kind, count) == ("ringed", 6)
    assert style["fill"] == s370.factions["anty"].color and style["stroke"] == s370.factions["ostgoty"].color
    assert stacks["prichernomorye", "ostgoty"][0] == "concave"
    assert stacks["tavrika", "ostgoty"][0] == "concave"
    assert stacks["pridneprovye", "gunny"][0] == "circle"
    assert stacks["italiya", "zap_rim"][0] == "square"


def test_a_faction_born_in_the_game_is_drawn_from_the_simulate_factions(s370):
    people = {"moldaviya": {"vestgoty": 8}, "italiya": {"zap_rim": 5, "zap_rim_italiya": 3}}
    factions = {"vestgoty": {"kind": "state", "ever_state": True, "capital": "moldaviya"},
                "zap_rim_italiya": {"kind": "state", "ever_state": True, "capital": "italiya"}}
    data = draw(s370, people, {"italiya": "zap_rim_italiya", "moldaviya": "vestgoty"}, {}, fmt="svg",
                    factions=factions)
    found = read_svg(data)
    assert found["stacks"]["moldaviya", "vestgoty"][0] == "square"      # a tribe become state
    new_colour = found["stacks"]["italiya", "zap_rim_italiya"][2]["fill"]
    assert found["cells"]["italiya"] == ("zap_rim_italiya", {**found["cells"]["italiya"][1], "fill": new_colour})
    assert new_colour not in {f.color for f in s370.factions.values()} | {"#000000"}
    assert "zap_rim_italiya" in found["texts"]       # the legend names it by id until it has a name


def test_the_png_is_the_forums_width_and_shows_the_owners_colour(s370):
    data = draw(s370, fmt="png", **start_position(s370))
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    assert image.width == WIDTH_PX
    assert 900 < image.height < 1400
    colours = {colour for _, colour in image.convert("RGB").getcolors(1 << 20)}
    # a palette of few colours, small enough to attach to a post on a stock board (SMF takes 128 KB
    # at most), with every faction's own colour kept (within a shade) and no two merged into one
    assert image.mode == "P" and len(data) < 128 * 1024
    shown = {}
    for faction in s370.factions.values():
        wanted = tuple(int(faction.color[i:i + 2], 16) for i in (1, 3, 5))
        near = [c for c in colours if max(abs(a - b) for a, b in zip(c, wanted)) <= 3]
        assert near, faction.name
        shown[faction.id] = min(near, key=lambda c: sum(abs(a - b) for a, b in zip(c, wanted)))
    assert len(set(shown.values())) == len(s370.factions) == 58


def test_the_same_position_gives_the_same_svg(s370):
    position = start_position(s370)
    assert draw(s370, fmt="svg", **position) == draw(s370, fmt="svg", **position)


def test_symbol_kinds_follow_the_rules(s370):
    looks = faction_looks(s370, {}, {"alany": "gunny"}, {"gepidy": {"kind": "tribe", "ever_state": True}})
    assert looks["sassanidy"].symbol == "square" and looks["gepidy"].symbol == "square"
    assert looks["alany"].symbol == "ringed" and looks["alany"].master == "gunny"
    assert looks["gunny"].symbol == "concave" and looks["franki"].symbol == "circle"


# ---------------------------------------------------------------- forumgm map

def test_map_command_draws_the_start_of_a_simulate_scenario(tmp_path, capsys, s370):
    scenario = tmp_path / "game.toml"
    scenario.write_text('game = "bellum"\nseed = 1\n[setup]\nscenario = "370"\n', encoding="utf-8")
    out = tmp_path / "start.svg"
    assert main(["map", str(scenario), "--out", str(out)]) == 0
    assert "370 г. — начало" in capsys.readouterr().out
    found = read_svg(out.read_bytes())
    assert set(found["cells"]) == set(s370.provinces)
    assert "370 г. — начало" in found["texts"]


def test_map_command_reads_a_scenario_file_by_relative_path(tmp_path, s370):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "mine.toml").write_bytes(_shipped_370().read_bytes())
    scenario = tmp_path / "game.toml"
    scenario.write_text('game = "bellum"\n[setup]\nscenario = "maps/mine.toml"\n', encoding="utf-8")
    out = tmp_path / "start.png"
    assert main(["map", str(scenario), "--out", str(out)]) == 0
    assert Image.open(out).width == WIDTH_PX


def test_map_command_refuses_what_it_cannot_draw(tmp_path, capsys):
    scenario = tmp_path / "game.toml"
    scenario.write_text('game = "bellum"\n[setup]\nscenario = "370"\n', encoding="utf-8")
    assert main(["map", str(scenario), "--out", str(tmp_path / "x.gif")]) == 2
    assert "--out must end in .png or .svg" in capsys.readouterr().err
    assert main(["map", str(scenario), "--out", str(tmp_path / "x.png"), "--turn", "3"]) == 2
    assert "--turn: expected 0..0 (the scenario has 0 turn(s))" in capsys.readouterr().err
    scenario.write_text('game = "mafia"\n', encoding="utf-8")
    assert main(["map", str(scenario), "--out", str(tmp_path / "x.png")]) == 2
    assert ("game: expected \"bellum\" (got 'mafia'): the mafia engine («Мафия») draws no maps"
            in capsys.readouterr().err)
    scenario.write_text('game = "legends"\n[[phases]]\nkind = "night"\n', encoding="utf-8")
    assert main(["map", str(scenario), "--out", str(tmp_path / "x.png")]) == 2
    assert "(got 'legends'): the legends engine («Легенды меча и магии») draws no maps" in capsys.readouterr().err
    scenario.write_text('year = 370\nprovinces = 3\n', encoding="utf-8")       # a Bellum scenario file, broken
    assert main(["map", str(scenario), "--out", str(tmp_path / "x.png")]) == 2
    assert f"{scenario}: provinces: expected an array of tables [[provinces]]" in capsys.readouterr().err
    scenario.write_text('game = "bellum"\n[setup]\nscenario = "nowhere.toml"\n', encoding="utf-8")
    assert main(["map", str(scenario), "--out", str(tmp_path / "x.png")]) == 2
    assert "nowhere.toml: (file): cannot read it" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_only_bellum_offers_maps_through_its_rules():
    from forumgm.daemon.settings.games import game_maps

    assert [game for game in ("legends", "mafia", "bellum", "arena") if game_maps(game) is not None] == ["bellum"]
    assert game_maps("chess") is None                      # no such engine: no maps, no error
    assert game_maps("bellum").formats == ("png", "svg")


def test_the_engines_map_of_a_state_is_the_turn_report_picture_and_titles_the_start(tmp_path):
    from forumgm.daemon.drafts.pictures import drawn_maps
    from forumgm.daemon.settings.games import shipped_rules

    rules = shipped_rules("bellum")
    state = rules.setup(setup_of({"scenario": "370", "players": [{"nick": "Аларих", "faction": "vestgoty"}]}), 1)
    start = rules.maps.draw(state, "svg")
    assert start.title == "370 г. — начало" and "370 г. — начало" in start.data.decode("utf-8")
    assert drawn_maps(rules.maps, state) == {"map.png": rules.maps.draw(state, "png").data, "map.svg": start.data}
    assert 'id="land"' in start.data.decode("utf-8")          # the game's state keeps its scenario's geography


def test_maps_without_the_shipped_fonts_say_so():
    from forumgm.engines.bellum import RULES        # made without the rule table: nothing read at the edge

    state = RULES.setup(setup_of({"scenario": "370", "players": [{"nick": "Аларих", "faction": "vestgoty"}]}), 1)
    with pytest.raises(ValueError, match=r"the map's fonts \(DejaVuSans.ttf and DejaVuSans-Bold.ttf of "
                                         r"config/bellum/fonts\) were not handed over"):
        RULES.maps.draw(state, "png")


def _shipped_370():
    from forumgm.config import data_path
    return data_path("bellum", "scenarios", "370.toml")


def test_a_report_carrying_a_map_without_the_pages_public_address_goes_back_to_the_host(tmp_path):
    """…and once the host deletes the mark, the report goes without the map."""
    from forumgm.daemon.drafts.pictures import MARK, NO_PUBLIC_URL, with_mark
    from forumgm.daemon.drafts.publish import publish_approved
    from forumgm.daemon.store import Store

    store = Store(tmp_path / "forumgm.sqlite")
    store.register_forum("main", "phpbb", "https://forum.example.org/", "Ведущий")
    store.register_game("g", "bellum", "main", "https://forum.example.org/viewtopic.php?t=1", "UTC", 1, {})
    picture = tmp_path / "map.png"
    picture.write_bytes(b"\x89PNG")
    draft_id = store.insert_draft("g", "literary_report", "thread", with_mark("[b]375 год[/b]"), "turn-1",
                               needs_approval=False, pictures=[picture])

    class NoForum:            # a board forumgm attaches nothing on: the draft is refused before any request
        attaches = False

        def __getattr__(self, name):
            raise AssertionError(f"the forum was asked: {name}")

    report = publish_approved(NoForum(), store, store.now())
    assert report.refused == {draft_id: NO_PUBLIC_URL}
    assert store.draft(draft_id)["status"] == "pending" and store.draft(draft_id)["send_error"] == NO_PUBLIC_URL

    class Forum:
        def __init__(self):
            self.posted = []

        def reply(self, thread_url, text):
            self.posted.append(text)
            return "7"

    store.edit_draft(draft_id, store.draft(draft_id)["body"].replace(MARK, ""), by="host")
    store.approve(draft_id, by="host")
    forum = Forum()
    assert publish_approved(forum, store, store.now()).sent == {draft_id: "7"}
    assert forum.posted == ["[b]375 год[/b]\n\n\n"]
    store.close()


def test_map_command_draws_the_position_after_a_simulated_turn(tmp_path, monkeypatch, capsys):
    import contextlib
    from pathlib import Path

    from forumgm.daemon.offline.simulate import load_scenario as load_simulation, run_scenario

    scenario = Path(__file__).parent / "scenarios" / "bellum" / "capture.toml"
    out = tmp_path / "turn1.svg"
    assert main(["map", str(scenario), "--out", str(out), "--turn", "1"]) == 0
    assert "После хода 1 (370 г.)" in capsys.readouterr().out
    with contextlib.chdir(scenario.parent):
        after = run_scenario(load_simulation(scenario))["phases"][0]
    # one year everywhere: the map of turn 1, its reports and its PMs all name 370
    heading = after["reports"]["literary"].splitlines()[0]          # «370–374 годы»: the turn's five years
    assert heading.startswith("[b]370") and "375" not in heading
    assert "Ход 1 (370 г.)" in after["reports"]["technical"]
    turn_pms = [pm for pm in after["pms"] if pm["kind"] == "turn_pm"]
    assert turn_pms and all("итоги хода 1 (370 г.)" in pm["text"] for pm in turn_pms)
    found = read_svg(out.read_bytes())
    drawn = {key: count for key, (_, count, _) in found["stacks"].items()}
    assert drawn == {(p, f): n for p, here in after["people"].items() for f, n in here.items() if n > 0}
    assert {pid: owner for pid, (owner, _) in found["cells"].items() if owner} == after["owners"]


def test_map_command_titles_a_turn_with_the_years_the_scenarios_rules_give_a_turn(tmp_path, capsys):
    """A simulation playing ten-year turns ([setup.rules] years_per_turn = 10): turn 2 is played in 380."""
    import shutil
    from pathlib import Path

    folder = Path(__file__).parent / "scenarios" / "bellum"
    shutil.copy(folder / "small_map.toml", tmp_path / "small_map.toml")
    scenario = tmp_path / "capture.toml"
    scenario.write_text((folder / "capture.toml").read_text(encoding="utf-8")
                        + "\n[setup.rules]\nyears_per_turn = 10\n", encoding="utf-8")
    assert main(["map", str(scenario), "--out", str(tmp_path / "turn2.svg"), "--turn", "2"]) == 0
    assert "После хода 2 (380 г.)" in capsys.readouterr().out
    assert "После хода 2 (380 г.)" in (tmp_path / "turn2.svg").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def geography():
    """The 370 map's real geography, read at the edge as a game's rules get it."""
    from forumgm.daemon.settings.games import shipped_rules

    return shipped_rules("bellum").maps.geography("mediterranean")


def _plan(s370, geography, position=None):
    from forumgm.engines.bellum.mapdraw import _letters, faction_looks, map_plan

    position = position or start_position(s370)
    looks = faction_looks(s370, position["people"], position["subjugated"], {})
    letters = _letters(shipped_maps().letters())
    return map_plan(s370, position["people"], position["owners"], looks, letters, "370 г. — начало", geography), position


@pytest.mark.parametrize("drawn_on", ["geography", "cells"])
def test_no_province_name_overlaps_another_or_a_symbol_on_the_370_map(s370, geography, drawn_on):
    """The names where the map writes them (each box holds the name's letters as the PNG draws
    them) share no pixel with each other, with the people's symbols or with the title, in the
    crowded Balkans and Asia Minor too; each stays near its province's point."""
    from forumgm.engines.bellum.labels import overlap
    from forumgm.engines.bellum.mapdraw import NAME_SIZE, NAME_SPACING

    plan, _ = _plan(s370, geography if drawn_on == "geography" else None)
    boxes = {name.province: name.box for name in plan.names}
    assert set(boxes) == set(s370.provinces)
    for name in plan.names:
        width, height = plan.letters.size(name.text, NAME_SIZE, name.bold, NAME_SPACING)
        x0, y0, x1, y1 = name.box
        assert width <= x1 - x0 and height <= y1 - y0 and name.text.replace("\n", " ") == s370.provinces[name.province].name
    crossing = [(a, b) for a in boxes for b in boxes if a < b and overlap(boxes[a], boxes[b]) > 0]
    assert crossing == []
    assert len(plan.stacks) == len(s370.people)
    covered = [(pid, stack.province) for pid, box in boxes.items() for stack in plan.stacks if overlap(box, stack.box) > 0]
    assert covered == []
    assert [pid for pid, box in boxes.items() if overlap(box, plan.title_box) > 0] == []
    for pid, (x0, y0, x1, y1) in boxes.items():
        (x, y), = plan.to_pixels([plan.layout.anchors[pid]])
        assert x0 - 40 < x < x1 + 40 and y0 - 40 < y < y1 + 40, pid      # within a few letters of its point


# ---------------------------------------------------------------- real geography

SEAS = {"the Tyrrhenian Sea": (11.5, 40.0), "the Black Sea": (34.0, 43.5), "the Aegean": (25.0, 38.8),
        "the Bay of Biscay": (-4.0, 45.5), "the Caspian": (50.5, 42.0), "the Red Sea": (38.0, 20.0)}
LANDS = {"italiya": (12.5, 41.9), "krit": (24.9, 35.2), "sitsiliya": (14.2, 37.5), "tavrika": (34.2, 45.0),
         "egipet": (31.2, 30.0), "britannia": (-1.3, 51.8)}


def test_the_sea_is_in_no_province_and_the_land_is_in_its_own(s370, geography):
    from shapely.geometry import Point

    from forumgm.engines.bellum.geography import project
    from forumgm.engines.bellum.mapdraw import map_layout

    areas = map_layout(s370, geography).areas
    assert set(areas) == set(s370.provinces)
    for sea, (x, y) in SEAS.items():
        assert [pid for pid, area in areas.items() if area.contains(Point(project(x, y)))] == [], sea
    for pid, (x, y) in LANDS.items():
        assert [other for other, area in areas.items() if area.contains(Point(project(x, y)))] == [pid]
    # an island with one province is that island (with its islets), not a disc of the sea around it
    crete = next(mass for mass in geography.land.geoms if mass.contains(Point(project(*LANDS["krit"]))))
    assert areas["krit"].contains(crete) and areas["krit"].area < 1.2 * crete.area


def _pixel(plan, png, lon, lat):
    """The colour of most of the picture around the place (a name or a symbol may stand there)."""
    from collections import Counter

    from forumgm.engines.bellum.geography import project

    (x, y), = plan.to_pixels([project(lon, lat)])
    x, y = int(x), int(y)
    return Counter(png.getpixel((x + dx, y + dy)) for dx in range(-6, 7) for dy in range(-6, 7)).most_common(1)[0][0]


def test_the_png_shows_the_sea_as_sea_and_the_provinces_on_land(s370, geography):
    from forumgm.engines.bellum.mapdraw import RIVER, SEA

    plan, position = _plan(s370, geography)
    png = Image.open(io.BytesIO(draw(s370, fmt="png", geography=geography, **position))).convert("RGB")
    sea = tuple(int(SEA[i:i + 2], 16) for i in (1, 3, 5))
    for name, (x, y) in SEAS.items():
        assert max(abs(a - b) for a, b in zip(_pixel(plan, png, x, y), sea)) <= 3, name
    italy = tuple(round(255 * (OWNER_ALPHA * c + (1 - OWNER_ALPHA) * b)) for c, b in zip(
        (int(s370.factions["zap_rim"].color[i:i + 2], 16) / 255 for i in (1, 3, 5)), (0xf4 / 255, 0xf8 / 255, 0xfb / 255)))
    assert max(abs(a - b) for a, b in zip(_pixel(plan, png, 11.3, 43.3), italy)) <= 3     # Etruria
    # the longest river drawn (the Danube, the Nile) shows over the provinces it crosses
    river = tuple(int(RIVER[i:i + 2], 16) for i in (1, 3, 5))
    _, line = max(plan.layout.rivers, key=lambda river: len(river[1]))
    shown = [png.getpixel((int(x), int(y))) for x, y in plan.to_pixels(line[len(line) // 4::len(line) // 4][:3])]
    assert all(sum(abs(a - b) for a, b in zip(colour, river)) < 90 for colour in shown), shown
    assert png.width == WIDTH_PX


def test_sea_links_run_over_water(s370, geography):
    """Each blue and purple link curves from one province's point to the other's over the sea:
    on other provinces' land at most a tenth of its way (a strait's shore), and the Gallaecia–
    Aquitania crossing over the Bay of Biscay, not through Spain."""
    import numpy as np
    import shapely

    from forumgm.engines.bellum.mapdraw import map_layout

    layout = map_layout(s370, geography)
    land = shapely.union_all([geography.land, *layout.areas.values()])
    over_land = {}
    for link in s370.links:
        line = layout.links[link.a, link.b]
        if link.kind == "land":
            assert len(line) == 2
            continue
        own = layout.areas[link.a].union(layout.areas[link.b])
        dense = shapely.segmentize(shapely.LineString(line), 0.05)
        xs, ys = np.asarray(dense.coords).T
        on = shapely.contains_xy(land, xs, ys) & ~shapely.contains_xy(own, xs, ys)
        over_land[link.a, link.b] = on.mean()
    assert len(over_land) == 43
    assert {pair: share for pair, share in over_land.items() if share > 0.1} == {}
    biscay = next(pair for pair in over_land if set(pair) == {"galletsiya", "akvitaniya"})
    assert over_land[biscay] == 0


def test_the_map_command_draws_the_370_scenario_on_its_geography_and_a_hosts_own_as_cells(tmp_path, s370):
    game = tmp_path / "game.toml"
    game.write_text('game = "bellum"\n[setup]\nscenario = "370"\n', encoding="utf-8")
    assert main(["map", str(game), "--out", str(tmp_path / "370.svg")]) == 0
    root = ET.fromstring((tmp_path / "370.svg").read_bytes())
    groups = {g.get("id") for g in root.iter(f"{SVG}g")}
    assert {"sea", "land", "lakes", "rivers", "provinces"} <= groups
    own = tmp_path / "mine.toml"        # a host's map: the 370 file without its geography
    own.write_text(_shipped_370().read_text(encoding="utf-8").replace('geography = "mediterranean"\n', ""),
                   encoding="utf-8")
    assert main(["map", str(own), "--out", str(tmp_path / "mine.svg")]) == 0
    mine = read_svg((tmp_path / "mine.svg").read_bytes())
    groups = {g.get("id") for g in ET.fromstring((tmp_path / "mine.svg").read_bytes()).iter(f"{SVG}g")}
    assert set(mine["cells"]) == set(s370.provinces) and not {"sea", "land", "rivers"} & groups


def test_a_scenario_naming_a_geography_not_shipped_is_refused_by_the_map_and_by_the_game(tmp_path, capsys):
    from forumgm.daemon.settings.games import shipped_rules
    from forumgm.engines.base import SetupError

    own = tmp_path / "mine.toml"
    own.write_text(_shipped_370().read_text(encoding="utf-8").replace('"mediterranean"', '"atlantis"'),
                   encoding="utf-8")
    assert main(["map", str(own), "--out", str(tmp_path / "mine.svg")]) == 2
    why = "geography: 'atlantis' is no shipped geography (expected one of: mediterranean)"
    assert why in capsys.readouterr().err and not (tmp_path / "mine.svg").exists()
    with pytest.raises(SetupError) as refused:
        shipped_rules("bellum").setup(setup_of({"scenario": str(own), "players": [{"nick": "Аларих",
                                                                                   "faction": "vestgoty"}]}), 1)
    assert refused.value.problems == (("setup.scenario", why),)


def test_the_same_position_on_the_geography_gives_the_same_png_and_the_same_areas(s370):
    """Two geographies parsed from the same file (as two processes would) give the same areas and
    the same PNG bytes."""
    from forumgm.config import read_rule_table
    from forumgm.engines.bellum import make_rules
    from forumgm.engines.bellum.mapdraw import map_layout

    one, other = (make_rules(read_rule_table("bellum")).maps.geography("mediterranean") for _ in range(2))
    assert one is not other
    first, second = map_layout(s370, one), map_layout(s370, other)
    assert {pid: area.wkb for pid, area in first.areas.items()} == {pid: area.wkb for pid, area in second.areas.items()}
    position = start_position(s370)
    assert draw(s370, fmt="png", geography=one, **position) == draw(s370, fmt="png", geography=other, **position)


def test_the_shipped_geography_names_its_public_domain_source():
    from forumgm.config import read_rule_table

    source = read_rule_table("bellum")["geography"]["mediterranean"]["source"]
    assert "Natural Earth" in source and "public domain" in source
