"""Simple Machines Forum 2.1 (per tests/fixtures/forums/smf/README.md).

Its CSRF field has a random name per session (and the login form a second random-name token):
both are hidden inputs, so they go back as the form carried them. Pages are addressed by post
offset (`topic=2.5`). A reply is answered with `topic=N.new#new` or the board's index, a PM with
`done=sent`: neither names the text, which publish.py then finds among the account's own. PM
folders list the oldest PM first and open on their last page. An admin may post, send a PM or log
in once per 2 s per IP address (a 403 page asking to wait otherwise).
"""
from __future__ import annotations

from forumgm.daemon.forum.adapter import ForumAdapter
from forumgm.daemon.forum.spec import EngineSpec, FormStep, Paged, PmRemoval, PmSpec
from forumgm.parsers.forums import smf as parser

SPEC = EngineSpec(
    name="SMF",
    logged_in="action=logout",
    errors="#errors #error_list, div.errorbox, #fatal_error .windowbg",
    thread_id=r"[?&;]topic=(\d+)",
    thread_page=Paged("index.php?topic={thread}.0", "index.php?topic={thread}.{start}"),
    per_page_link=r"\?topic={thread}\.(\d+)\b",   # page links, not the report links (action=reporttm;topic=2.1)
    login=FormStep("index.php?action=login", "login", {"username": "user", "password": "passwrd"}),
    reply=FormStep("index.php?action=post;topic={thread}.0", "reply", {"message": "message"}, {"post": "Post"}),
    reply_ref=r"msg(\d+)",
    reply_accepted=r"[?;&](?:topic=\d+\.new\b|board=\d+\.\d+)",
    # "2 s" counted in whole seconds, a log row older than now - 2 being dropped: 3 s apart is safe
    post_interval=3.0,
    post_link="index.php?topic={thread}.msg{post}#msg{post}",
    pm=PmSpec(
        inbox=Paged("index.php?action=pm;f=inbox", "index.php?action=pm;f=inbox;start={start}"),
        sentbox=Paged("index.php?action=pm;f=sent", "index.php?action=pm;f=sent;start={start}"),
        message="index.php?action=pm;pmsg={pm}",
        sent_message="index.php?action=pm;f=sent;pmsg={pm}",
        sent_accepted=r"[?;&]done=sent\b",
        oldest_first=True,
        send=FormStep("index.php?action=pm;sa=send", "pm", {"to": "to", "subject": "subject", "message": "message"},
                      {"post": "Send message"}),
        # SMF 2.1 has labels, not folders: a labelled PM still counts against the account's PM
        # limit, so PMs are only deleted ("Remove selected")
        removal=PmRemoval(form="form#pmFolder", mark="pms[{n}]", delete={"del_selected": "Remove selected"}),
    ),
)


class SmfForum(ForumAdapter):
    spec = SPEC
    parser = parser
