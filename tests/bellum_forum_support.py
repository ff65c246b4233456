"""A Bellum game on the local forum hosted by the daemon over real HTTP (tests/test_e2e_bellum.py,
tests/test_bellum_map_paths.py): the installation written into a folder, the board, the players."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

from e2e_support import PASSWORD_ENV, LocalGame, write_installation
from localforum_support import msk
from tests.bellum_helpers import SMALL_MAP

GAME = "bellum-e2e"
PUBLIC_URL = "https://gm.example.org/forumgm/"
FACTIONS = {"Аскон": "Западная Римская Империя", "Хан": "Вестготы", "Зорро": "Гунны"}


def bellum_installation(folder, forum_url: str) -> Path:
    players = "".join(f'[[players]]\nnick = "{nick}"\nrole = "{faction}"\n\n' for nick, faction in FACTIONS.items())
    web = f'''
[web]
password_env = "{PASSWORD_ENV}"
public_url = "{PUBLIC_URL}"
'''
    return write_installation(folder, forum_url, "bellum.toml", f'''id = "{GAME}"
type = "bellum"
thread_url = "{forum_url}viewtopic.php?t=2"
seed = 370
time_zone = "Europe/Moscow"
start = 2026-03-02T12:00:00

{players}[calendar.turn]
duration = "3d"

[approval]
receipt = false

[setup]
scenario = "{SMALL_MAP}"
rolls = 1.0
''', more=web)


class Table(LocalGame):
    def __init__(self, folder, monkeypatch):
        super().__init__(folder, monkeypatch, FACTIONS, ("Bellum 2.0: 370 год", "Ход 1 начинается. Приказы — в личку."),
                         msk(2, 11), lambda url: bellum_installation(folder, url))

    def send(self, moment: datetime, nick: str, text: str) -> None:
        self.pm(moment, nick, "Приказ", text)
