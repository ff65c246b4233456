"""Invision Power Board 3.4 (per tests/fixtures/forums/ipb3/README.md): `auth_key` in every form;
personal messages are conversations listed in one folder with those the account started, and the
board names a new one only by its place in that list (it answers "sent, redirecting" to the inbox).
"""
from __future__ import annotations

from forumgm.daemon.forum.adapter import ForumAdapter
from forumgm.daemon.forum.spec import EngineSpec, FormStep, Paged, PmSpec
from forumgm.parsers.forums import ipb3 as parser
from forumgm.parsers.forums.layout import Field
from forumgm.parsers.forums.unread import UnreadCount

_MESSENGER = "index.php?app=members&module=messaging"
_CONVERSATIONS = Paged(f"{_MESSENGER}&section=view&do=showFolder&folderID=myconvo",
                       f"{_MESSENGER}&section=view&do=showFolder&folderID=myconvo&st={{start}}")

SPEC = EngineSpec(
    name="IP.Board 3",
    logged_in="section=login&amp;do=logout",
    errors="p.message.error, div.message.error",
    thread_id=r"(?:[?&]showtopic=|/topic/)(\d+)",
    thread_page=Paged("index.php?showtopic={thread}", "index.php?showtopic={thread}&page={page}"),
    login=FormStep("index.php?app=core&module=global&section=login", "login",
                   {"username": "ips_username", "password": "ips_password"}, {"rememberMe": "1"}),
    reply=FormStep("index.php?showtopic={thread}", "reply", {"message": "Post"}, {"submit": "Отправить"}),
    reply_ref=r"(?:[?&]p=|[?&]pid=|#entry)(\d+)",
    post_link="index.php?showtopic={thread}&view=findpost&p={post}",
    pm=PmSpec(
        inbox=_CONVERSATIONS,
        sentbox=_CONVERSATIONS,
        lists_recipient=False,
        message=f"{_MESSENGER}&section=view&do=showConversation&topicID={{pm}}",
        send=FormStep(f"{_MESSENGER}&section=send&do=form", "pm",
                      {"to": "entered_name", "subject": "msg_title", "message": "Post"},
                      {"dosubmit": "Отправить"}),
    ),
    # globalTemplate's user bar: the messenger icon holds <span class='ipsHasNotifications'>N</span>
    # only when N is not 0
    unread_pms=(UnreadCount("a#inbox_link", Field("span.ipsHasNotifications", pattern=r"^(\d+)$"),
                            absent_is_zero=True),),
)


class Ipb3Forum(ForumAdapter):
    spec = SPEC
    parser = parser
