"""Simple Machines Forum 2.1, default theme (markup described in tests/fixtures/forums/smf/README.md)."""
from __future__ import annotations

from forumgm.parsers.forums.layout import (
    BodyMarkup, EditMarker, EngineLayout, Field, InboxLayout, MessageLayout, Pagination, ThreadLayout,
)
from forumgm.parsers.forums.reader import bind

_PROFILE = r"[?;&]u=(\d+)"

LAYOUT = EngineLayout(
    name="smf",
    thread=ThreadLayout(
        post="#forumposts div.windowbg[id^='msg']",
        post_id=Field(attr="id", pattern=r"^msg(\d+)$"),
        author=Field("div.poster h4"),
        author_id=Field("div.poster h4 a", "href", _PROFILE),
        posted_at=(Field("div.postinfo > a.smalltext"),),
        body="div.post div.inner",
        edit=EditMarker(
            marker="span.modified:has(span.lastedit)",
            time=(Field(pattern=r"Last Edit:\s*(.+?)(?:\s+by\s+.+)?$"),),
            editor=Field(pattern=r"\sby\s+(.+)$"),
        ),
        pagination=Pagination(container="div.pagelinks", current="span.current_page"),
    ),
    body=BodyMarkup(quote="blockquote", code="code.bbc_code, div.codeheader", spoiler="div.spoiler, details"),
    inbox=InboxLayout(
        page="form#pmFolder",
        row="form#pmFolder tr:has(td.pm_subject)",
        id=Field("td.pm_subject > a", "href", r"#msg(\d+)"),
        subject=Field("td.pm_subject > a", pattern=r"^(.*?)(?:\s+New)?$"),
        sender=Field("td.pm_from_to"),
        sender_id=Field("td.pm_from_to a", "href", _PROFILE),
        sent_at=(Field("td.pm_time"),),
        unread="tr.unread_pm",
        # oldest first; without `start` a folder opens on its last page (daemon/forum/smf.py)
        # "Pages [1]" heads every folder page, a folder of one page too
        pagination=Pagination(container="div.pagelinks", current="span.current_page", always=True),
    ),
    message=MessageLayout(
        container="#personal_messages div.windowbg[id^='msg']",
        id=Field(attr="id", pattern=r"^msg(\d+)$"),
        subject=Field("div.keyinfo h5"),
        sender=Field("div.poster h4"),
        sender_id=Field("div.poster h4 a", "href", _PROFILE),
        sent_at=(Field("div.postinfo", pattern=r"\son:\s*(.+)$"),),
        body="div.post div.inner",
    ),
    forms={"login": "form#frmLogin", "reply": "form#postmodify", "pm": "form#postmodify"},
)

posts, page_info, thread, inbox, message, form, sent, sent_message, listing, folder = bind(LAYOUT)
