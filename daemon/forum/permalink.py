"""Links to single posts of a game thread, from the engine's permalink pattern (no login needed).

Vote counts and reports link every vote to its post; building the link must not need a forum
session (the host's `forumgm votes` runs offline), so it reads the engine's spec only.
"""
from __future__ import annotations

import re
from typing import Callable
from urllib.parse import urljoin

from forumgm.daemon.forum import ADAPTERS
from forumgm.daemon.forum.settings import ForumSettings

PostUrl = Callable[[str], "str | None"]


def post_url_builder(forum_config, thread_url: str) -> PostUrl:
    """post id -> its URL on the forum; None for every post when the engine has no known pattern."""
    settings = ForumSettings.read(forum_config)
    adapter = ADAPTERS.get(settings.engine)
    spec = getattr(adapter, "spec", None)
    found = re.search(spec.thread_id, thread_url) if spec is not None and spec.post_link else None
    if found is None:
        return lambda post_id: None
    thread = found.group(1)
    return lambda post_id: urljoin(settings.base_url, spec.post_link.format(thread=thread, post=post_id))
