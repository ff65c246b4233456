"""The shipped data: example configs, rule tables, report templates, the Bellum scenario.

Only loaders live here; the data are the files beside this module.
"""
from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path

from forumgm.engines.texts import Texts

TEMPLATE_SUFFIX = ".j2"


def data_path(*parts: str) -> Path:
    """A path inside the installed config/ folder."""
    return Path(str(resources.files(__package__).joinpath(*parts)))


def read_templates(folder: Path) -> dict[str, str]:
    """Every template under `folder`, keyed by its relative path with '/' separators."""
    return {
        path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(folder.rglob("*" + TEMPLATE_SUFFIX))
    }


# A templates folder's table of names the texts write as the host says («Мастер Йода» → «Мастера Йоды»).
DECLENSION_FILE = "declension.toml"
OBLIQUE_CASES = ("родительный", "дательный", "винительный", "творительный", "предложный")


def load_texts(override: Path | None = None, games: tuple[Path, ...] = ()) -> Texts:
    """The shipped templates and those of `games` (folders of games not shipped here, whose templates
    are named like the shipped ones: <game>/<name>.j2), with the host's own folder (same relative
    names) taking precedence; the same for each folder's declension table, name by name and case
    by case."""
    folders = (data_path("templates"), *games, *((override,) if override is not None else ()))
    sources: dict[str, str] = {}
    forms: dict[str, dict[str, str]] = {}
    for folder in folders:
        sources.update(read_templates(folder))
        for nick, cases in read_declension(folder / DECLENSION_FILE).items():
            forms.setdefault(nick, {}).update(cases)
    return Texts(sources, forms)


def read_declension(path: Path) -> dict[str, dict[str, str]]:
    """A declension table: `"nick" = [five forms]`, родительный, дательный, винительный, творительный,
    предложный in that order ("" keeps forumgm's own form); none when the file is not there.
    ValueError naming the file and the nick for anything else."""
    if not path.is_file():
        return {}
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: not a valid TOML file: {error}") from None
    out = {}
    for nick, forms in table.items():
        if not (isinstance(forms, list) and len(forms) == len(OBLIQUE_CASES) and all(isinstance(f, str) for f in forms)):
            raise ValueError(f"{path}: {nick}: expected five forms, {', '.join(OBLIQUE_CASES)} "
                             f"(\"\" keeps forumgm's own), got {forms!r}")
        out[nick] = {case: form.strip() for case, form in zip(OBLIQUE_CASES, forms) if form.strip()}
    return out


# The keys read_rule_table adds beside a game's rules: what its maps are drawn with, no rule.
MAP_DATA = ("geography", "fonts")


def rules_only(table: dict) -> dict:
    """A rule table without the map data read in beside it (what the rules freeze compares)."""
    return {key: value for key, value in table.items() if key not in MAP_DATA}


def read_rule_table(game: str, folder: Path | None = None) -> dict:
    """The parsed config/<game>/rules.toml shipped with the package, or the rules.toml in a game's
    own `folder` (validated by the engine).

    A game whose numbers fill several tables lists them in `tables = ["weapons", …]`: each
    names a file beside rules.toml (weapons.toml) read in under that key. What a game's maps are
    drawn with lies beside rules.toml too: real geography as geography/NAME.json, read in under
    `geography` as {NAME: the parsed file}, and letters as fonts/NAME.ttf, under `fonts` as
    {NAME: the file's bytes}.
    """
    folder = folder or data_path(game)
    path = folder / "rules.toml"
    if not path.is_file():
        return {}
    with path.open("rb") as handle:
        table = tomllib.load(handle)
    for name in table.get("tables", []):
        with (folder / f"{name}.toml").open("rb") as handle:
            table[name] = tomllib.load(handle)
    geography = data_path(game, "geography")
    if geography.is_dir():
        table["geography"] = {path.stem: json.loads(path.read_text(encoding="utf-8"))
                              for path in sorted(geography.glob("*.json"))}
    fonts = data_path(game, "fonts")
    if fonts.is_dir():
        table["fonts"] = {path.stem: path.read_bytes() for path in sorted(fonts.glob("*.ttf"))}
    return table
