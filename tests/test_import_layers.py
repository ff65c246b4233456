"""daemon/ is laid out by the data flow (README, "Layout"): each package says what lives there, imports
point one way (the import-linter contracts in pyproject.toml hold), and the checker does see a wrong
arrow when one is there."""
from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import forumgm.daemon

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--no-logo", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_every_contract_in_pyproject_is_kept():
    done = lint_imports()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "BROKEN" not in done.stdout and "Contracts: 2 kept, 0 broken." in done.stdout


def test_a_wrong_arrow_breaks_the_layers(tmp_path):
    # The same layers with the tick put above the host's actions: rerun's import of the tick's
    # resolution now points up, and the checker must say so (a checker that saw no imports passes all).
    table = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers_contract = next(c for c in table["contracts"] if c["type"] == "layers")
    layers = list(layers_contract["layers"])
    host, tick = layers.index("host_actions | notify"), layers.index("tick")
    layers[host], layers[tick] = layers[tick], layers[host]
    config = tmp_path / "wrong.toml"
    config.write_text("[tool.importlinter]\n"
                      f"root_packages = {table['root_packages']!r}\n"
                      "[[tool.importlinter.contracts]]\n"
                      'name = "the tick above the host actions"\n'
                      'type = "layers"\n'
                      f"containers = {layers_contract['containers']!r}\n"
                      f"layers = {layers!r}\n".replace("'", '"'), encoding="utf-8")
    done = lint_imports(str(config))
    assert done.returncode == 1
    assert "forumgm.daemon.host_actions.rerun -> forumgm.daemon.tick.flow" in done.stdout


def test_every_daemon_package_opens_with_what_lives_there():
    packages = sorted(Path(forumgm.daemon.__file__).parent.rglob("__init__.py"))
    assert len(packages) >= 14
    silent = [str(path) for path in packages if not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))]
    assert silent == []
