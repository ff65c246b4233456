"""`forumgm simulate` and `forumgm check-orders` as docs/simulate.md describes them: the example runs,
the documented keys come out, and every mistake in a scenario is exit 2 naming its key path."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from forumgm.daemon.cli import main

DOC = Path(__file__).parent.parent / "docs" / "simulate.md"


def doc_example() -> str:
    return re.search(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S).group(1)


def scenario(tmp_path, text: str) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_documented_example_runs_with_the_documented_keys(tmp_path, capsys):
    assert main(["simulate", str(scenario(tmp_path, doc_example()))]) == 0
    out = json.loads(capsys.readouterr().out)
    night, day = out["phases"]
    for key in ("receipts", "eliminated", "pms", "events", "reports", "lynched", "immune_leader", "spells"):
        assert key in night and key in day
    assert {"counted_votes", "discarded_votes"} <= set(day) and "counted_votes" not in night
    assert [line["line"] for line in night["receipts"]["Зорро"]] == ["Атака 8 Хана", "атака 5 Лисы"]
    assert day["counted_votes"] == {"Хан": "Зорро"}
    assert {"alive", "winner"} <= set(out)


@pytest.mark.parametrize("edit, key", [
    (lambda s: s.replace("seed = 1", "seed = 1\nseeed = 2"), "seeed: unknown key"),
    (lambda s: s.replace("[setup]", "[setup]\ncolour = 1"), "setup.colour: unknown key"),
    (lambda s: s.replace('role = "Друид"', 'role = "Друид", alias = "Л"'), "setup.players[2].alias: unknown key"),
    (lambda s: s.replace("number = 3", "number = 3\nvotse = 1"), "phases[1].votse: unknown key"),
    (lambda s: s.replace('"Хан" = "Зорро"', "").replace("[phases.votes]",
                         '[[phases.posts]]\nauthor = "Хан"\nbbcod = "x"'), "phases[1].posts[0].bbcod: unknown key"),
    (lambda s: s.replace('kind = "night"', 'kind = "nite"'), "phases[0].kind: expected a legends phase kind"),
    (lambda s: s.replace("number = 2", "number = 0"), "phases[0].number: expected a phase number 1 or more"),
    (lambda s: s.replace('game = "legends"', 'game = "legend"'), "game: expected one of arena, bellum, legends, mafia"),
    (lambda s: s.replace("number = 2", 'number = "2"'), "phases[0].number: expected int"),
    (lambda s: s + "x = [", "s.toml: end of file: not valid TOML: invalid value"),
    (lambda s: s.replace("seed = 1", 'seed = 1\nvote_colors = ["blue", "синий"]'), "vote_colors: expected a list of colours"),
    (lambda s: s.replace("seed = 1", 'seed = 1\nvote_policy = "any"'), "vote_policy: expected one of last, first"),
    (lambda s: s.replace("[phases.votes]", '[[phases.pms]]\nfrom = "Хан"\ntext = "Защита 1"\nlate = true\n'
                         "[phases.votes]", 1), "late: a legends PM after a deadline is an order of the next phase"),
])
def test_a_mistake_is_exit_2_naming_the_key_path(tmp_path, capsys, edit, key):
    text = edit(doc_example())
    assert text != doc_example()
    assert main(["simulate", str(scenario(tmp_path, text))]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert key in captured.err


def test_check_orders_prints_the_receipt(tmp_path, capsys):
    path = scenario(tmp_path, doc_example())
    orders = tmp_path / "orders.txt"
    orders.write_text("Защита 3\nчушь", encoding="utf-8")
    assert main(["check-orders", "--game", "legends", "--scenario", str(path), "--from", "Зор", str(orders)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["from"] == "Зорро" and out["phase"] == "night-1"
    assert [line["ok"] for line in out["receipt"]] == [True, False]
    assert "«чушь»" in out["text"]


@pytest.mark.parametrize("argv, message", [
    (["--phase", "nite-1"], "--phase: expected a legends phase kind: night, day (got 'nite')"),
    (["--phase", "night"], "--phase: expected a phase key such as night-1"),
    (["--from", "Незнакомец"], "--from: 'Незнакомец' is not a player"),
    (["--game", "mafia"], "game: the scenario is for 'legends', not 'mafia'"),
])
def test_check_orders_refuses_with_exit_2_naming_the_option(tmp_path, capsys, argv, message):
    path = scenario(tmp_path, doc_example())
    orders = tmp_path / "orders.txt"
    orders.write_text("Защита 3", encoding="utf-8")
    options = {"--game": "legends", "--from": "Зорро", **dict(zip(argv[::2], argv[1::2]))}
    args = ["check-orders", "--scenario", str(path), *[item for pair in options.items() for item in pair]]
    assert main([*args, str(orders)]) == 2
    assert message in capsys.readouterr().err


def test_orders_of_a_non_player_are_refused_but_his_vote_is_listed_as_discarded(tmp_path, capsys):
    orders = doc_example().replace('"Зорро" = """Атака 8 Хана', '"Незнакомец" = """Атака 8 Хана')
    assert main(["simulate", str(scenario(tmp_path, orders))]) == 2
    assert "phases[0].orders: 'Незнакомец' is not a player" in capsys.readouterr().err
    votes = doc_example().replace('"Хан" = "Зорро"', '"Незнакомец" = "Зорро"')
    assert main(["simulate", str(scenario(tmp_path, votes))]) == 0
    day = json.loads(capsys.readouterr().out)["phases"][1]
    assert day["counted_votes"] == {}
    assert [(d["voter"], d["reason"]) for d in day["discarded_votes"]] == [("Незнакомец", "non_player")]


@pytest.mark.parametrize("command", [["simulate"], ["check-orders", "--game", "mafia", "--from", "Эф", "--scenario"]])
def test_a_scenario_file_that_cannot_be_read_is_exit_2_naming_it(command, tmp_path, capsys):
    missing = tmp_path / "missing.toml"
    assert main([*command, str(missing)] + (["/dev/null"] if command[0] == "check-orders" else [])) == 2
    assert capsys.readouterr().err == (f"forumgm {command[0]}: {missing}: (file): cannot read it: "
                                       "No such file or directory\n")


@pytest.mark.parametrize("command", ["simulate", "check-orders"])
def test_a_scenario_named_relative_to_the_working_folder_is_found(command, tmp_path, capsys, monkeypatch):
    """Paths inside a scenario are read from its folder; the path on the command line is the caller's."""
    (tmp_path / "games").mkdir()
    scenario(tmp_path / "games", doc_example())
    (tmp_path / "orders.txt").write_text("Защита 3", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    argv = (["simulate", "games/s.toml"] if command == "simulate" else
            ["check-orders", "--game", "legends", "--scenario", "games/s.toml", "--from", "Зорро", "orders.txt"])
    assert main(argv) == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)


