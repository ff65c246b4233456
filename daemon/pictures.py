"""Pictures an engine draws of a resolved phase (Bellum's turn map).

`Rules.images(state)` (optional) returns named pictures ("map.png": bytes, …). The daemon keeps
them beside its store (pictures/<game>/<phase>/<digest>/<name>) and lists their files in one "map"
draft of the phase; the folder is named by the pictures' content, so a re-run of the phase (or its
preview) never overwrites a map already shown, and a changed map is a changed draft; the host's page shows every phase's pictures. When the host approves the draft,
the thread gets the pictures the way forums show them: `[img]` links to the page's public
address ([web] public_url), which serves a picture once its draft is approved. SVG pictures are
linked (forums do not show SVG), PNG and JPEG ones shown.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Mapping

MAP_KIND = "map"
SHOWN = (".png", ".jpg", ".jpeg")
RELEASED = ("approved", "sending", "sent")
NO_PUBLIC_URL = ("no [web] public_url in the config: the forum can show the map only from the page's public "
                 "address (set it, or post the picture yourself and reject this draft)")


def save_pictures(store_path: Path, game_id: str, phase_key: str, pictures: Mapping[str, bytes]) -> list[Path]:
    digest = hashlib.sha256()
    for name, data in sorted(pictures.items()):
        digest.update(f"{len(name)}:{name}:{len(data)}:".encode("utf-8"))
        digest.update(data)
    folder = store_path.parent / "pictures" / game_id / phase_key / digest.hexdigest()[:16]
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, data in sorted(pictures.items()):
        path = folder / Path(name).name          # a name, never a path out of the folder
        path.write_bytes(data)
        paths.append(path)
    return paths


def public_picture_url(web_url: str, game_id: str, draft_id: int, index: int) -> str:
    return f"{web_url.rstrip('/')}/maps/{game_id}/{draft_id}/{index}"


def forum_text(draft: dict, web_url: str | None) -> str | None:
    """The thread text of a map draft, or None when there is no public address to link."""
    if web_url is None:
        return None
    lines = []
    for index, line in enumerate(draft["body"].splitlines()):
        path = Path(line.strip())
        if not line.strip():
            continue
        url = public_picture_url(web_url, draft["game_id"], draft["id"], index)
        if path.suffix.lower() in SHOWN:
            lines.append(f"[img]{url}[/img]")
        else:
            lines.append(f"[url={url}]{path.suffix.lstrip('.').upper()}[/url]")
    return "\n".join(lines)
