"""XenForo 2 (per tests/fixtures/forums/xenforo/README.md): `_xfToken` in every form; direct
messages are conversations, started at conversations/add and listed with the received ones.

The saved XenForo pages are hand-written (no XenForo install was run): re-check on a real board.
"""
from __future__ import annotations

from forumgm.daemon.forum.adapter import ForumAdapter
from forumgm.daemon.forum.spec import EngineSpec, FormStep, Paged, PmSpec
from forumgm.parsers.forums import xenforo as parser
from forumgm.parsers.forums.layout import Field
from forumgm.parsers.forums.unread import UnreadCount

_CONVERSATIONS = Paged("conversations/", "conversations/?page={page}")

SPEC = EngineSpec(
    name="XenForo",
    logged_in='data-logged-in="true"',
    errors="div.blockMessage--error, div.formRow--error",
    thread_id=r"threads/([^/?#]+)",
    thread_page=Paged("threads/{thread}/", "threads/{thread}/page-{page}"),
    login=FormStep("login/", "login", {"username": "login", "password": "password"}, {"remember": "1"}),
    reply=FormStep("threads/{thread}/reply", "reply", {"message": "message"}),
    reply_ref=r"(?:posts/|post-)(\d+)",
    post_link="threads/{thread}/post-{post}",
    pm=PmSpec(
        inbox=_CONVERSATIONS,
        sentbox=_CONVERSATIONS,
        lists_recipient=False,
        message="conversations/{pm}/",
        send=FormStep("conversations/add", "pm", {"to": "recipients", "subject": "title", "message": "message"}),
        sent_ref=r"conversations/(?:[^/?#]*\.)?(\d+)/",
    ),
    # PAGE_CONTAINER's conversations icon: data-badge is the unread conversations, 0 included
    unread_pms=(UnreadCount("a.p-navgroup-link--conversations", Field(attr="data-badge", pattern=r"^(\d+)$")),),
)


class XenforoForum(ForumAdapter):
    spec = SPEC
    parser = parser