def test_simulate_texts_prints_every_report_and_pm_of_each_phase_for_proofreading(capsys):
    path = Path(__file__).parent / "scenarios" / "legends" / "ex5_joint_attack.toml"
    assert main(["simulate", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert main(["simulate", "--texts", str(path)]) == 0
    printed = capsys.readouterr().out
    phase = result["phases"][0]
    for name, body in phase["reports"].items():
        if body:
            assert f"===== night-2: {name} report (thread) =====\n{body}\n" in printed
    for pm in phase["pms"]:
        assert f"===== night-2: {pm['kind']} PM to {pm['to']} =====\n{pm['text']}\n" in printed
    assert printed.count("=====\n") == len([b for b in phase["reports"].values() if b]) + len(phase["pms"])


def test_a_pm_from_an_account_named_like_an_alias_is_nobodys_order(tmp_path, capsys):
    # the daemon takes a PM's sender by the exact account (parsers.names.account_player): «Зор» is
    # Зорро's alias, so an account called «Зор» is someone else, and so it is in the lab
    text = doc_example().replace('"Зорро" = """Атака 8 Хана', '"Зор" = """Атака 8 Хана', 1)
    assert '"Зор" = """' in text
    assert main(["simulate", str(scenario(tmp_path, text))]) == 0
    night = json.loads(capsys.readouterr().out)["phases"][0]
    assert "Зорро" not in night["receipts"] and "Зор" not in night["receipts"]
    assert night["stray_pms"] == [{"from": "Зор", "text": "Атака 8 Хана\nатака 5 Лисы"}]
    assert all(pm["to"] != "Зорро" or pm["kind"] != "receipt" for pm in night["pms"])


@pytest.mark.parametrize("content, message", [
    (None, "{orders}: cannot read it: No such file or directory"),
    (b"\xd0\x97\xd0\xb0\xd1\x89\xff 3", "{orders}: expected UTF-8 text (byte 0xff at offset 6 is not)"),
])
def test_an_order_file_that_cannot_be_read_is_exit_2_naming_it(tmp_path, capsys, content, message):
    """A missing file or one that is not UTF-8 ended in a traceback."""
    orders = tmp_path / "orders.txt"
    if content is not None:
        orders.write_bytes(content)
    path = scenario(tmp_path, doc_example())
    assert main(["check-orders", "--game", "legends", "--scenario", str(path), "--from", "Зорро", str(orders)]) == 2
    assert capsys.readouterr().err == f"forumgm check-orders: {message.format(orders=orders)}\n"


def test_simulate_texts_prints_the_hosts_notices_too(tmp_path, capsys):
    """The day the last lynch leaves nobody to lynch drafts a notice for the host: proofread with the rest."""
    path = tmp_path / "regime.toml"
    path.write_text('game = "legends"\nseed = 1\n[setup]\ndead = ["Эф"]\nplayers = [\n'
                    + "".join(f'  {{ nick = "{n}", role = "{r}" }},\n' for n, r in
                              {"Аскон": "Вампир", "Эф": "Эфрит", "Хан": "Дракон", "Лиса": "Гидра"}.items())
                    + ']\n[[phases]]\nkind = "day"\nnumber = 2\nvotes = { "Аскон" = "Хан", "Лиса" = "Хан" }\n',
                    encoding="utf-8")
    assert main(["simulate", "--texts", str(path)]) == 0
    printed = capsys.readouterr().out
    assert "===== day-2: lynch report (thread) =====\n[b]Итоги второго дня[/b]" in printed
    assert "===== day-2: notice to the host =====\n[b]Игра переходит в непрерывный режим.[/b]" in printed
