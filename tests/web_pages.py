"""Every page of the host's web page for one played game, as a browser shows it (shared by the
browser tests of the page): the games played through the local forum over HTTP, the page served
on the daemon's installation, and the checks each page must pass at every width.

`FORUMGM_SCREENSHOTS=docs/host-page` keeps the screenshots docs/host-page.md shows (SHIPPED) there, at
each width.
"""
from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass
from pathlib import Path

from bs4 import BeautifulSoup
from PIL import Image

from forumgm.daemon.settings.games import game_title

WIDTHS = (1280, 390)
PHONE = 390
TOUCH_TARGET = 44           # px: the least a finger hits reliably
SCREENSHOT_COLOURS = 48
# the screenshots docs/host-page.md shows: every page once (from the Mafia game), each game's own page
SHIPPED = frozenset({f"mafia-{name}" for name in ("login", "home", "game", "drafts", "preview", "rerun", "missing", "role")}
                    | {f"{kind}-game" for kind in ("legends", "bellum", "arena")})
# where a Latin word may stand on a Russian page: code and raw records, the text a draft is edited
# in, and names marked as not to be translated (the program's name, console accounts)
VERBATIM = "code, pre, textarea, script, style, [translate=no], .preview .codebox"   # phpBB's code box, its chrome too
# names a Russian text writes in Latin letters: the program's, the hash standard of the seed's commitment
NAMES = frozenset({"forumgm", "SHA"})
# a word of two letters or more: a single letter is a game's notation (Arena's cards X, L, W)
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]")


@dataclass(frozen=True)
class Shown:
    """One page as the browser rendered it at one width."""

    name: str
    width: int
    html: str
    scroll_width: int
    small_targets: tuple[str, ...]      # buttons lower than a finger needs (measured on the phone)
    table_rows: tuple[str, ...] = ()    # how each table's rows display on the phone ("block": cards)


def names_of(store, game_id: str) -> set[str]:
    """What a page may show in Latin letters besides its verbatim parts: the game's id and title (a
    name: «Bellum 2.0»), its forum's id, the nicks of its seats and the accounts holding them."""
    game = store.game(game_id)
    title = game_title(game["type"])
    names = {game_id, title, *title.split(), game["forum_id"]}
    names |= {row["nick"] for row in store.players(game_id)}
    names |= {row["new_nick"] for row in store.replacements(game_id)}
    return {name for name in names if name} | NAMES


def latin_words(html: str, allowed: set[str]) -> list[str]:
    """The Latin words of a page's visible text outside its verbatim parts and the allowed names."""
    soup = BeautifulSoup(html, "html.parser")
    for element in soup.select(VERBATIM):
        element.decompose()
    body = soup.body or soup
    text = body.get_text(" ")
    for name in sorted(allowed, key=len, reverse=True):
        text = text.replace(name, " ")
    return LATIN_WORD.findall(text)


def show(page, name: str, width: int, screenshots: Path | None) -> Shown:
    """The page now loaded, measured (and kept as a screenshot when asked)."""
    page.wait_for_load_state("load")
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    small, rows = (), ()
    if width == PHONE:
        # a card is a row shown as a block, its header row hidden, each cell named by its column
        rows = tuple(page.evaluate("""() => [...document.querySelectorAll('main table tr')]
            .map(tr => tr.querySelector('th') ? (tr.offsetParent === null ? 'hidden' : 'header shown')
                 : getComputedStyle(tr).display)"""))
        small = tuple(page.evaluate("""(least) => [...document.querySelectorAll('button, a.button')]
            .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < least)
            .map(e => `${e.textContent.trim()} (${e.getBoundingClientRect().height}px)`)""", TOUCH_TARGET))
    if screenshots is not None and name in SHIPPED:
        keep_screenshot(page.screenshot(), screenshots / f"{name}-{width}.png")
    return Shown(name, width, page.content(), scroll_width, small, rows)


def keep_screenshot(png: bytes, path: Path) -> None:
    """The screenshot in few colours: a page of text and flat boxes reads the same at a fraction of the size."""
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.open(io.BytesIO(png)).convert("RGB").quantize(SCREENSHOT_COLOURS).save(path, optimize=True)


def screenshot_folder() -> Path | None:
    folder = os.environ.get("FORUMGM_SCREENSHOTS")
    return Path(folder) if folder else None
