"""MyBB 1.8 (per tests/fixtures/forums/mybb/README.md): every form carries my_post_key; a sent PM
is named only by its copy in the sent items."""
from __future__ import annotations

from forumgm.daemon.forum.adapter import ForumAdapter
from forumgm.daemon.forum.spec import EngineSpec, FormStep, Paged, PmSpec
from forumgm.parsers.forums import mybb as parser
from forumgm.parsers.forums.layout import Field
from forumgm.parsers.forums.unread import UnreadCount

SPEC = EngineSpec(
    name="MyBB",
    logged_in="action=logout",
    errors="div.error, td.trow1 div.error, .error",
    thread_id=r"[?&]tid=(\d+)",
    thread_page=Paged("showthread.php?tid={thread}", "showthread.php?tid={thread}&page={page}"),
    login=FormStep("member.php?action=login", "login", {"username": "username", "password": "password"},
                   {"remember": "yes", "submit": "Login"}),
    reply=FormStep("newreply.php?tid={thread}", "reply", {"message": "message"}, {"submit": "Post Reply"}),
    reply_ref=r"[?&]pid=(\d+)",
    post_link="showthread.php?tid={thread}&pid={post}#pid{post}",
    pm=PmSpec(
        inbox=Paged("private.php?fid=1", "private.php?fid=1&page={page}"),
        sentbox=Paged("private.php?fid=2", "private.php?fid=2&page={page}"),
        message="private.php?action=read&pmid={pm}",
        sent_accepted=r"private\.php",
        send=FormStep("private.php?action=send", "pm", {"to": "to", "subject": "subject", "message": "message"},
                      {"options[savecopy]": "1", "submit": "Send Message"}),
    ),
    # the welcome block's "Private Messages (Unread 4, Total 4)": the first number, in any language
    unread_pms=UnreadCount("ul.user_links", Field(pattern=r"\([^()\d]*(\d+)[^()\d]+\d+[^()\d]*\)")),
)


class MybbForum(ForumAdapter):
    spec = SPEC
    parser = parser
