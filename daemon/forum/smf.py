"""Simple Machines Forum 2.1 (per tests/fixtures/forums/smf/README.md).

Its CSRF field has a random name per session (and the login form a second random-name token):
both are hidden inputs, so they go back as the form carried them. Pages are addressed by post
offset (`topic=2.5`). A reply is answered with `topic=N.new#new` or the board's index, a PM with
`done=sent`: neither names the text, which publish.py then finds among the account's own. PM
folders list the oldest PM first and open on their last page. An admin may post, send a PM or log
in once per 2 s per IP address (a 403 page asking to wait otherwise).
"""
from __future__ import annotations

import json
import re
from typing import Sequence

from forumgm.daemon.forum.adapter import Attachment, ForumAdapter
from forumgm.daemon.forum.errors import NoAttachments
from forumgm.daemon.forum.http import Page
from forumgm.daemon.forum.spec import EngineSpec, FormStep, MemberSearch, Paged, PmRemoval, PmSpec
from forumgm.parsers.forums import smf as parser
from forumgm.parsers.forums.base import Form
from forumgm.parsers.forums.layout import Field
from forumgm.parsers.forums.unread import UnreadCount

# the post form's scripts upload a file here at once; the board keeps it for the session's next post
UPLOAD = "index.php?action=uploadAttach;sa=add;board={board}"

SPEC = EngineSpec(
    name="SMF",
    # the header's no-script logout item (index.template.php, members only); a post may link to
    # action=logout, and shows typed markup escaped
    logged_in='<li id="nojs_logout">',
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
        # the stock `pm_spam_settings` ("10,5,20") ask a member with fewer than 5 posts to read a
        # picture (or answer a question) before every PM: the form carries `pm_vv[...]` fields
        verification="form#postmodify div.post_verification, form#postmodify input[name^='pm_vv[']",
        verification_advice=("set Admin → Security and Moderation → Anti-Spam (index.php?action=admin;area=antispam) "
                             "\"Post count under which users must pass verification when sending personal "
                             "messages\" to 0, or let the account make that many posts (5 by default)"),
    ),
    # "My Messages <span class="amt">4</span>": the number only when a PM is unread
    unread_pms=(UnreadCount("a#pm_menu_top", Field("span.amt", pattern=r"^(\d+)$"), absent_is_zero=True),),
    # the member list's search by (display) name lists every member whose name holds the text
    members=MemberSearch("index.php?action=mlist;sa=search;search={name};fields=name",
                         'td.real_name a[href*="action=profile;u="]'),
)


class SmfForum(ForumAdapter):
    spec = SPEC
    parser = parser

    def attach(self, page: Page, form: Form, attachments: Sequence[Attachment], bbcode: str) -> tuple[Page, Form, str]:
        """Each file through the board's upload step, as its post form's scripts do: the board keeps it
        for the session's next post and answers its id, which the inline tag names."""
        self.upload_field(form, "attachment[]")
        board = re.search(r"[?;&]board=(\d+)", form.action)
        upload = Form(action=UPLOAD.format(board=board.group(1) if board else ""), method="post",
                      enctype="multipart/form-data")
        for attachment in attachments:
            answer = self.submit(page, upload, {}, files={"attachment[]": attachment})
            try:
                [file] = json.loads(answer.text)["files"]
                aid = int(file["attachID"])
            except (ValueError, KeyError, TypeError):
                said = re.sub(r"<[^>]+>", "", " ".join(_errors(answer.text))) or "no reason shown"
                raise NoAttachments(f"SMF did not take the file {attachment.name}: {said}") from None
            bbcode = bbcode.replace(attachment.mark, f"[attach id={aid}]{attachment.name}[/attach]")
        return page, form, bbcode


def _errors(text: str) -> list[str]:
    """What the upload step's JSON answer says went wrong (nothing when it is no such answer)."""
    try:
        answer = json.loads(text)
        return [str(e) for file in answer.get("files") or [] for e in file.get("errors") or []] + \
            [str(e) for e in answer.get("generalErrors") or []]
    except (ValueError, AttributeError):
        return []
