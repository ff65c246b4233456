"""phpBB 3.3, prosilver style (markup described in tests/fixtures/forums/phpbb/README.md)."""
from __future__ import annotations


from forumgm.parsers.forums.base import ColoredFragment
from forumgm.parsers.forums.body import read_body
from forumgm.parsers.forums.html import parse_html
from forumgm.parsers.forums.layout import (
    BodyMarkup, EditMarker, EngineLayout, Field, InboxLayout, MessageLayout, Pagination, ThreadLayout,
)
from forumgm.parsers.forums.reader import bind

_PROFILE = r"[?&]u=(\d+)"
# "N messages • Page 1 of 1" heads every folder page, a folder of one page too
_PM_PAGES = Pagination(container="div.pagination", current="li.active span", always=True)

LAYOUT = EngineLayout(
    name="phpbb",
    thread=ThreadLayout(
        post="div.post.has-profile:not(.pm)",
        post_id=Field(attr="id", pattern=r"^p(\d+)$"),
        author=Field("dl.postprofile dt a.username, dl.postprofile dt a.username-coloured, "
                     "dl.postprofile dt span.username"),
        author_id=Field("dl.postprofile dt a[href*='mode=viewprofile']", "href", _PROFILE),
        posted_at=(Field("p.author time", "datetime"), Field("p.author", pattern=r"»\s*(.+)$")),
        body="div.postbody div.content",
        edit=EditMarker(
            marker="div.notice",
            time=(Field(pattern=r"\bon (.+?), edited \d+ times? in total"),),
            editor=Field("a.username, a.username-coloured"),
        ),
        pagination=Pagination(container="div.pagination", current="li.active span"),
        hidden=".deleted, .unapproved",
    ),
    body=BodyMarkup(quote="blockquote", code="div.codebox", spoiler="div.spoiler, details"),
    inbox=InboxLayout(
        page="form#viewfolder",
        row="ul.pmlist li.row",
        id=Field("a.topictitle", "href", r"[?&]p=(\d+)"),
        subject=Field("a.topictitle"),
        sender=Field("div.list-inner a.username, div.list-inner a.username-coloured"),
        sender_id=Field("div.list-inner a[href*='mode=viewprofile']", "href", _PROFILE),
        sent_at=(Field("div.list-inner", pattern=r"»\s*(.+?)(?:\s+Attachments?\b.*)?$"),),
        unread="dl.pm_unread",
        pagination=_PM_PAGES,
        total=Field("div.pagination", pattern=r"(\d+) messages?\b"),
        fill=Field("form#viewfolder div.panel p", pattern=r"\((\d+ out of \d+) messages stored\)"),
    ),
    # Sent messages and the outbox: "To <recipient>" and "Sent: <date>" in a column of its own
    sent=InboxLayout(
        page="form#viewfolder",
        row="ul.pmlist li.row",
        id=Field("a.topictitle", "href", r"[?&]p=(\d+)"),
        subject=Field("a.topictitle"),
        sender=Field("div.list-inner a.username, div.list-inner a.username-coloured"),
        sender_id=Field("div.list-inner a[href*='mode=viewprofile']", "href", _PROFILE),
        sent_at=(Field("dd.info", pattern=r"Sent:\s*(.+)$"),),
        unread="dl.pm_unread",
        pagination=_PM_PAGES,
    ),
    message=MessageLayout(
        container="div.post.pm",
        id=Field(attr="id", pattern=r"^post-(\d+)$"),
        subject=Field("div.postbody h3"),
        sender=Field("dl.postprofile dt a.username, dl.postprofile dt a.username-coloured"),
        sender_id=Field("dl.postprofile dt a[href*='mode=viewprofile']", "href", _PROFILE),
        sent_at=(Field("p.author", pattern=r"Sent:\s*(.+?)\s*From:"),),
        body="div.content",
    ),
    forms={"login": "form#login", "reply": "form#postform", "pm": "form#postform",
           "quickreply": "form#qr_postform"},
)

posts, page_info, thread, inbox, message, form, sent, sent_message, listing, folder = bind(LAYOUT)


def post_body(body_html: str) -> tuple[str, str, tuple[ColoredFragment, ...], tuple[ColoredFragment, ...]]:
    """(text, text_unquoted, colored, flagged) of one rendered phpBB post body (`div.content` inner HTML)."""
    reading = read_body(parse_html(body_html).body, LAYOUT.body)
    return reading.text, reading.text_unquoted, reading.colored, reading.flagged
