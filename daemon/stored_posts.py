"""The game thread as the store saw it last: each post not deleted, in its latest version."""
from __future__ import annotations

from forumgm.parsers.forums.base import Post


def stored_posts(store, game_id: str) -> list[Post]:
    """Posts in the order they were first seen (page order), as parser Posts with their last text."""
    latest = {row["post_id"]: row for row in store.post_versions(game_id)}
    return [Post(id=row["post_id"], author=row["author"], author_id=row["author_id"], posted_at=row["posted_at"],
                 text=latest[row["post_id"]]["text"], text_unquoted=latest[row["post_id"]]["text_unquoted"],
                 page=row["page_no"])
            for row in store.posts(game_id) if not row["deleted_at"] and row["post_id"] in latest]

