"""Invision Community 4.x (IPS 4.4–4.7), default theme: forums topic `postContainer`, messenger, login.

Markup notes: tests/fixtures/forums/ipb4/README.md. Every time is a `<time datetime>` (ISO, UTC).
"""
from __future__ import annotations

from forumgm.parsers.forums.layout import (
    BodyMarkup, EditMarker, EngineLayout, Field, InboxLayout, MessageLayout, Pagination, ThreadLayout,
)
from forumgm.parsers.forums.reader import bind

_PROFILE = r"/profile/(\d+)-"
_AUTHOR = "aside.cAuthorPane h3.cAuthorPane_author a"
_CONTENT = "div[data-role='commentContent']"
_PM = "article.ipsComment"

LAYOUT = EngineLayout(
    name="ipb4",
    thread=ThreadLayout(
        post="article.ipsComment[id^='elComment_']:has(div.cPost_contentWrap)",
        post_id=Field(attr="id", pattern=r"^elComment_(\d+)$"),
        author=Field(_AUTHOR),
        author_id=Field(_AUTHOR, "href", _PROFILE),
        posted_at=(Field("div.ipsComment_meta time", "datetime"),),
        body=f"div.cPost_contentWrap > {_CONTENT}",
        edit=EditMarker(marker=f"{_CONTENT} > [data-excludequote]:has(time)",
                        time=(Field("time", "datetime"),),
                        editor=Field("strong", pattern=r"(?:пользователем|by)\s+(.+)$")),   # a reason follows the <strong>
        pagination=Pagination(container="ul.ipsPagination", current="li.ipsPagination_active a",
                              total=Field(attr="data-pages")),
    ),
    body=BodyMarkup(quote="blockquote.ipsQuote", spoiler="div.ipsSpoiler", code="pre.ipsCode",
                    ignore="[data-excludequote], div.ipsQuote_citation, div.ipsSpoiler_header"),
    inbox=InboxLayout(
        page="ol.cMessage_list[data-role='messageList']",
        row="li.cMessage_list_item[data-messageid]",
        id=Field(attr="data-messageid"),
        subject=Field("h4.ipsDataItem_title a"),
        sender=Field("ul.ipsList_inline a[href*='/profile/']"),
        sender_id=Field("ul.ipsList_inline a[href*='/profile/']", "href", _PROFILE),
        sent_at=(Field("time", "datetime"),),
        unread="li.ipsDataItem_unread",
    ),
    message=MessageLayout(
        container="html:has(link[rel='canonical'][href*='/messenger/']):has(article.ipsComment)",
        id=Field("link[rel='canonical']", "href", r"/messenger/(\d+)"),
        subject=Field("h1.ipsType_pageTitle"),
        sender=Field(f"{_PM} h3.ipsComment_author a"),
        sender_id=Field(f"{_PM} h3.ipsComment_author a", "href", _PROFILE),
        sent_at=(Field(f"{_PM} p.ipsComment_meta time", "datetime"),),
        body=f"{_PM} {_CONTENT}",
    ),
    forms={"login": "form[action$='/login/']:has(input[name='auth'])",
           "reply": "form:has(input[name^='commentform_'][name$='_submitted']):has(textarea[name^='topic_comment_'])",
           "pm": "form:has(input[name^='commentform_'][name$='_submitted']):has(textarea[name^='messenger_comment_'])"},
)

posts, page_info, thread, inbox, message, form, sent, sent_message, listing, folder = bind(LAYOUT)
