"""The store is the one place SQL is written: no daemon module outside daemon/store/ reaches the
connection (`.db`), runs a statement (execute, executemany, executescript, query) or imports the SQLite
libraries for more than catching their errors."""
from __future__ import annotations

import ast
from pathlib import Path

import forumgm.daemon

DAEMON = Path(forumgm.daemon.__file__).parent
STATEMENT_CALLS = {"execute", "executemany", "executescript", "query"}


def sql_reaches(source: str) -> list[str]:
    """Where a module's code touches SQLite itself: `.db`, a statement call, a private store method,
    `sqlite_utils`, or anything of `sqlite3` but its exception classes."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and (node.attr == "db" or node.attr in {"_rows", "_one", "_insert"}):
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in STATEMENT_CALLS:
            found.append(f"line {node.lineno}: .{node.func.attr}()")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [f"line {node.lineno}: imports {name}" for name in names if name.split(".")[0] == "sqlite_utils"]
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "sqlite3"
              and not node.attr.endswith("Error")):
            found.append(f"line {node.lineno}: sqlite3.{node.attr}")
    return found


def test_the_check_sees_sql():
    assert sql_reaches("store.db.execute('DELETE FROM drafts')") == [
        "line 1: .execute()", "line 1: .db"]
    assert sql_reaches("rows = store._rows('SELECT 1')") == ["line 1: ._rows"]
    assert sql_reaches("import sqlite_utils") == ["line 1: imports sqlite_utils"]
    assert sql_reaches("conn = sqlite3.connect(path)") == ["line 1: sqlite3.connect"]
    assert sql_reaches("try:\n    x()\nexcept sqlite3.Error:\n    pass") == []
    assert sql_reaches("store.drafts(status='pending')") == []


def test_no_daemon_module_outside_the_store_writes_sql():
    modules = [path for path in sorted(DAEMON.rglob("*.py")) if "store" not in path.relative_to(DAEMON).parts[:1]]
    assert DAEMON / "tick" / "flow.py" in modules and DAEMON / "store" / "drafts.py" not in modules
    found = {str(path.relative_to(DAEMON)): problems for path in modules
             if (problems := sql_reaches(path.read_text(encoding="utf-8")))}
    assert found == {}
