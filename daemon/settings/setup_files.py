"""The files a game's [setup] names, read here at the edge so that engines never open a file.

The engine declares which setup keys may name a TOML file (`Rules.setup_files`, none by default:
engines/base.py); `with_setup_files` replaces each such text value with a `SetupFile` holding the
parsed file, or the reason it could not be read, which the engine reports under its key.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from forumgm.config import data_path
from forumgm.daemon.settings.toml_file import TomlFileError, read_toml
from forumgm.engines.base import Rules, SetupFile


def with_setup_files(rules: Rules, setup: Mapping[str, Any], base: Path | None = None) -> dict:
    """`setup` with the files it names read; a relative path is read from `base` (the folder of
    the file that names it; None: the current folder)."""
    out = dict(setup)
    for key, shipped in rules.setup_files.items():
        value = out.get(key)
        if isinstance(value, str) and value:
            out[key] = read_setup_file(setup_file_path(rules.name, shipped, value, base))
    return out


def game_setup(rules: Any, game: Any) -> dict:
    """What `Rules.setup` receives for a configured game: its setup table with the files it names
    read, paths relative to the game file."""
    return with_setup_files(rules, game.setup_table(), Path(game.source).parent)


def setup_file_path(game_type: str, shipped: str | None, value: str, base: Path | None = None) -> Path:
    """Where a setup value's file is: a shipped one by bare name, else the path as written."""
    if shipped is not None and "/" not in value and not value.endswith(".toml"):
        return data_path(game_type, shipped, f"{value}.toml")
    path = Path(value)
    return base / path if base is not None and not path.is_absolute() else path


def read_setup_file(path: Path) -> SetupFile:
    """The parsed TOML file, or where in it and why it could not be read."""
    try:
        return SetupFile(str(path), read_toml(path))
    except TomlFileError as error:
        return SetupFile(str(path), problem=error.problem)
