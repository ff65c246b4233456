"""The game thread as the store saw it last: each post not deleted, in its latest version."""
from __future__ import annotations

from datetime import datetime, timedelta

from forumgm.parsers.forums.base import Post

# a post's versions are seen after it was written, give or take how far the board's clock runs
# ahead of forumgm's: a version seen this long before a moment may still belong after it
CLOCK_SKEW = timedelta(days=1)


def stored_posts(store, game_id: str, posted_since: datetime | None = None) -> list[Post]:
    """Posts in the order they were first seen (page order), as parser Posts with their last text;
    only those written at or after `posted_since` if given (a day's digest need not read the thread)."""
    rows = store.posts(game_id, posted_since)
    if posted_since is None:
        latest = {row["post_id"]: row for row in store.post_versions(game_id)}
    else:
        latest = {row["post_id"]: row for row in store.recent_post_versions(game_id, posted_since - CLOCK_SKEW)}
    return [Post(id=row["post_id"], author=row["author"], author_id=row["author_id"], posted_at=row["posted_at"],
                 text=latest[row["post_id"]]["text"], text_unquoted=latest[row["post_id"]]["text_unquoted"],
                 page=row["page_no"])
            for row in rows if not row["deleted_at"] and row["post_id"] in latest]

