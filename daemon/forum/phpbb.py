"""phpBB 3.x (prosilver): login with form_token, reply (once more when someone posted meanwhile),
files attached with the reply form's own "Add the file" step, PM recipients added with the
form's own "Add" step before sending."""
from __future__ import annotations

from typing import Sequence

from forumgm.daemon.forum.adapter import Attachment, ForumAdapter
from forumgm.daemon.forum.errors import ForumRefused, NoAttachments
from forumgm.daemon.forum.http import Page
from forumgm.daemon.forum.page_text import first_text
from forumgm.daemon.forum.spec import EngineSpec, FormStep, Paged, PmRemoval, PmSpec
from forumgm.parsers.forums import phpbb as parser
from forumgm.parsers.forums.base import Form
from forumgm.parsers.forums.layout import Field
from forumgm.parsers.forums.unread import UnreadCount

NEW_POSTS_NOTICE = "At least one new post has been made to this topic"

SPEC = EngineSpec(
    name="phpBB",
    # the header's user menu (members only), tag and all: a post shows `id="username_logged_in"`
    # as typed, but never an unescaped `<`
    logged_in='<li id="username_logged_in"',
    errors="form#postform p.error, form#login div.error, div#message p, p.error, div.error",
    thread_id=r"[?&]t=(\d+)",
    thread_page=Paged("viewtopic.php?t={thread}", "viewtopic.php?t={thread}&start={start}"),
    per_page_link=r"[?&;]start=(\d+)",
    login=FormStep("ucp.php?mode=login", "login", {"username": "username", "password": "password"},
                   {"login": "Login"}),
    reply=FormStep("posting.php?mode=reply&t={thread}", "reply", {"message": "message"}, {"post": "Submit"}),
    reply_ref=r"[?&]p=(\d+)",
    post_link="viewtopic.php?p={post}#p{post}",
    flood_pause=15.0,    # `flood_interval`'s stock value: the refusal names no pause
    stale_form="The submitted form was invalid",    # FORM_INVALID: older than `form_token_lifetime`
    pm=PmSpec(
        inbox=Paged("ucp.php?i=pm&folder=inbox", "ucp.php?i=pm&folder=inbox&start={start}"),
        sentbox=Paged("ucp.php?i=pm&folder=sentbox", "ucp.php?i=pm&folder=sentbox&start={start}"),
        # a sent PM waits in the outbox until its recipient opens his PMs
        outbox=Paged("ucp.php?i=pm&folder=outbox", "ucp.php?i=pm&folder=outbox&start={start}"),
        message="ucp.php?i=pm&mode=view&p={pm}",
        send=FormStep("ucp.php?i=pm&mode=compose", "pm", {"subject": "subject", "message": "message"},
                      {"username_list": "", "post": "Submit"}),
        sent_ref=r"[?&]p=(\d+)",
        # the folder's own form: "Delete marked" asks "are you sure?" first; "Move marked to <folder>"
        # lists the account's own folders (each folder holds the board's limit, the inbox one again)
        removal=PmRemoval(
            form="form#viewfolder", mark="marked_msg_id[{n}]",
            delete={"mark_option": "delete_marked", "submit_mark": "Go"},
            confirm="form#confirm", confirm_with={"confirm": "Yes"},
            move={"mark_option": "{folder}", "submit_mark": "Go"},
            folder_options='form#viewfolder select[name="mark_option"] option',
        ),
        # the sent folder holds the board's folder limit (50): past it phpBB deletes the oldest copies
        # itself when a folder is shown (clean_sentbox); the outbox is never cleaned by forumgm
        sent_counted=True,
    ),
    # counts a PM from the moment it is sent, before the recipient's inbox holds it; 0 stays in the page, hidden
    unread_pms=(UnreadCount("a[href*='i=pm'][href*='folder=inbox'][role='menuitem']",
                            Field("strong.badge", pattern=r"^(\d+)$")),),
)


class PhpbbForum(ForumAdapter):
    spec = SPEC
    parser = parser

    def reply_answer(self, result: Page, bbcode: str) -> str:
        if not result.location and NEW_POSTS_NOTICE in (first_text(result.text, self.spec.errors) or ""):
            # phpBB shows the form again under the new posts; the same text goes once more
            step = self.spec.reply
            result = self.submit(result, self.read_form(result, step.form), step.values(message=bbcode), follow=False)
        return super().reply_answer(result, bbcode)

    def attach(self, page: Page, form: Form, attachments: Sequence[Attachment], bbcode: str) -> tuple[Page, Form, str]:
        """Each file through the form's "Add the file" step, as a browser without scripts does; phpBB
        lists the newest upload first, so after n uploads the i-th file is attachment n-1-i."""
        field = self.upload_field(form, "fileupload")
        for attachment in attachments:
            before = _uploaded(form)
            page = self.submit(page, form, {"message": bbcode, "add_file": "Add the file"}, files={field: attachment})
            form = self.read_form(page, self.spec.reply.form)
            if _uploaded(form) != [attachment.name, *before]:
                raise NoAttachments(f"phpBB did not take the file {attachment.name}: "
                                    f"{first_text(page.text, self.spec.errors) or 'no reason shown'}")
        count = len(attachments)
        for index, attachment in enumerate(attachments):
            bbcode = bbcode.replace(attachment.mark, f"[attachment={count - 1 - index}]{attachment.name}[/attachment]")
        return page, form, bbcode

    def add_recipient(self, page: Page, form: Form, to_nick: str) -> tuple[Page, Form]:
        added, added_form = self._with_recipient(page, form, to_nick)
        if not _has_recipient(added_form):
            raise ForumRefused(f"the forum does not know the recipient {to_nick}: "
                               f"{first_text(added.text, self.spec.errors) or 'no message'}")
        return added, added_form

    def knows_account(self, nick: str) -> bool:
        """The PM form's own "Add" step, and nothing sent: phpBB adds only a member it has."""
        send = self.pms().send
        page, form = self.fetch_form(self.url(send.page), send.form)
        return _has_recipient(self._with_recipient(page, form, nick)[1])

    def _with_recipient(self, page: Page, form: Form, to_nick: str) -> tuple[Page, Form]:
        added = self.submit(page, form, {"username_list": to_nick, "add_to": "Add"})
        return added, self.read_form(added, self.spec.pm.send.form)


def _has_recipient(form: Form) -> bool:
    return any(key.startswith("address_list[u][") for key in form.fields)


def _uploaded(form: Form) -> list[str]:
    """The file names of the uploads the reply form carries, in its order (newest first)."""
    names = {int(key[len("attachment_data["):key.index("]")]): value for key, value in form.fields.items()
             if key.startswith("attachment_data[") and key.endswith("[real_filename]")}
    return [names[index] for index in sorted(names)]
