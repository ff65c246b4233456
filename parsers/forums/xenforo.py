"""XenForo 2.x, default style (post_macros / thread_view / conversation templates).

Markup notes: tests/fixtures/forums/xenforo/README.md. Times are ISO `datetime` attributes.
"""
from __future__ import annotations

from forumgm.parsers.forums.layout import (
    BodyMarkup, EditMarker, EngineLayout, Field, InboxLayout, MessageLayout, Pagination, ThreadLayout,
)
from forumgm.parsers.forums.reader import bind

_USER_ID = Field("h4.message-name .username", "data-user-id")

LAYOUT = EngineLayout(
    name="xenforo",
    thread=ThreadLayout(
        post="article.message--post[data-content^='post-']",
        post_id=Field(attr="data-content", pattern=r"^post-(\d+)$"),
        author=Field(attr="data-author"),
        author_id=_USER_ID,
        posted_at=(Field("ul.message-attribution-main time.u-dt", "datetime"),),
        body="article.message-body div.bbWrapper",
        edit=EditMarker(marker="div.message-lastEdit", time=(Field("time", "datetime"),)),
        pagination=Pagination(container="div.pageNav", current="li.pageNav-page--current"),
    ),
    body=BodyMarkup(quote="blockquote.bbCodeBlock--quote", spoiler="div.bbCodeBlock--spoiler, span.bbCodeInlineSpoiler",
                    code="div.bbCodeBlock--code", ignore="div.bbCodeBlock-expandLink, div.bbCodeBlock-title"),
    inbox=InboxLayout(
        page="div.structItemContainer, div.block-body--conversations, form[action*='conversations']",
        row="div.structItem--conversation",
        id=Field("a.structItem-title", "href", r"\.(\d+)/"),
        subject=Field("a.structItem-title"),
        sender=Field(attr="data-author"),
        sender_id=Field("ul.structItem-parts .username", "data-user-id"),
        sent_at=(Field("ul.structItem-parts time.u-dt", "datetime"),),
        unread=".structItem--conversation.is-unread",
    ),
    message=MessageLayout(
        container="html:has(article.message--conversationMessage)",
        id=Field(attr="data-content-key", pattern=r"conversation-(\d+)"),
        subject=Field("h1.p-title-value"),
        sender=Field("article.message--conversationMessage", "data-author"),
        sender_id=Field("article.message--conversationMessage h4.message-name .username", "data-user-id"),
        sent_at=(Field("article.message--conversationMessage ul.message-attribution-main time.u-dt", "datetime"),),
        body="article.message--conversationMessage div.bbWrapper",
    ),
    forms={"login": "form[action$='/login/login']", "reply": "form[action$='/add-reply']",
           "pm": "form[action$='/conversations/add']"},
)

posts, page_info, thread, inbox, message, form, sent, sent_message, listing, folder = bind(LAYOUT)
