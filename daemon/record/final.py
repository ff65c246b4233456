"""The game's last post: at its end (by its rules or by the host) forumgm drafts the record post,
which reveals the seed and the salt, sums up the archive (the roles, each phase's actions and votes)
and carries the archive as a file: attached where the board takes attachments from the account, as
Bellum's map is, else linked at the host page's public address (daemon/drafts/pictures.py)."""
from __future__ import annotations

import hashlib
from typing import Any, Mapping

from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.drafts.pictures import ARCHIVE_MARK, save_pictures
from forumgm.daemon.record.archive import archive_text, build_archive
from forumgm.daemon.store import Store

KIND = "game_record"
TEMPLATE = "common/game_record.j2"
FOLDER = "record"       # the archive's folder among the game's pictures


def draft_record(game: Any, store: Store) -> int:
    """Inside the transaction that finished the game: the archive saved beside the store and the
    record post drafted with it (one per archive: a game reopened and ended again gets a new one)."""
    archive = build_archive(game, store)
    text = archive_text(archive)
    paths = save_pictures(store.path, game.id, FOLDER, {f"{game.id}.json": text.encode("utf-8")})
    body = game.texts.render(TEMPLATE, mark=ARCHIVE_MARK, **record_summary(archive))
    ref = f"{KIND}:{hashlib.sha256(text.encode('utf-8')).hexdigest()[:16]}"
    return draft(store, game.id, KIND, "thread", body, approval=game.config.approval, ref=ref, pictures=paths)


def record_summary(archive: Mapping[str, Any]) -> dict:
    """What the record post tells of the archive: the template's context."""
    phases = []
    for phase in archive["phases"]:
        if phase["outcome"] is None:
            continue
        actions = {}
        for order in phase["inputs"]["orders"]:
            lines = [v["canonical"] for v in order["verdicts"] if v["ok"]]
            if lines:
                actions.setdefault(order["seat"], []).extend(lines)
        votes = phase["inputs"]["votes"]
        if votes is not None:       # a PM's vote has no link: only a thread post's
            votes = {part: [{**v, "link": v.get("post_url")} for v in votes[part]] for part in ("counted", "not_counted")}
        phases.append({"name": phase["name"], "actions": list(actions.items()), "votes": votes,
                       "eliminated": phase["outcome"]["eliminated"]})
    return {"game": archive["game"]["id"], "winner": archive["game"]["winner"],
            "roles": list((archive["deal"] or {}).get("roles", {}).items()), "phases": phases,
            "seed": archive["seed"], "salt": archive["salt"],
            "digest": archive["commitments"][0]["digest"] if archive["commitments"] else None,
            "later": [c["digest"] for c in archive["commitments"][1:]]}
