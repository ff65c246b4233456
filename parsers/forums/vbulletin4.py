"""vBulletin 4.2, default style with the legacy postbit (`postbit_legacy`) and a Russian language pack.

Markup notes: tests/fixtures/forums/vbulletin4/README.md. Phrases, the custom spoiler and the forms
are those of vBulletin 3.8 (see vbulletin3.py); the markup around them is 4.x's.
"""
from __future__ import annotations

from forumgm.parsers.forums.layout import (
    BodyMarkup, EditMarker, EngineLayout, Field, InboxLayout, MessageLayout, Pagination, ThreadLayout,
)
from forumgm.parsers.forums.reader import bind
from forumgm.parsers.forums.vbulletin3 import EDIT_TIME, EDITOR, FORMS, PROFILE, SPOILER, TOTAL_PAGES

_USER = "div.username_container a.username"
_PM = "div#showpm li.postcontainer"

LAYOUT = EngineLayout(
    name="vbulletin4",
    thread=ThreadLayout(
        post="ol#posts > li.postcontainer[id^='post_']",
        post_id=Field(attr="id", pattern=r"^post_(\d+)$"),
        author=Field(_USER),
        author_id=Field(_USER, "href", PROFILE),
        posted_at=(Field("div.posthead span.date"),),
        body="div[id^='post_message_']",
        edit=EditMarker(marker="blockquote.lastedited", time=(Field(pattern=EDIT_TIME),), editor=Field(pattern=EDITOR)),
        pagination=Pagination(container="form.pagination", current="span.selected a",
                              total=Field("a.popupctrl", pattern=TOTAL_PAGES)),
    ),
    body=BodyMarkup(quote="div.bbcode_quote", code="pre.bbcode_code", spoiler=SPOILER,
                    ignore="div.bbcode_description, div[style*='margin:20px'] > div.smallfont"),
    inbox=InboxLayout(
        page="form#pmform[action*='do=managepm']",
        row="li.pmbit[id^='pm_']",
        id=Field(attr="id", pattern=r"^pm_(\d+)$"),
        subject=Field("a.title"),
        sender=Field("ol.commalist a.username"),
        sender_id=Field("ol.commalist a.username", "href", PROFILE),
        sent_at=(Field("span.date"),),
        unread="span.unread",
    ),
    message=MessageLayout(
        container="html:has(div#showpm):has(form[action*='do=insertpm'] input[name='pmid'])",
        id=Field("form[action*='do=insertpm'] input[name='pmid']", "value"),
        subject=Field(f"{_PM} h2.title"),
        sender=Field(f"{_PM} {_USER}"),
        sender_id=Field(f"{_PM} {_USER}", "href", PROFILE),
        sent_at=(Field(f"{_PM} span.date"),),
        body=f"{_PM} div[id='post_message_']",
    ),
    forms=FORMS,
)

posts, page_info, thread, inbox, message, form, sent, sent_message, listing, folder = bind(LAYOUT)
