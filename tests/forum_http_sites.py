"""Each engine's fixture board as data: its URLs, its form fields and tokens, how it answers.

URLs and fields follow tests/fixtures/forums/<engine>/README.md (the pages were saved there).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import replace

from forumgm.parsers.forums import fluxbb, ipb3, ipb4, mybb, phpbb, smf, vbulletin3, vbulletin4, xenforo
from forum_http_board import FIXTURES, Flood, FormRule, Removal, Site, Token, UnreadHeader, UploadRule

FORUMS = FIXTURES / "forums"

# What the real boards do to a posted text (seen on MyBB 1.8.37, FluxBB 1.5.11, SMF 2.1.4):
# MyBB trims blank and zero-width characters at both ends (trim_blank_chrs); FluxBB drops
# invisible characters everywhere (remove_bad_characters) and trims; SMF 2.1 turns some of
# them into U+FFFD (sanitize_chars).
_INVISIBLE = "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060\ufeff"


def mybb_trim(text: str) -> str:
    return text.strip(" \t\r\n\u00a0" + _INVISIBLE)


def fluxbb_clean(text: str) -> str:
    return re.sub(f"[{_INVISIBLE}\ufffd]", "", text).strip()


def smf_sanitise(text: str) -> str:
    return re.sub("[\u200b\u200d\u2060\ufeff]", "\ufffd", text)


_MYBB_KEY = (Token("my_post_key", "MYBB_POST_KEY_PLACEHOLDER"),)
MYBB = Site(
    engine="mybb", layout=mybb.LAYOUT, fixtures=FORUMS / "mybb", origin="http://127.0.0.1:8081/",
    login_page="login.html", home="index.php",
    login=FormRule(r"member\.php", "login.html", _MYBB_KEY, {"username": "username", "password": "password"}),
    thread=r"showthread\.php\?tid=1(?:&page=(?P<page>\d+))?",
    thread_pages=("thread_page1.html", "thread_page2.html", "thread_page3_last.html"),
    reply=FormRule(r"newreply\.php\?tid=1&processed=1", "newreply_form.html", _MYBB_KEY, {"message": "message"},
                   answer="refresh", target="showthread.php?tid=1&pid={id}#pid{id}"),
    refusal='<div class="error"><p><em>Please correct the following errors before continuing:</em></p>'
            "<ul><li>{message}</li></ul></div>",
    pages=((r"index\.php", "index.html"), (r"newreply\.php\?tid=1", "newreply_form.html"),
           (r"private\.php\?action=send", "pm_compose.html"), (r"private\.php\?fid=0", "pm_inbox.html"),
           (r"private\.php\?action=read&pmid=1", "pm_view_1.html"),
           (r"private\.php\?action=read&pmid=3", "pm_view_2.html")),
    pm=FormRule(r"private\.php", "pm_compose.html", _MYBB_KEY, {"to": "to", "subject": "subject", "message": "message"},
                answer="refresh", target="private.php"),
    sanitise=mybb_trim,
    # a file is added with the reply form's "Add Attachment" button; 500 KB is the stock limit for a PNG
    upload=UploadRule(r"newreply\.php\?tid=1&processed=1", "attachments[]", "real_newattachment_answer.html",
                      "real_newattachment_too_large.html", r"\[attachment=(?P<ref>\d+)\]", "real_inline_attachment.html",
                      max_size=500 * 1024, tokens=_MYBB_KEY),
    sentbox=r"private\.php\?fid=2", sent_message=r"private\.php\?action=read&pmid=(\d{3,})",
    pm_row_from="pm_inbox.html", pm_view_from="pm_view_1.html",
    placeholders=("MYBB_POST_KEY_PLACEHOLDER", "MYBB_LOGOUT_KEY_PLACEHOLDER"),
)

_SMF_SESSION = Token("SMF_SESSION_VAR_PLACEHOLDER", "SMF_SESSION_ID_PLACEHOLDER")
SMF = Site(
    engine="smf", layout=smf.LAYOUT, fixtures=FORUMS / "smf", origin="http://127.0.0.1:8083/",
    login_page="login.html", home="index.php",
    login=FormRule(r"index\.php\?action=login2", "login.html",
                   (_SMF_SESSION, Token("SMF_TOKEN_VAR_PLACEHOLDER", "SMF_TOKEN_VALUE_PLACEHOLDER")),
                   {"username": "user", "password": "passwrd"}),
    thread=r"index\.php\?topic=2\.(?P<start>\d+)",
    thread_pages=("thread_page1.html", "thread_page2.html", "thread_page3_last.html"),
    # SMF 2.1 sends to the topic's new posts, not to the post: the answer does not name it
    reply=FormRule(r"index\.php\?action=post2;start=0;board=2", "newreply_form.html", (_SMF_SESSION,),
                   {"message": "message"}, target="index.php?topic=2.new#new"),
    refusal='<div class="errorbox" id="errors"><dl><dt><strong id="error_serious">The following error or errors '
            'occurred while posting this message:</strong></dt><dd class="error" id="error_list">{message}</dd>'
            "</dl></div>",
    pages=((r"index\.php", "index.html"), (r"index\.php\?action=post;topic=2\.0", "newreply_form.html"),
           (r"index\.php\?action=pm;sa=send", "pm_compose.html"), (r"index\.php\?action=pm(?:;f=inbox)?", "pm_inbox.html"),
           (r"index\.php\?action=pm;pmsg=1", "pm_view_1.html"), (r"index\.php\?action=pm;pmsg=2", "pm_view_2.html")),
    pm=FormRule(r"index\.php\?action=pm;sa=send2", "pm_compose.html", (_SMF_SESSION,),
                {"to": "to", "subject": "subject", "message": "message"},
                target="index.php?action=pm;f=inbox;l=-1;done=sent"),
    sentbox=r"index\.php\?action=pm;f=sent", sent_message=r"index\.php\?action=pm;f=sent;pmsg=(\d+)",
    pm_row_from="pm_inbox.html", pm_view_from="pm_view_1.html",
    placeholders=("SMF_SESSION_VAR_PLACEHOLDER", "SMF_SESSION_ID_PLACEHOLDER", "SMF_TOKEN_VAR_PLACEHOLDER",
                  "SMF_TOKEN_VALUE_PLACEHOLDER"),
    sanitise=smf_sanitise, floods=(Flood(2.0, "real_flood_403.html"),),   # an admin's fixed 2 s
    # the post form's scripts upload a file at once and get its id (JSON); 128 KB is the stock limit
    upload=UploadRule(r"index\.php\?action=uploadAttach;sa=add;board=2", "attachment[]", "real_upload_answer.json",
                      "real_upload_too_large.json", r"\[attach id=(?P<ref>\d+)\][^\[]*\[/attach\]",
                      "real_inline_attachment.html", media_type="application/json"),
)

_PHPBB_TOKEN = (Token("form_token", "PHPBB_FORM_TOKEN_PLACEHOLDER"),)
PHPBB = Site(
    engine="phpbb", layout=phpbb.LAYOUT, fixtures=FORUMS / "phpbb", origin="http://127.0.0.1:8084/",
    login_page="login.html", home="index.php",
    login=FormRule(r"ucp\.php\?mode=login&sid=\w+", "login.html", _PHPBB_TOKEN,
                   {"username": "username", "password": "password"}),
    thread=r"viewtopic\.php\?t=2(?:&start=(?P<start>\d+))?",
    thread_pages=("thread_page1.html", "thread_page2.html", "thread_page3_last.html"),
    reply=FormRule(r"posting\.php\?mode=reply&t=2", "newreply_form.html", _PHPBB_TOKEN, {"message": "message"},
                   target="viewtopic.php?p={id}#p{id}"),
    refusal='<p class="error">{message}</p>',
    pages=((r"index\.php", "index.html"), (r"posting\.php\?mode=reply&t=2", "newreply_form.html")),
    placeholders=("PHPBB_FORM_TOKEN_PLACEHOLDER", "PHPBB_SID_ANON_PLACEHOLDER", "PHPBB_SID_HOST_PLACEHOLDER",
                  "PHPBB_LINK_HASH_PLACEHOLDER"),
    # "Add the file" shows the form again with the upload listed first (attachment_data[0]); an inline
    # tag names an upload by its place in that list
    upload=UploadRule(r"posting\.php\?mode=reply&t=2", "fileupload", "real_reply_add_file.html",
                      "real_reply_add_file_refused.html", r"\[attachment=(?P<ref>\d+)\][^\[]*\[/attachment\]",
                      "real_inline_attachment.html", by_index=True, max_size=256 * 1024, tokens=_PHPBB_TOKEN),
)

# SMF's inbox as the real board lists 18 PMs, 5 a page, oldest first: without `start` it opens on
# its last page (real_pm_inbox_start15.html); every page links the others by `start`
_SMF_INBOX_PAGE = r"index\.php\?action=pm;f=inbox;sort=date;start={start}"
SMF_PAGED_INBOX = replace(SMF, pages=(
    *((_SMF_INBOX_PAGE.format(start=start), f"real_pm_inbox_start{start}.html") for start in (0, 5, 10, 15)),
    (r"index\.php\?action=pm(?:;f=inbox)?", "real_pm_inbox_start15.html"),
    *SMF.pages,
), received_view=(r"index\.php\?action=pm;pmsg=(\d+)", "real_pm_view_19.html", "19", 'id="msg{id}"'))

# Removing PMs as the real boards did for the account Гость (tests/fixtures/forums/*/README.md):
# MyBB's Inbox (fid=0) with his folder "forumgm", its do_stuff form moving or deleting (a delete
# goes to the Trash Can, deleted for good from there); SMF's pmactions form of the inbox page.
MYBB_CLEANUP = replace(
    MYBB,
    pages=((r"private\.php\?fid=0", "real_pm_inbox_with_folder.html"), (r"private\.php\?fid=4", "real_pm_trash.html"),
           *MYBB.pages),
    placeholders=(*MYBB.placeholders, "SESSION_TOKEN"),
    received_view=(r"private\.php\?action=read&pmid=(\d+)", "real_pm_view_71.html", "71", "pmid={id}"),
    removal=Removal(path=r"private\.php", when={"action": "do_stuff"}, tokens=(Token("my_post_key", "SESSION_TOKEN"),),
                    mark=r"check\[(\d+)\]=1", delete="delete", move="moveto", folder="fid", trash=True,
                    inbox=r"private\.php\?fid=0(?:&page=\d+)?", answer="refresh", target="private.php?fid=0"),
)
SMF_CLEANUP = replace(
    SMF,
    pages=((r"index\.php\?action=pm(?:;f=inbox)?", "real_pm_inbox_to_remove.html"), *SMF.pages),
    placeholders=(*SMF.placeholders, "SESSION_VAR", "SESSION_TOKEN"),
    received_view=(r"index\.php\?action=pm;pmsg=(\d+)", "real_pm_view_19.html", "19", 'id="msg{id}"'),
    removal=Removal(path=r"index\.php\?action=pm;sa=pmactions;f=inbox;start=\d+", tokens=(Token("SESSION_VAR", "SESSION_TOKEN"),),
                    mark=r"pms\[\d+\]=(\d+)", delete="del_selected", inbox=r"index\.php\?action=pm(?:;f=inbox.*)?",
                    target="index.php?action=pm;f=inbox;start=0"),
)

FLUXBB = Site(
    engine="fluxbb", layout=fluxbb.LAYOUT, fixtures=FORUMS / "fluxbb", origin="http://127.0.0.1:8082/",
    login_page="login.html", home="index.php",
    login=FormRule(r"login\.php\?action=in", "login.html", (Token("csrf_token", "FLUXBB_CSRF_TOKEN_PLACEHOLDER"),),
                   {"username": "req_username", "password": "req_password"}),
    thread=r"viewtopic\.php\?id=2(?:&p=(?P<page>\d+))?",
    thread_pages=("thread_page1.html", "thread_page2.html", "thread_page3_last.html"),
    reply=FormRule(r"post\.php\?action=post&tid=2", "newreply_form.html", (), {"message": "req_message"},
                   answer="refresh", target="viewtopic.php?pid={id}#p{id}", referer=r"/(post|viewtopic)\.php"),
    sanitise=fluxbb_clean,
    refusal='<div id="posterror" class="block"><h2><span>Post errors</span></h2><div class="box">'
            '<div class="inbox error-info"><ul class="error-list"><li><strong>{message}</strong></li></ul>'
            "</div></div></div>",
    pages=((r"index\.php", "index.html"), (r"post\.php\?tid=2", "newreply_form.html")),
    placeholders=("FLUXBB_CSRF_TOKEN_PLACEHOLDER",),
)

_XF_TOKEN = (Token("_xfToken", "XF_TOKEN_PLACEHOLDER"),)
XENFORO = Site(
    engine="xenforo", layout=xenforo.LAYOUT, fixtures=FORUMS / "xenforo", origin="http://xenforo.invalid/",
    login_page="login.html", home="",
    login=FormRule(r"login/login", "login.html", _XF_TOKEN, {"username": "login", "password": "password"}),
    thread=r"threads/igra-1\.7/(?:page-(?P<page>\d+))?",
    thread_pages=("thread_page2.html",),   # the one saved page stands for every page
    reply=FormRule(r"threads/igra-1\.7/add-reply", "thread_page2.html", _XF_TOKEN, {"message": "message"},
                   target="posts/{id}/"),
    refusal='<div class="blockMessage blockMessage--error blockMessage--iconic">{message}</div>',
    pages=((r"", "conversations.html"), (r"threads/igra-1\.7/reply", "thread_page2.html"),
           (r"conversations/", "conversations.html"), (r"conversations/(?:[^/]*\.)?1/", "conversation_view.html"),
           (r"conversations/add", "../../forum_http/xenforo_conversation_add.html")),
    pm=FormRule(r"conversations/add", "../../forum_http/xenforo_conversation_add.html", _XF_TOKEN,
                {"to": "recipients", "subject": "title", "message": "message"}, target="conversations/new.{id}/"),
    sentbox=r"conversations/", sent_message=r"conversations/(?:[^/]*\.)?(\d{3,})/",
    pm_row_from="conversations.html", pm_view_from="conversation_view.html",
    placeholders=("XF_TOKEN_PLACEHOLDER",), sent_listed_with_inbox=True,
)

_IPB3_KEY = (Token("auth_key", "IPB_AUTH_KEY_PLACEHOLDER"),)
_IPB3_MESSENGER = r"index\.php\?app=members&module=messaging"
IPB3 = Site(
    engine="ipb3", layout=ipb3.LAYOUT, fixtures=FORUMS / "ipb3", origin="http://forum.example.ru/",
    login_page="login.html", home="index.php",
    login=FormRule(r"index\.php\?app=core&module=global&section=login&do=process", "login.html",
                   (Token("auth_key", "880ea6a14ea49e853634fbdc5015a024"),),
                   {"username": "ips_username", "password": "ips_password"}),
    thread=r"index\.php\?showtopic=7(?:&page=(?P<page>\d+))?",
    thread_pages=("thread_page1.html", "thread_page2_last.html"), per_page=4,
    reply=FormRule(r"index\.php", "thread_page2_last.html", _IPB3_KEY, {"message": "Post"},
                   target="index.php?showtopic=7&view=findpost&p={id}"),
    refusal="<p class='message error'>{message}</p>",
    pages=((r"index\.php", "thread_page1.html"),   # the board index stands in for itself
           (rf"{_IPB3_MESSENGER}&section=send&do=form", "pm_compose.html"),
           (rf"{_IPB3_MESSENGER}&section=view&do=showConversation&topicID=9", "pm_view.html")),
    pm=FormRule(rf"{_IPB3_MESSENGER}&section=send&do=send", "pm_compose.html", _IPB3_KEY,
                {"to": "entered_name", "subject": "msg_title", "message": "Post"},
                answer="pm_sent_redirect.html",
                target="index.php?app=members&module=messaging&section=view&do=inbox"),
    sentbox=rf"{_IPB3_MESSENGER}&section=view&do=showFolder&folderID=myconvo(?:&st=\d+)?",
    sent_message=rf"{_IPB3_MESSENGER}&section=view&do=showConversation&topicID=(\d{{3,}})",
    pm_row_from="pm_inbox.html", pm_view_from="pm_view.html",
    placeholders=("IPB_AUTH_KEY_PLACEHOLDER", "880ea6a14ea49e853634fbdc5015a024"), sent_listed_with_inbox=True,
)

_IPS_KEY = (Token("csrfKey", "IPS_CSRF_KEY_PLACEHOLDER"),)
IPB4 = Site(
    engine="ipb4", layout=ipb4.LAYOUT, fixtures=FORUMS / "ipb4", origin="https://forum.example.ru/",
    login_page="login.html", home="",
    login=FormRule(r"login/", "login.html", _IPS_KEY, {"username": "auth", "password": "password"}),
    thread=r"topic/7-igra-1-den-1/(?:\?page=(?P<page>\d+))?",
    thread_pages=("thread_page1.html", "thread_page2_last.html"), per_page=4,
    reply=FormRule(r"topic/7-igra-1-den-1/(?:page/\d+/)?", "thread_page1.html", _IPS_KEY,
                   {"message": "topic_comment_7"}, target="topic/7-igra-1-den-1/?do=findComment&comment={id}"),
    refusal='<div class="ipsMessage ipsMessage_error">{message}</div>',
    pages=((r"", "pm_inbox.html"), (r"messenger/compose/", "pm_compose.html"), (r"messenger/9/", "pm_view.html")),
    pm=FormRule(r"messenger/compose/", "pm_compose.html", _IPS_KEY,
                {"to": "messenger_to", "subject": "messenger_title", "message": "messenger_content"},
                target="messenger/{id}/"),
    sentbox=r"messenger/(?:\?page=\d+)?", sent_message=r"messenger/(\d{3,})/",
    pm_row_from="pm_inbox.html", pm_view_from="pm_view.html",
    placeholders=("IPS_CSRF_KEY_PLACEHOLDER",), sent_listed_with_inbox=True,
)
# PMs coming to the host: listed in the messenger, counted by the user bar's inbox icon until opened;
# every conversation listed can be opened (the saved one stands for the others)
IPB4_MAILBOX = replace(IPB4, inbox=IPB4.sentbox, received_view=(r"messenger/(\d+)/", "pm_view.html", "9", "messenger/{id}/"),
                       unread=UnreadHeader(
    none="<span class='ipsNotificationCount ipsHide' data-notificationType='inbox' data-currentCount='0'>0</span>",
    some="<span class='ipsNotificationCount' data-notificationType='inbox' data-currentCount='{n}'>{n}</span>"))


def _vbulletin(engine, layout, refusal: str) -> Site:
    """vBulletin 3 and 4 serve the same scripts; their pages and error markup differ."""
    token = (Token("securitytoken", "1796045400-VB_SECURITYTOKEN_PLACEHOLDER"),)
    return Site(
        engine=engine, layout=layout, fixtures=FORUMS / engine, origin="http://forum.example.ru/",
        login_page="login.html", home="index.php",
        login=FormRule(r"login\.php\?(?:s=&)?do=login", "login.html", (Token("securitytoken", "guest"),),
                       {"username": "vb_login_username", "password": "vb_login_md5password"},
                       answer="redirect.html"),
        # the md5 the login script sends; for an ASCII password that is md5 of its bytes
        password_digest=lambda password: hashlib.md5(password.encode("ascii")).hexdigest(),
        thread=r"showthread\.php\?t=7(?:&page=(?P<page>\d+))?",
        thread_pages=("thread_page1.html", "thread_page2_last.html"), per_page=4,
        reply=FormRule(r"newreply\.php\?do=postreply&t=7", "thread_page2_last.html", token, {"message": "message"},
                       answer="redirect.html", target="showthread.php?p={id}#post{id}"),
        refusal=refusal,
        pages=((r"index\.php", "pm_inbox.html"), (r"private\.php\?folderid=0", "pm_inbox.html"),
               (r"private\.php\?do=newpm", "pm_compose.html"), (r"private\.php\?do=showpm&pmid=9", "pm_view.html")),
        pm=FormRule(r"private\.php\?do=insertpm&pmid=", "pm_compose.html", token,
                    {"to": "recipients", "subject": "title", "message": "message"},
                    answer="redirect.html", target="private.php"),
        sentbox=r"private\.php\?folderid=-1(?:&page=\d+)?", sent_message=r"private\.php\?do=showpm&pmid=(\d{3,})",
        pm_row_from="pm_inbox.html", pm_view_from="pm_view.html",
        placeholders=("1796045400-VB_SECURITYTOKEN_PLACEHOLDER", "VB_LOGOUTHASH_PLACEHOLDER",
                      "VB_POSTHASH_PLACEHOLDER"),
    )


VBULLETIN3 = _vbulletin(
    "vbulletin3", vbulletin3.LAYOUT,
    '<table class="tborder" cellpadding="6" cellspacing="1" border="0" width="100%" align="center"><tr>'
    '<td class="tcat">При обработке вашего сообщения возникли ошибки</td></tr>'
    '<tr><td class="alt1"><ol><li>{message}</li></ol></td></tr></table>')
VBULLETIN4 = _vbulletin(
    "vbulletin4", vbulletin4.LAYOUT,
    '<div class="blockrow error"><h3>При обработке вашего сообщения возникли ошибки</h3>'
    "<ol><li>{message}</li></ol></div>")
# private.php's do=managepm as its public source reads it: pm[ID] boxes, dowhat=delete, the token
VBULLETIN4_CLEANUP = replace(
    VBULLETIN4,
    received_view=(r"private\.php\?do=showpm&pmid=(\d+)", "pm_view.html", "9", 'name="pmid" value="{id}"'),
    removal=Removal(path=r"private\.php\?do=managepm&folderid=0", when={"dowhat": "delete"},
                    tokens=(Token("securitytoken", "1796045400-VB_SECURITYTOKEN_PLACEHOLDER"),),
                    mark=r"pm\[(\d+)\]=yes", delete="dowhat", inbox=r"private\.php\?folderid=0(?:&page=\d+)?",
                    answer="redirect.html", target="private.php?folderid=0"),
)

# The boards' stock flood rules for a member who is neither admin nor moderator, with the refusal
# pages saved from them (tests/fixtures/forums/*/README.md): MyBB holds a member's PMs 60 s apart
# (`pmfloodsecs`) and his posts 60 s apart (`postfloodsecs`), each answered with the form and
# "Please wait N more seconds."; phpBB holds posts and PMs together 15 s apart (`flood_interval`)
# and names no pause; SMF holds posts and PMs, each on its own, 5 s apart (`spamWaitTime`) with a
# 403 page, a refused POST counting as the last.
_MYBB_LEFT = r"\d+(?= more seconds?)"
MYBB_MEMBER = replace(MYBB, floods=(
    Flood(60.0, "real_pm_flood.html", ("pm",), status=200, refused_counts=False, left=_MYBB_LEFT),
    Flood(60.0, "real_reply_flood.html", ("reply",), status=200, refused_counts=False, left=_MYBB_LEFT)))
PHPBB_MEMBER = replace(PHPBB, floods=(
    Flood(15.0, "real_reply_flood.html", ("reply", "pm"), status=200, refused_counts=False),))
SMF_MEMBER = replace(SMF, floods=(Flood(5.0, "real_reply_flood_403.html", ("reply",)),
                                  Flood(5.0, "real_pm_flood_403.html", ("pm",)), Flood(2.0, "real_flood_403.html", ("login",))))

# a member's sent items as MyBB 1.8.37 showed them to Гость (real_pm_sent_*.html): the quota bar of the
# saved page (85 % of 200, or full), a row per PM sent, deleted through the Trash Can like the inbox's
_MYBB_SENT_REMOVAL = replace(MYBB_CLEANUP.removal, inbox=r"private\.php\?fid=2(?:&page=\d+)?", target="private.php?fid=2")
MYBB_SENT_85 = replace(MYBB, pages=((r"private\.php\?fid=4", "real_pm_trash.html"), *MYBB.pages),
                       placeholders=MYBB_CLEANUP.placeholders, pm_row_from="real_pm_sent_85_percent.html",
                       removal=_MYBB_SENT_REMOVAL, sentbox=_MYBB_SENT_REMOVAL.inbox)   # its page links lead to itself
MYBB_SENT_FULL = replace(MYBB_SENT_85, pm_row_from="real_pm_sent_quota_full.html")

# a member with fewer than 5 posts under SMF's stock pm_spam_settings ("10,5,20"): the PM form asks for a
# picture to be read (real_pm_compose_verification.html, saved as Ильмаринен, 0 posts)
SMF_NEW_MEMBER = replace(SMF, pages=((r"index\.php\?action=pm;sa=send", "real_pm_compose_verification.html"),
                                     *SMF.pages))
