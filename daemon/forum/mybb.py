"""MyBB 1.8 (per tests/fixtures/forums/mybb/README.md): every form carries my_post_key; a sent PM
is named only by its copy in the sent items; files are attached with the reply form's own
"Add Attachment" step."""
from __future__ import annotations

from typing import Sequence


from forumgm.daemon.forum.adapter import Attachment, ForumAdapter
from forumgm.daemon.forum.errors import NoAttachments
from forumgm.daemon.forum.http import Page
from forumgm.daemon.forum.page_text import first_text
from forumgm.daemon.forum.spec import EngineSpec, FormStep, Paged, PmRemoval, PmSpec
from forumgm.parsers.forums import mybb as parser
from forumgm.parsers.forums.base import Form
from forumgm.parsers.forums.html import parse_html
from forumgm.parsers.forums.layout import Field
from forumgm.parsers.forums.unread import UnreadCount

UPLOAD_ERROR = "div.error li, div.error"

SPEC = EngineSpec(
    name="MyBB",
    # the welcome block's logout link (`header_welcomeblock_member`) ends in `class="logout">`; a post
    # may show `action=logout` and `class="logout"` as typed, but never an unescaped `>` after them
    logged_in='" class="logout">',
    errors="div.error, td.trow1 div.error, .error",
    thread_id=r"[?&]tid=(\d+)",
    thread_page=Paged("showthread.php?tid={thread}", "showthread.php?tid={thread}&page={page}"),
    login=FormStep("member.php?action=login", "login", {"username": "username", "password": "password"},
                   {"remember": "yes", "submit": "Login"}),
    reply=FormStep("newreply.php?tid={thread}", "reply", {"message": "message"}, {"submit": "Post Reply"}),
    reply_ref=r"[?&]pid=(\d+)",
    post_link="showthread.php?tid={thread}&pid={post}#pid{post}",
    flood_left=True,     # "Please wait 59 more seconds": what is left of the pause since the last text
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
        # the group's PM quota (200 for a member) counts every folder; a sender at it gets no copy
        # (datahandlers/pm.php turns savecopy off), and sends on without a word
        sent_counted=True, full_keeps_no_copy=True,
    ),
    # the welcome block's "Private Messages (Unread 4, Total 4)": the first number, in any language
    unread_pms=(UnreadCount("ul.user_links", Field(pattern=r"\([^()\d]*(\d+)[^()\d]+\d+[^()\d]*\)")),),
)


class MybbForum(ForumAdapter):
    spec = SPEC
    parser = parser

    def attach(self, page: Page, form: Form, attachments: Sequence[Attachment], bbcode: str) -> tuple[Page, Form, str]:
        """Each file through the form's "Add Attachment" step (it is kept under the form's posthash);
        the board lists it with its id, which the inline tag names."""
        field = self.upload_field(form, "attachments[]")
        for attachment in attachments:
            before = _listed(page.text)
            page = self.submit(page, form, {"message": bbcode, "newattachment": "Add Attachment"},
                               files={field: attachment})
            form = self.read_form(page, self.spec.reply.form)
            new = [aid for aid, name in _listed(page.text).items() if name == attachment.name and aid not in before]
            if not new:
                raise NoAttachments(f"MyBB did not take the file {attachment.name}: "
                                    f"{first_text(page.text, UPLOAD_ERROR) or 'no reason shown'}")
            bbcode = bbcode.replace(attachment.mark, f"[attachment={max(new, key=int)}]")
        return page, form, bbcode


def _listed(html: str) -> dict[str, str]:
    """The uploads the reply page lists: attachment id -> file name."""
    rows = parse_html(html).css('tr[id^="attachment_"]')
    return {row.attributes["id"].removeprefix("attachment_"): name.text(strip=True)
            for row in rows for name in row.css("span.attachment_filename")[:1]}
