"""MyBB 1.8: login and forms with my_post_key, reply, PM by username (per fixtures/forums/mybb/README.md).

Tested against the saved pages only (tests/test_forum_http_mybb.py); no live MyBB board.
"""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from forumgm.daemon.forum.adapter import ForumAdapter
from forumgm.daemon.forum.errors import ForumError
from forumgm.daemon.forum.page_text import first_text, meta_refresh
from forumgm.parsers.forums import mybb as parser

ERRORS = "div.error, td.trow1 div.error, .error"
_PID = re.compile(r"[?&]pid=(\d+)")


class MybbForum(ForumAdapter):
    parser = parser

    def logged_out(self, html: str) -> bool:
        return "action=logout" not in html

    def _login(self) -> None:
        page, form = self.fetch_form(self.url("member.php?action=login"), "login", login=False)
        result = self.submit(page, form, {"username": self.settings.username, "password": self._password,
                                          "remember": "yes", "submit": "Login"})
        if self.logged_out(result.text):
            reason = first_text(result.text, ERRORS) or "no reason shown"
            raise ForumError(f"login to {self.settings.base_url} as {self.settings.username} failed: {reason}")

    def thread_page_url(self, thread_url: str, page: int) -> str:
        tid = self._tid(thread_url)
        return self.url(f"showthread.php?tid={tid}" + (f"&page={page}" if page > 1 else ""))

    def inbox_url(self, page: int) -> str:
        return self.url("private.php?fid=1" + (f"&page={page}" if page > 1 else ""))

    def sentbox_url(self, page: int) -> str:
        return self.url("private.php?fid=2" + (f"&page={page}" if page > 1 else ""))

    def message_url(self, pm_id: str) -> str:
        return self.url(f"private.php?action=read&pmid={pm_id}")

    def reply(self, thread_url: str, bbcode: str) -> str:
        page, form = self.fetch_form(self.url(f"newreply.php?tid={self._tid(thread_url)}"), "reply")
        result = self.submit(page, form, {"message": bbcode, "submit": "Post Reply"}, follow=False)
        target = result.location or meta_refresh(result.text) or ""
        found = _PID.search(target)
        if not found:
            raise ForumError(f"the forum refused the reply: {first_text(result.text, ERRORS) or 'no message'}")
        return found.group(1)

    def send_pm(self, to_nick: str, subject: str, bbcode: str) -> str:
        page, form = self.fetch_form(self.url("private.php?action=send"), "pm")
        result = self.submit(page, form, {"to": to_nick, "subject": subject, "message": bbcode,
                                          "options[savecopy]": "1", "submit": "Send Message"})
        error = first_text(result.text, ERRORS)
        if error:
            raise ForumError(f"the forum did not send the PM: {error}")
        # MyBB answers with a redirect page that does not name the PM: its sent copy does
        sent = self.parser.inbox(self.fetch(self.sentbox_url(1)).text, self.settings.time_zone)
        same = [h.id for h in sent if h.subject.strip() == subject.strip()]
        if not same:
            raise ForumError("the PM is not in the sent items after sending")
        return max(same, key=int)

    @staticmethod
    def _tid(thread_url: str) -> str:
        query = parse_qs(urlsplit(thread_url).query)
        if "tid" not in query:
            raise ForumError(f"the thread URL {thread_url} has no tid= (a MyBB thread id)")
        return query["tid"][0]
