"""MyBB 1.8, default theme (markup described in tests/fixtures/forums/mybb/README.md)."""
from __future__ import annotations

from forumgm.parsers.forums.layout import (
    BodyMarkup, EditMarker, EngineLayout, Field, InboxLayout, MessageLayout, Pagination, ThreadLayout,
)
from forumgm.parsers.forums.reader import bind

_PROFILE = r"[?&]uid=(\d+)"
_TIMED_TITLE = r"^(.*\d:\d\d.*)$"   # "11-30-2026, 04:29 AM"; a bare date title goes with "Today, 04:29 AM" text
_DATE_TEXT = r"^(.+?\d{1,2}:\d\d(?:\s*[AP]M)?|\d+ \w+ ago|Yesterday|Today)"

# A PM as MyBB shows it; the sender's copy (the sent folder's) and a PM the account sent itself (the
# host's notice to his own account, in its inbox) have empty ids (id="post_", id="pid_"), the others
# id="post_0"
_MESSAGE = MessageLayout(
    container="html:has(div#post_0 div.post_body, div.post[id='post_'] div.post_body)",
    id=Field("a.postbit_reply_pm, input[name='pmid'], a[href*='action=delete'][href*='pmid=']", "href",
             r"pmid=(\d+)"),
    subject=Field("title", pattern=r"Viewing PM:\s*(.+)$"),
    sender=Field("div.post[id^='post_'] div.author_information .largetext"),
    sender_id=Field("div.post[id^='post_'] div.author_information .largetext a", "href", _PROFILE),
    sent_at=(Field("div.post[id^='post_'] span.post_date > span[title]", "title", _TIMED_TITLE),
             Field("div.post[id^='post_'] span.post_date", pattern=_DATE_TEXT)),
    body="div.post[id^='post_'] div.post_body",
)

LAYOUT = EngineLayout(
    name="mybb",
    thread=ThreadLayout(
        # (a soft-deleted post as MyBB shows it to a plain member is a stub: no body, no date)
        post="div#posts div.post:not(#post_0):not(.deleted_post_hidden)",
        post_id=Field(attr="id", pattern=r"^post_(\d+)$"),
        author=Field("div.author_information .largetext"),
        author_id=Field("div.author_information .largetext a", "href", _PROFILE),
        posted_at=(Field("span.post_date > span[title]", "title", _TIMED_TITLE),
                   Field("span.post_date", pattern=_DATE_TEXT)),
        body="div.post_body",
        edit=EditMarker(
            marker="span.edited_post",
            time=(Field("span[title]", "title", _TIMED_TITLE),
                  Field(pattern=r"modified:\s*(.+?)\s+by\s")),
            editor=Field("a"),
        ),
        # not the breadcrumb's popup: it pages the forum's topic list once it holds more than a page
        pagination=Pagination(container="div.pagination:not(.pagination_breadcrumb)", current="span.pagination_current",
                              total=Field("span.pages", pattern=r"\((\d+)\)")),
        hidden=".deleted_post, .unapproved_post",
    ),
    body=BodyMarkup(quote="blockquote.mycode_quote, blockquote", code="div.codeblock",
                    spoiler="details.spoiler, div.spoiler"),
    inbox=InboxLayout(
        page="form[name='pmForm']",
        row="form[name='pmForm'] tr:has(a.new_pm, a.old_pm)",
        id=Field("a.new_pm, a.old_pm", "href", r"pmid=(\d+)"),
        subject=Field("a.new_pm, a.old_pm"),
        sender=Field("td:nth-child(4)"),
        sender_id=Field("td:nth-child(4) a", "href", _PROFILE),
        sent_at=(Field("span.smalltext > span[title]", "title", _TIMED_TITLE),
                 Field("td:nth-child(5)", pattern=_DATE_TEXT)),
        unread="a.new_pm",
        pagination=Pagination(container="div.pagination:not(.pagination_breadcrumb)", current="span.pagination_current",
                              total=Field("span.pages", pattern=r"\((\d+)\)")),
        # the quota bar of every folder page: its width in px is the unrounded per cent in use (the
        # label rounds it, and shows it only on one half of the bar)
        used=Field("span.pmspace_used", "style", r"width:\s*(\d+(?:\.\d+)?)px"),
    ),
    message=_MESSAGE,       # (and the sender's copy: the same layout)
    forms={"login": "form:has(input[name='action'][value='do_login']):has(input[name='username'])",
           "reply": "form[name='input'][action*='newreply.php']",
           "quickreply": "form#quick_reply_form",
           "pm": "form:has(input[name='action'][value='do_send'])"},
)

posts, page_info, thread, inbox, message, form, sent, sent_message, listing, folder = bind(LAYOUT)
