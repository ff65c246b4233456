"""vBulletin 3.8 and 4.2 (per tests/fixtures/forums/vbulletin3|4/README.md): the same scripts and form
names (`securitytoken` in every form), different markup.

The login form's script sends the password only as md5 digests (vbulletin_md5.js: `md5hash()`
fills `vb_login_md5password` and `vb_login_md5password_utf` and empties the password field);
the adapter sends what that script would. The board answers a login, a reply and a PM with a
"thank you, redirecting" page; a sent PM is named only by its copy in the sent items.
"""
from __future__ import annotations

import hashlib
from dataclasses import replace

from forumgm.daemon.forum.adapter import ForumAdapter
from forumgm.daemon.forum.spec import EngineSpec, FormStep, Paged, PmRemoval, PmSpec
from forumgm.parsers.forums import vbulletin3, vbulletin4
from forumgm.parsers.forums.base import Form
from forumgm.parsers.forums.layout import Field
from forumgm.parsers.forums.unread import UnreadCount

VBULLETIN3 = EngineSpec(
    name="vBulletin 3",
    # the navbar's logout link (vB 3.8 `navbar`, vB 4.2 `header`: `login.php?{session}do=logout&amp;
    # logouthash=…`): its onclick, which no post can carry (the board writes a post's quotes as
    # &quot;), where a player may post the URL itself
    logged_in='onclick="return log_out(',
    # STANDARD_ERROR's message, then newpost_errormessage's list (shown above a refused form)
    errors="td.panelsurround div.panel div[style*='margin: 10px'], td.alt1 > ol > li",
    thread_id=r"showthread\.php\?(?:(?:[^#]*&)?t=)?(\d+)",   # showthread.php?t=7 or showthread.php?7-Slug
    thread_page=Paged("showthread.php?t={thread}", "showthread.php?t={thread}&page={page}"),
    login=FormStep("login.php?do=login", "login",
                   {"username": "vb_login_username", "password": "vb_login_md5password"}, {"cookieuser": "1"}),
    reply=FormStep("showthread.php?t={thread}", "reply", {"message": "message"},
                   {"sbutton": "Отправить быстрый ответ"}),
    reply_ref=r"[?&]p=(\d+)",
    post_link="showthread.php?p={post}#post{post}",
    pm=PmSpec(
        inbox=Paged("private.php?folderid=0", "private.php?folderid=0&page={page}"),
        sentbox=Paged("private.php?folderid=-1", "private.php?folderid=-1&page={page}"),
        message="private.php?do=showpm&pmid={pm}",
        send=FormStep("private.php?do=newpm", "pm", {"to": "recipients", "subject": "title", "message": "message"},
                      {"sbutton": "Отправить сообщение"}),
        # the folder's form, as private.php reads it on do=managepm (its public source): a box
        # pm[ID] per PM and dowhat=delete delete them at once; every folder counts against the
        # PM quota, so moving frees nothing
        removal=PmRemoval(form='form[name="pmform"], form#pmform', mark="pm[{pm}]", mark_value="yes",
                          delete={"do": "managepm", "dowhat": "delete"}),
    ),
    # the navbar: with a notification waiting (global.php: any count above 0), "Your Notifications"
    # and its menu, a row per kind, the PMs' linked to private.php with its number right-aligned;
    # with none, the line "Private Messages: Unread 0, Total 3." (phrase private_messages_nav, the
    # unread first whatever the language)
    unread_pms=(
        UnreadCount("div#notifications_menu", Field("td[align] > a[href*='private.php']", pattern=r"^(\d+)$")),
        UnreadCount("td.alt2 > div.smallfont > div:has(> a[href*='private.php'])", Field(pattern=r":\D*(\d+)\D+\d")),
    ),
)

VBULLETIN4 = replace(
    VBULLETIN3,
    name="vBulletin 4",
    # STANDARD_ERROR's message, then newpost_errormessage's list
    errors="div.standard_error div.blockrow, div.blockrow.error ol li",
    # the header's toplinks: "Your Notifications" lists a kind only when its count is above 0
    # (vB_Bootstrap::build_notifications), the PMs' as <a href="private.php"><span>N</span> ...;
    # with none at all it is li#nonotifications
    unread_pms=(UnreadCount("div#toplinks li#notifications, div#toplinks li#nonotifications",
                            Field("a[href*='private.php'] > span", pattern=r"^(\d+)$"), absent_is_zero=True),),
)


def script_md5(text: str) -> str:
    """hex_md5() of vbulletin_md5.js: one byte per UTF-16 unit, its high byte dropped (chrsz = 8)."""
    return hashlib.md5(text.encode("utf-16-le")[::2]).hexdigest()


def html_entities(text: str) -> str:
    """str_to_ent() of vbulletin_md5.js: a character above U+00FF becomes `&#N;`."""
    return "".join(char if ord(char) <= 255 else f"&#{ord(char)};" for char in text)


class _Vbulletin(ForumAdapter):
    def login_values(self, form: Form) -> dict[str, str]:
        password = self._password.strip(" ")
        return {**super().login_values(form), "vb_login_password": "",
                "vb_login_md5password": script_md5(html_entities(password)),
                "vb_login_md5password_utf": script_md5(password)}


class Vbulletin3Forum(_Vbulletin):
    spec = VBULLETIN3
    parser = vbulletin3


class Vbulletin4Forum(_Vbulletin):
    spec = VBULLETIN4
    parser = vbulletin4
