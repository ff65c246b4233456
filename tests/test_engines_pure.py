"""Engines are pure: the same state, inputs and seed give the same result. So no engine module
reads or writes a file, reads the clock or the environment, draws from the global random
generator or imports the config and daemon layers (which do all of that at the edge); what an
engine needs from a file reaches it already read (engines/base.py `SetupFile`, the rule tables,
the templates of `Texts`). Seeded randomness is `random.Random(seed)` (engines/base.py `PhaseRng`)."""
from __future__ import annotations

import ast
from pathlib import Path

import forumgm.engines

ENGINES = Path(forumgm.engines.__file__).parent

# Modules whose use is I/O, the clock, the environment or unseeded randomness.
IMPURE_MODULES = {"os", "sys", "io.open", "pathlib", "shutil", "glob", "tempfile", "subprocess", "socket",
                  "time", "importlib", "requests", "urllib", "http", "sqlite3", "secrets", "uuid", "logging",
                  "forumgm.config", "forumgm.daemon"}
# Calls that read or write a file, the terminal or the clock, whatever they are called on.
IMPURE_CALLS = {"open", "Path", "read_text", "read_bytes", "write_text", "write_bytes", "print", "input",
                "now", "utcnow", "today", "getenv", "urandom", "load"}
# The module-level functions of `random` share one generator seeded by the OS; only an instance
# made from a seed is deterministic.
SEEDED_RANDOM = "Random"
FILE_SAVES = {"save", "savefig"}


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return f"{_dotted(node.func)}(…)"
    return ""


def _impure_module(name: str) -> bool:
    return any(name == module or name.startswith(module + ".") for module in IMPURE_MODULES)


def _call_problem(node: ast.Call) -> str | None:
    name = _dotted(node.func)
    last = name.rpartition(".")[2]
    if last in IMPURE_CALLS and not (last == "load" and name != "tomllib.load"):
        return f"calls {name}()"
    if name.startswith("random.") and (last != SEEDED_RANDOM or not node.args):
        return f"calls {name}() (the global or an unseeded generator; use a seeded random.Random)"
    if last in FILE_SAVES and node.args and isinstance(node.args[0], (ast.Constant, ast.JoinedStr)):
        return f"calls {name}() into a file"
    return None


def impurities(source: str) -> list[str]:
    """'line N: what' of every import or call in `source` that is not pure."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [f"line {node.lineno}: imports {alias.name}" for alias in node.names if _impure_module(alias.name)]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
            if node.module == "random":
                names = [name for name in names if name != f"random.{SEEDED_RANDOM}"]
                found += [f"line {node.lineno}: imports {name}" for name in names]
            else:
                found += [f"line {node.lineno}: imports {name}" for name in names if _impure_module(name)]
        elif isinstance(node, ast.Call) and (problem := _call_problem(node)):
            found.append(f"line {node.lineno}: {problem}")
    return found


def test_the_check_sees_what_it_looks_for():
    assert impurities('with open(path, "rb") as f:\n    pass') == ["line 1: calls open()"]
    assert impurities("text = Path(name).read_text()") == ["line 1: calls Path(…).read_text()", "line 1: calls Path()"]
    assert impurities("data = tomllib.load(handle)") == ["line 1: calls tomllib.load()"]
    assert impurities("data = tomllib.loads(text)\nstate = json.loads(text)") == []
    assert impurities("from pathlib import Path") == ["line 1: imports pathlib.Path"]
    assert impurities("def f():\n    from forumgm.config import data_path") == ["line 2: imports forumgm.config.data_path"]
    assert impurities("import forumgm.daemon.store") == ["line 1: imports forumgm.daemon.store"]
    assert impurities("from importlib import resources") == ["line 1: imports importlib.resources"]
    assert impurities("import os\nimport time") == ["line 1: imports os", "line 2: imports time"]
    assert impurities("at = datetime.now(timezone.utc)") == ["line 1: calls datetime.now()"]
    assert impurities("day = date.today()") == ["line 1: calls date.today()"]
    assert impurities("roll = random.randint(1, 6)") == [
        "line 1: calls random.randint() (the global or an unseeded generator; use a seeded random.Random)"]
    assert impurities("rng = random.Random()") == [
        "line 1: calls random.Random() (the global or an unseeded generator; use a seeded random.Random)"]
    assert impurities("from random import shuffle, Random") == ["line 1: imports random.shuffle"]
    assert impurities('figure.savefig("map.png")') == ["line 1: calls figure.savefig() into a file"]
    # what engines legitimately do: seeded generators, in-memory pictures, times handed in
    assert impurities("rng = random.Random(int.from_bytes(digest[:16], 'big'))\n"
                      "from random import Random\nstream = Random(seed)") == []
    assert impurities("buffer = io.BytesIO()\nfigure.savefig(buffer, format='png')\nimage.save(buffer, 'PNG')") == []
    assert impurities("from datetime import datetime, timedelta\nlate = pm.at > deadline + timedelta(hours=1)") == []


def test_no_engine_module_does_io_reads_the_clock_or_draws_unseeded_random_numbers():
    modules = sorted(ENGINES.rglob("*.py"))
    assert ENGINES / "bellum" / "setup.py" in modules and ENGINES / "base.py" in modules   # subpackages too
    found = {str(path.relative_to(ENGINES)): problems for path in modules
             if (problems := impurities(path.read_text(encoding="utf-8")))}
    assert found == {}
