"""Invision Community 4 (per tests/fixtures/forums/ipb4/README.md): `csrfKey` in every form, the
login's `_processLogin` button names the handler, the reply editor is named after the topic
(`topic_comment_7`); a new conversation's URL is where the board sends after composing it.
"""
from __future__ import annotations

from forumgm.daemon.forum.adapter import ForumAdapter
from forumgm.daemon.forum.spec import EngineSpec, FormStep, Paged, PmSpec
from forumgm.parsers.forums import ipb4 as parser
from forumgm.parsers.forums.layout import Field
from forumgm.parsers.forums.unread import UnreadCount

_MESSENGER = Paged("messenger/", "messenger/?page={page}")

SPEC = EngineSpec(
    name="Invision Community 4",
    logged_in="/logout/?csrfKey=",
    errors="div.ipsMessage_error, p.ipsMessage_error, span.ipsType_warning",
    thread_id=r"/topic/(\d+(?:-[^/?#]*)?)",
    thread_page=Paged("topic/{thread}/", "topic/{thread}/?page={page}"),
    login=FormStep("login/", "login", {"username": "auth", "password": "password"},
                   {"_processLogin": "usernamepassword"}),
    reply=FormStep("topic/{thread}/", "reply", {"message": "topic_comment_*"}),
    reply_ref=r"[?&]comment=(\d+)",
    post_link="topic/{thread}/?do=findComment&comment={post}",
    pm=PmSpec(
        inbox=_MESSENGER,
        sentbox=_MESSENGER,
        lists_recipient=False,
        message="messenger/{pm}/",
        send=FormStep("messenger/compose/", "compose",
                      {"to": "messenger_to", "subject": "messenger_title", "message": "messenger_content"}),
        sent_ref=r"/messenger/(\d+)/",
    ),
    forms={"compose": "form[action$='/messenger/compose/']:has(input[name='messenger_title'])"},
    # the userBar's inbox icon: its ipsNotificationCount is printed always, 0 hidden by ipsHide
    unread_pms=(UnreadCount("a#elFullInbox", Field("span.ipsNotificationCount[data-notificationType='inbox']",
                                                   pattern=r"^(\d+)$")),),
)


class Ipb4Forum(ForumAdapter):
    spec = SPEC
    parser = parser
