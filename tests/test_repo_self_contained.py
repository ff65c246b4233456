"""A host has only the repository: nothing in it points at files outside it, and docs/ carries the
rules of each playable game as forumgm applies them."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {"__pycache__", "build", "dist"}      # and every hidden folder but .ci (.git, .venv, caches)
TEXT = {".py", ".md", ".toml", ".j2", ".html", ".txt", ".cfg", ".service", ""}
OUTSIDE = re.compile(r"shared/|\.\./shared|\bspec/|\bseeds/|/work/")


def repository_texts():
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        generated = set(parts) & SKIPPED or any(p.endswith(".egg-info") or p.startswith(".") and p != ".ci"
                                                for p in parts)
        if path.is_file() and not generated and path.suffix in TEXT and path != Path(__file__).resolve():
            yield path


def test_nothing_points_outside_the_repository():
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in repository_texts()
             for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
             if OUTSIDE.search(line)]
    assert found == []


def test_the_docs_carry_each_games_rules_and_decisions():
    legends = (ROOT / "docs" / "legends.md").read_text(encoding="utf-8")
    for fact in ("| Воин | 15 | 10 | 1 | 10 | 15 | 1 |", "Благословение", "strictly\n  greater",
                 "day 1 has no lynch", "Immunity", "Continuous regime", "Night 1** refuses"):
        assert fact in legends, fact
    mafia = (ROOT / "docs" / "mafia.md").read_text(encoding="utf-8")
    for fact in ("max(1, N // 4 − 1) Мафиози", "**by PM**", "never a blue nick in the\nthread",
                 "more than half of the\n   votes cast", "Armour", "Win conditions", "Thread discipline"):
        assert fact in mafia, fact
