"""The daemon stays game-agnostic: what differs per game comes from the engine through the Rules
protocol (engines/base.py), so no daemon module imports a game's engine package or switches on a
game's name (compares with it, matches it, or keeps a table keyed by it)."""
from __future__ import annotations

import ast
from pathlib import Path

import forumgm.daemon
import forumgm.engines
from coin_support import GAMES_FOLDER

DAEMON = Path(forumgm.daemon.__file__).parent
GAMES = frozenset(path.parent.name for path in Path(forumgm.engines.__file__).parent.glob("*/__init__.py"))


def _imported(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, dotted name) of every module an import names, in functions too."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def _game_names(node: ast.AST) -> set[str]:
    """The game names an operand spells out: "mafia", or ("legends", "mafia")."""
    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return {item.value for item in items if isinstance(item, ast.Constant) and item.value in GAMES}


def engine_imports(source: str) -> list[str]:
    return [f"line {line}: {name}" for line, name in _imported(ast.parse(source))
            if name.split(".")[:2] == ["forumgm", "engines"] and len(name.split(".")) > 2
            and name.split(".")[2] in GAMES]


def _switched_on(node: ast.AST) -> set[str]:
    """The game names a comparison, a match case or a table keyed by game spells out."""
    if isinstance(node, ast.Compare):
        return set().union(*map(_game_names, [node.left, *node.comparators]))
    if isinstance(node, ast.MatchValue):
        return _game_names(node.value)
    if isinstance(node, ast.Dict):
        return set().union(*(_game_names(key) for key in node.keys if key is not None))
    return set()


def game_switches(source: str) -> list[str]:
    return [f"line {node.lineno}: switches on {sorted(names)}" for node in ast.walk(ast.parse(source))
            if (names := _switched_on(node))]


def _daemon_modules() -> list[Path]:
    modules = sorted(DAEMON.rglob("*.py"))
    assert len(modules) > 50 and DAEMON / "cli" / "map.py" in modules      # the walk reaches subpackages
    return modules


def test_the_checks_see_what_they_look_for():
    assert GAMES == {"legends", "mafia", "bellum", "arena"}
    assert engine_imports("from forumgm.engines.mafia.freeze import RulesFrozen") == [
        "line 1: forumgm.engines.mafia.freeze.RulesFrozen"]
    assert engine_imports("def f():\n    import forumgm.engines.bellum.mapdraw") == [
        "line 2: forumgm.engines.bellum.mapdraw"]
    assert engine_imports("from forumgm.engines import arena") == ["line 1: forumgm.engines.arena"]
    assert engine_imports("from forumgm.engines.base import Rules\nfrom forumgm.engines import tally") == []
    assert game_switches("if game.type == 'bellum': pass") == ["line 1: switches on ['bellum']"]
    assert game_switches("x = row.game in ('legends', 'mafia')") == ["line 1: switches on ['legends', 'mafia']"]
    assert game_switches("match game:\n    case 'arena': pass") == ["line 2: switches on ['arena']"]
    assert game_switches("KINDS = {\n  'mafia': ('round',),\n  **more}") == ["line 1: switches on ['mafia']"]
    assert game_switches("if kind == 'turn': pass\nx = {'turn': 1}") == []


def test_no_daemon_module_imports_a_game_engine_package():
    found = {str(path.relative_to(DAEMON)): problems for path in _daemon_modules()
             if (problems := engine_imports(path.read_text(encoding="utf-8")))}
    assert found == {}


def test_no_daemon_module_switches_on_a_game_name():
    found = {str(path.relative_to(DAEMON)): problems for path in _daemon_modules()
             if (problems := game_switches(path.read_text(encoding="utf-8")))}
    assert found == {}


def test_the_discovered_games_are_the_engine_packages_each_naming_its_kinds_in_russian():
    from forumgm.daemon.settings.games import game_types, shipped_rules

    assert sorted(game_types()) == sorted(GAMES)
    for game in game_types():
        rules = shipped_rules(game)
        assert rules.name == game and rules.phase_kinds and rules.draft_kinds
        for label in (*rules.phase_labels.values(), *rules.draft_labels.values()):
            assert label and all(letter.isspace() or "а" <= letter.lower() <= "я" or letter == "ё" for letter in label)


# what the game living outside forumgm is called anywhere: its type, package, title, phase and report
OUTSIDE_NAMES = ("coin", "монетк", "toss", "бросок")


def test_the_game_registered_from_outside_is_discovered_yet_named_nowhere_in_the_daemon(coin_registered):
    from forumgm.daemon.settings.games import game_types, shipped_rules

    assert "coin" in game_types() and shipped_rules("coin").title == "Монетка"
    assert (GAMES_FOLDER / "coin_game" / "__init__.py").is_file()
    files = [path for path in DAEMON.rglob("*") if path.suffix in (".py", ".html", ".j2", ".toml")]
    assert DAEMON / "web" / "templates" / "game.html" in files
    named = {str(path.relative_to(DAEMON)): word for path in files for word in OUTSIDE_NAMES
             if word in path.read_text(encoding="utf-8").lower()}
    assert named == {}


def test_forumgms_own_install_does_not_list_the_outside_game():
    from forumgm.daemon.settings.games import game_types

    assert "coin" not in game_types()
