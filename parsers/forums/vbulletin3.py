"""vBulletin 3.8, default style with the legacy postbit (`postbit_legacy`) and a Russian language pack.

Markup notes: tests/fixtures/forums/vbulletin3/README.md. vBulletin prints relative Russian dates
(«Сегодня, 13:59», «Вчера, 22:10»): reading them needs the fetch time. Its BBCode blocks carry no
classes, only the inline `margin:20px` style of the `bbcode_quote` / `bbcode_code` templates.
"""
from __future__ import annotations

from forumgm.parsers.forums.layout import (
    BodyMarkup, EditMarker, EngineLayout, Field, InboxLayout, MessageLayout, Pagination, ThreadLayout,
)
from forumgm.parsers.forums.reader import bind

PROFILE = r"member\.php\?(?:[^'\"]*?&(?:amp;)?)?(?:u=)?(\d+)"   # member.php?u=58 or member.php?58-Name
EDIT_TIME = r";\s*(.+?\d:\d\d(?:\s*[AP]M)?)"                   # "…редактировалось Ник; Сегодня в 09:20."
EDITOR = r"(?:редактировалось|edited by)\s+(.+?);"
TOTAL_PAGES = r"(?:из|of)\s+(\d+)"                               # "Страница 1 из 2"
SPOILER = "div:has(> div.smallfont > input[type='button'])"    # the usual custom [spoiler] BB code
FORMS = {"login": "form[action*='login.php'][action*='do=login']",   # 4.x writes login.php?s=&do=login
         "reply": "form#qrform[action*='newreply.php'], form[name='vbform'][action*='newreply.php']",
         "pm": "form[action*='private.php?do=insertpm']"}
_BLOCK = "div[style*='margin:20px']"
_PM_ROW_USER = "span[onclick*='member.php']"

LAYOUT = EngineLayout(
    name="vbulletin3",
    thread=ThreadLayout(
        post="div#posts table.tborder[id^='post']",
        post_id=Field(attr="id", pattern=r"^post(\d+)$"),
        author=Field("a.bigusername"),
        author_id=Field("a.bigusername", "href", PROFILE),
        posted_at=(Field("td.thead"),),
        body="div[id^='post_message_']",
        edit=EditMarker(marker="td[id^='td_post_'] > div.smallfont:has(> em)",
                        time=(Field("em", pattern=EDIT_TIME),), editor=Field("em", pattern=EDITOR)),
        pagination=Pagination(container="div.pagenav", current="td.alt2 strong",
                              total=Field("td.vbmenu_control", pattern=TOTAL_PAGES)),
    ),
    body=BodyMarkup(quote=f"{_BLOCK}:has(> table td.alt2)", code=f"{_BLOCK}:has(> pre)", spoiler=SPOILER,
                    ignore=f"{_BLOCK} > div.smallfont"),
    inbox=InboxLayout(
        page="form[name='pmform'][action*='do=managepm']",
        row="form[name='pmform'] td[id^='m']:has(a[href*='do=showpm'])",
        id=Field("a[href*='do=showpm']", "href", r"pmid=(\d+)"),
        subject=Field("a[href*='do=showpm']"),
        sender=Field(_PM_ROW_USER),
        sender_id=Field(_PM_ROW_USER, "onclick", PROFILE),
        sent_at=(Field("span[style*='float']", joined=True),),   # the date and the time are two spans
        unread="a[href*='do=showpm'] > strong",
    ),
    message=MessageLayout(
        container="html:has(form[action*='do=insertpm'] input[name='pmid']):has(div[id='post_message_'])",
        id=Field("form[action*='do=insertpm'] input[name='pmid']", "value"),
        subject=Field("td[id^='td_post_'] > div.smallfont > strong"),
        sender=Field("table#post a.bigusername"),
        sender_id=Field("table#post a.bigusername", "href", PROFILE),
        sent_at=(Field("table#post td.thead"),),
        body="div[id='post_message_']",
    ),
    forms=FORMS,
)

posts, page_info, thread, inbox, message, form, sent, sent_message, listing, folder = bind(LAYOUT)
