"""FluxBB 1.5 (and PunBB 1.2/1.3, which share the markup), style "Air".

FluxBB has no private messages: inbox() and message() raise PageLayoutError.
Markup described in tests/fixtures/forums/fluxbb/README.md.
"""
from __future__ import annotations

from forumgm.parsers.forums.layout import BodyMarkup, EditMarker, EngineLayout, Field, Pagination, ThreadLayout
from forumgm.parsers.forums.reader import bind

LAYOUT = EngineLayout(
    name="fluxbb",
    thread=ThreadLayout(
        post="div.blockpost[id^='p']",
        post_id=Field(attr="id", pattern=r"^p(\d+)$"),
        author=Field("div.postleft dt strong"),
        author_id=Field("div.postleft dt a", "href", r"profile\.php\?id=(\d+)"),
        posted_at=(Field("h2 a[href*='pid=']"),),
        body="div.postright > div.postmsg",
        edit=EditMarker(
            marker="div.postmsg p.postedit",
            time=(Field(pattern=r"\((.+)\)\s*$"),),
            editor=Field(pattern=r"Last edited by (.+?)\s*\("),
        ),
        pagination=Pagination(container="p.pagelink", current="strong"),
    ),
    body=BodyMarkup(quote="div.quotebox", code="div.codebox", spoiler="div.spoiler", ignore="p.postedit"),
    inbox=None,
    message=None,
    forms={"login": "form#login", "reply": "form#post", "quickreply": "form#quickpostform"},
)

posts, page_info, thread, inbox, message, form, sent, sent_message, listing, folder = bind(LAYOUT)
