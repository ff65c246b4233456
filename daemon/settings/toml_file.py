"""Reading a TOML file a host wrote, or saying why not: the file, where in it, and what is wrong.

The installation and game configs (installation.py, game.py), the files a game's setup names (setup_files.py)
and `forumgm simulate`'s scenarios (simulate.py) all read TOML here, so a host gets one wording
whichever file it was:
    games/mafia.toml: line 12, column 9: not valid TOML: invalid value
    games/mafia.toml: line 3, column 1: not UTF-8 text (save the file as UTF-8)
    games/mafia.toml: (file): cannot read it: No such file or directory
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

WHOLE_FILE = "(file)"            # where a problem of the whole file is, in place of a line
# tomllib names the place only inside its message (its error has no line attribute before 3.14)
AT = re.compile(r"(?P<what>.*) \(at (?:line (?P<line>\d+), column (?P<column>\d+)|(?P<end>end of document))\)",
                re.S)


class TomlFileError(ValueError):
    """`path`, `where` in it ("line 3, column 7", "end of file" or WHOLE_FILE) and `what` is wrong;
    str() is "path: where: what"."""

    def __init__(self, path: str | Path, where: str, what: str) -> None:
        super().__init__(f"{path}: {where}: {what}")
        self.path = str(path)
        self.where = where
        self.what = what

    @property
    def problem(self) -> str:
        """Where and what, for a message that names the file already."""
        return f"{self.where}: {self.what}"


def read_toml(path: str | Path) -> dict[str, Any]:
    """The parsed file; TomlFileError when it cannot be read, is not UTF-8 or is not valid TOML."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise TomlFileError(path, WHOLE_FILE, f"cannot read it: {error.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:      # a config saved as cp1251 is a Russian host's likely slip
        raise TomlFileError(path, _position(data[:error.start]), "not UTF-8 text (save the file as UTF-8)") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = AT.fullmatch(str(error))
        if found is None:
            raise TomlFileError(path, WHOLE_FILE, f"not valid TOML: {_lower_first(str(error))}") from None
        where = "end of file" if found["end"] else f"line {found['line']}, column {found['column']}"
        raise TomlFileError(path, where, f"not valid TOML: {_lower_first(found['what'])}") from None


def _position(before: bytes) -> str:
    """The line and column of the byte after `before`, counted as an editor counts them."""
    line = before.count(b"\n") + 1
    column = len(before.rpartition(b"\n")[2].decode("utf-8", errors="replace")) + 1
    return f"line {line}, column {column}"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]
