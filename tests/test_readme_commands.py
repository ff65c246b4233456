"""The README's set-up for a fresh machine: two commands, the tests' one runnable on a fresh Debian
image (package lists first) and the very one CI runs; `forumgm --version`."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from forumgm.daemon.cli import main

ROOT = Path(__file__).resolve().parent.parent


def fresh_machine_section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split("## On a fresh machine", 1)[1].split("\n## ", 1)[0]


def fresh_machine_commands() -> list[str]:
    return [line.strip() for line in fresh_machine_section().splitlines() if line.startswith("    ")]


def test_the_readme_has_two_commands_and_ci_runs_the_test_one():
    demo, tests = fresh_machine_commands()
    assert demo.endswith("pip install . && forumgm demo")
    steps = tests.split(" && ")
    # lists first on a fresh image; Chromium for the host page's tests, and no C compiler
    assert steps[:2] == ["apt-get update", "apt-get install -y chromium-headless-shell"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    run_line = ci.strip().splitlines()[-1]
    # CI makes its venv elsewhere and installs what is missing itself; the rest is the README's command
    assert tests.endswith(" && " + run_line) and "apt-get update" in ci
    assert "chromium-headless-shell" in ci and not any(package in ci for package in ("gcc", "python3-dev", "Cython"))
    assert "needs root" in fresh_machine_section()


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert re.fullmatch(r"forumgm \d+\.\d+\.\d+\n", capsys.readouterr().out)
