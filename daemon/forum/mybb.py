"""MyBB 1.8 (per tests/fixtures/forums/mybb/README.md): every form carries my_post_key; a sent PM
is named only by its copy in the sent items."""
from __future__ import annotations

from forumgm.daemon.forum.adapter import ForumAdapter
from forumgm.daemon.forum.spec import EngineSpec, FormStep, Paged, PmRemoval, PmSpec
from forumgm.parsers.forums import mybb as parser

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
        # fid=0 is the Inbox; fid=1 lists only its unread PMs (MyBB 1.8's "Unread" view), where a PM
        # the host opened in his browser before forumgm read it would never show
        inbox=Paged("private.php?fid=0", "private.php?fid=0&page={page}"),
        sentbox=Paged("private.php?fid=2", "private.php?fid=2&page={page}"),
        message="private.php?action=read&pmid={pm}",
        sent_accepted=r"private\.php",
        send=FormStep("private.php?action=send", "pm", {"to": "to", "subject": "subject", "message": "message"},
                      {"options[savecopy]": "1", "submit": "Send Message"}),
        # "Delete" moves a PM to the Trash Can, and deletes it for good only from there; a move
        # keeps it in the account's PM quota (which counts every folder)
        removal=PmRemoval(
            form='form[name="pmForm"]', mark="check[{pm}]", mark_value="1", delete={"delete": "Delete"},
            trash=Paged("private.php?fid=4"),
            move={"moveto": "Move To", "fid": "{folder}"}, folder_options='form[name="pmForm"] select[name="fid"] option',
        ),
    ),
)


class MybbForum(ForumAdapter):
    spec = SPEC
    parser = parser
