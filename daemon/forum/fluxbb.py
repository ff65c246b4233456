"""FluxBB 1.5 (per tests/fixtures/forums/fluxbb/README.md): no private messages at all.

A game on FluxBB counts thread votes only; every PM call raises NoPrivateMessages saying so.
post.php checks the Referer, which every submitted form carries (adapter.submit).
"""
from __future__ import annotations

from forumgm.daemon.forum.adapter import ForumAdapter
from forumgm.daemon.forum.spec import EngineSpec, FormStep, MemberSearch, Paged
from forumgm.parsers.forums import fluxbb as parser

SPEC = EngineSpec(
    name="FluxBB",
    # the menu's logout item (members only); a post may link to login.php?action=out, and shows
    # typed markup escaped
    logged_in='<li id="navlogout">',
    errors="#posterror li, #msg p",
    thread_id=r"viewtopic\.php\?(?:[^#]*&)?id=(\d+)",
    thread_page=Paged("viewtopic.php?id={thread}", "viewtopic.php?id={thread}&p={page}"),
    login=FormStep("login.php", "login", {"username": "req_username", "password": "req_password"},
                   {"save_pass": "1", "login": "Login"}),
    reply=FormStep("post.php?tid={thread}", "reply", {"message": "req_message"}, {"submit": "Submit"}),
    reply_ref=r"[?&]pid=(\d+)",
    post_link="viewtopic.php?pid={post}#p{post}",
    pm=None,
    # the user list searched by name (its * a wildcard, none here) lists the members of that name
    members=MemberSearch("userlist.php?username={name}&show_group=-1&sort_by=username&sort_dir=ASC",
                         'td.tcl a[href^="profile.php?id="]'),
)


class FluxbbForum(ForumAdapter):
    spec = SPEC
    parser = parser
