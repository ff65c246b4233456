"""Maps an engine draws of a resolved phase (Bellum's turn map), carried by the phase's report.

A game whose engine draws maps (`Rules.maps`, optional: engines.base.Maps) gets its new position
drawn in every format the engine offers ("map.png", "map.svg"). The daemon keeps the pictures
beside its store (pictures/<game>/<phase>/<digest>/<name>); the folder is named by the pictures'
content, so a re-run of the phase (or its preview) never overwrites a map already shown. The
phase's first report draft carries them (its `pictures`), and its text holds MARK where they go:
the host may move the mark, or delete it to post the report without them.

In the thread the mark becomes the pictures the way forums show them: the PNG as an attachment
of the post placed inline where the board takes attachments (publish.py), else as `[img]` of
the page's public address ([web] public_url), which serves a picture once its draft is approved;
with that address an SVG is linked too (forums do not show SVG).

The game's record post carries its archive (a JSON file) the same way, at its own mark ARCHIVE_MARK:
attached where the board takes files, else linked at the public address.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Mapping, Sequence

from forumgm.engines.base import Maps

MARK = "[карта]"
ARCHIVE_MARK = "[архив]"
SHOWN = (".png", ".jpg", ".jpeg")
ARCHIVE = ".json"       # the game's archive (daemon/record/final.py)
RELEASED = ("approved", "sending", "sent")
NO_PUBLIC_URL = ("no [web] public_url in the config and the forum takes no attachment from this account: the forum "
                 "can show the map only from the page's public address (set it, or delete the mark "
                 f"{MARK} to post the report without the map)")
NO_ARCHIVE_URL = ("no [web] public_url in the config and the forum takes no attachment from this account: the "
                  "game's archive can reach the players only from the page's public address (set it, or delete "
                  f"the mark {ARCHIVE_MARK} to post the record without its file and give the players the file "
                  "`forumgm export` writes)")


def drawn_maps(maps: Maps, state: Any) -> dict[str, bytes]:
    """The map of the position in each format its engine draws, named as the report carries it."""
    return {f"map.{fmt}": maps.draw(state, fmt).data for fmt in maps.formats}


def game_folder(store_path: Path, game_id: str) -> Path:
    """Where the daemon keeps one game's pictures."""
    return store_path.parent / "pictures" / game_id


def in_game_folder(store_path: Path, game_id: str, path: Path) -> bool:
    """Whether `path`, links followed, is a file inside the game's own pictures folder: the page
    serves nothing else, whatever a draft's list says (another game's map, the store itself)."""
    pictures = (store_path.parent / "pictures").resolve()
    folder = game_folder(store_path, game_id).resolve()
    # a game id such as ".." would make the "game folder" the pictures root or above it
    return folder.parent == pictures and path.resolve().is_relative_to(folder) and path.is_file()


def save_pictures(store_path: Path, game_id: str, phase_key: str, pictures: Mapping[str, bytes]) -> list[Path]:
    digest = hashlib.sha256()
    for name, data in sorted(pictures.items()):
        digest.update(f"{len(name)}:{name}:{len(data)}:".encode("utf-8"))
        digest.update(data)
    folder = game_folder(store_path, game_id) / phase_key / digest.hexdigest()[:16]
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, data in sorted(pictures.items()):
        path = folder / Path(name).name          # a name, never a path out of the folder
        path.write_bytes(data)
        paths.append(path)
    return paths


def with_mark(body: str) -> str:
    """A report's text with the mark of its pictures after it."""
    return f"{body.rstrip()}\n\n{MARK}\n"


def shown_picture(pictures: Sequence[str]) -> tuple[int, Path] | None:
    """The file a forum takes with the post (the first PNG or JPEG, else the archive) and its index
    among the draft's."""
    for kinds in (SHOWN, (ARCHIVE,)):
        found = next(((index, Path(path)) for index, path in enumerate(pictures) if Path(path).suffix.lower() in kinds),
                     None)
        if found is not None:
            return found
    return None


def mark_of(pictures: Sequence[str]) -> str:
    """Where in its text a draft's files go: the archive's mark for the record post, else the map's."""
    found = shown_picture(pictures)
    return ARCHIVE_MARK if found is not None and found[1].suffix.lower() == ARCHIVE else MARK


def no_public_url(pictures: Sequence[str]) -> str:
    """Why a draft's files cannot reach the thread without an attachment or the public address."""
    return NO_ARCHIVE_URL if mark_of(pictures) == ARCHIVE_MARK else NO_PUBLIC_URL


def public_picture_url(web_url: str, game_id: str, draft_id: int, index: int) -> str:
    return f"{web_url.rstrip('/')}/maps/{game_id}/{draft_id}/{index}"


def picture_links(draft: dict, web_url: str | None, shown: str | None = None) -> str | None:
    """What the mark becomes: `shown` (the board's own inline attachment) or `[img]` of the public
    address for the shown picture, then a link to each other picture when there is an address;
    None when the shown picture has neither."""
    pictures = draft["pictures"] or []
    found = shown_picture(pictures)
    parts = []
    for index, path in enumerate(pictures):
        if found is not None and index == found[0]:
            if shown is None and web_url is None:
                return None
            url = None if shown is not None else public_picture_url(web_url, draft["game_id"], draft["id"], index)
            parts.append(shown if url is None else f"[img]{url}[/img]" if path_shown(path)
                         else f"[url={url}]{Path(path).name}[/url]")
        elif web_url is not None:
            url = public_picture_url(web_url, draft["game_id"], draft["id"], index)
            parts.append(f"[url={url}]{Path(path).suffix.lstrip('.').upper()}[/url]")
    return "\n".join(parts)


def path_shown(path: str | Path) -> bool:
    return Path(path).suffix.lower() in SHOWN


def forum_text(draft: dict, web_url: str | None, shown: str | None = None) -> str | None:
    """The thread text of a draft: its body with the mark replaced by its pictures (None: they
    cannot be shown). A body without the mark goes as it is."""
    mark = mark_of(draft["pictures"] or [])
    if not draft["pictures"] or mark not in draft["body"]:
        return draft["body"]
    links = picture_links(draft, web_url, shown)
    return None if links is None else draft["body"].replace(mark, links)
