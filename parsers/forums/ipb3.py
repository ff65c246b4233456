"""Invision Power Board 3.4, default skin (skin_topic `post`, messenger, login templates).

Markup notes: tests/fixtures/forums/ipb3/README.md. Post times are read from the `abbr.published`
title (ISO 8601), falling back to the printed text («Сегодня, 13:59») with the fetch time.
"""
from __future__ import annotations

from forumgm.parsers.forums.layout import (
    BodyMarkup, EditMarker, EngineLayout, Field, InboxLayout, MessageLayout, Pagination, ThreadLayout,
)
from forumgm.parsers.forums.reader import bind

_HOVERCARD = "a[hovercard-ref='member']"
_EDITOR = r"(?:отредактировал[а]?|edited by)\s+(.+?):\s"

LAYOUT = EngineLayout(
    name="ipb3",
    thread=ThreadLayout(
        post="div.post_block.hentry[id^='post_id_']",
        post_id=Field(attr="id", pattern=r"^post_id_(\d+)$"),
        author=Field(f"h3 span.author {_HOVERCARD}, h3 {_HOVERCARD}"),
        author_id=Field(f"h3 {_HOVERCARD}", "hovercard-id"),
        posted_at=(Field("abbr.published", "title"), Field("abbr.published")),
        body="div.post.entry-content",
        edit=EditMarker(marker="div.post.entry-content p.edit",
                        time=(Field(pattern=r"\S:\s+(.+?\d:\d\d(?:\s*[AP]M)?)"),),   # a reason may follow
                        editor=Field(pattern=_EDITOR)),
        pagination=Pagination(container="ul.pagination", current="li.page.active",
                              total=Field("li.pagejump a", pattern=r"(?:из|of)\s+(\d+)")),
    ),
    body=BodyMarkup(quote="blockquote.ipsBlockquote, div.blockquote", spoiler="div.bbc_spoiler",
                    code="pre.prettyprint, pre._prettyXprint",
                    ignore="p.edit, p.citation, span.spoiler_title, input.bbc_spoiler_show"),
    inbox=InboxLayout(
        page="table#message_list",
        row="table#message_list tr[id^='mt_']",
        id=Field("td.col_m_subject a", "href", r"topicID=(\d+)"),
        subject=Field("td.col_m_subject a"),
        sender=Field(f"td.col_m_sender {_HOVERCARD}"),
        sender_id=Field(f"td.col_m_sender {_HOVERCARD}", "hovercard-id"),
        sent_at=(Field("td.col_m_date abbr.published", "title"), Field("td.col_m_date")),
        unread="tr.unread",
    ),
    message=MessageLayout(
        container="html:has(form#msgForm input[name='topicID'])",
        id=Field("form#msgForm input[name='topicID']", "value"),
        subject=Field("h1.ipsType_pagetitle"),
        sender=Field(f"div.post_block h3 {_HOVERCARD}"),
        sender_id=Field(f"div.post_block h3 {_HOVERCARD}", "hovercard-id"),
        sent_at=(Field("div.post_block abbr.published", "title"), Field("div.post_block abbr.published")),
        body="div.post_block div.post.entry-content",
    ),
    forms={"login": "form#login", "reply": "form#ips_fastReplyForm, form#postingform", "pm": "form#msgForm"},
)

posts, page_info, thread, inbox, message, form, sent, sent_message, listing, folder = bind(LAYOUT)
