"""phpBB 3.x (prosilver): login with form_token, reply, PM with address_list, inbox and sentbox."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlencode, urlsplit

from forumgm.daemon.forum.adapter import ForumAdapter
from forumgm.daemon.forum.errors import ForumError
from forumgm.daemon.forum.http import Page
from forumgm.daemon.forum.page_text import first_text, meta_refresh
from forumgm.parsers.forums import phpbb as parser

ERRORS = "form#postform p.error, form#login div.error, div#message p, p.error, div.error"
NEW_POSTS_NOTICE = "At least one new post has been made to this topic"
_POST_ID = re.compile(r"[?&]p=(\d+)")
_START = re.compile(r"[?&;]start=(\d+)")


class PhpbbForum(ForumAdapter):
    parser = parser

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._per_page: dict[str, int] = {}

    def logged_out(self, html: str) -> bool:
        return 'id="username_logged_in"' not in html

    def _login(self) -> None:
        page, form = self.fetch_form(self.url("ucp.php?mode=login"), "login", login=False)
        result = self.submit(page, form, {"username": self.settings.username, "password": self._password,
                                          "login": "Login"})
        if self.logged_out(result.text):
            reason = first_text(result.text, "form#login div.error, div.error") or "no reason shown"
            raise ForumError(f"login to {self.settings.base_url} as {self.settings.username} failed: {reason}")

    # -- URLs ------------------------------------------------------------------------------------
    def thread_page_url(self, thread_url: str, page: int) -> str:
        base = self._topic_url(thread_url)
        if page <= 1:
            return base
        return f"{base}&start={(page - 1) * self._posts_per_page(base)}"

    def inbox_url(self, page: int) -> str:
        return self._folder_url("inbox", page)

    def sentbox_url(self, page: int) -> str:
        return self._folder_url("sentbox", page)

    def message_url(self, pm_id: str) -> str:
        return self.url(f"ucp.php?i=pm&mode=view&p={pm_id}")

    def _folder_url(self, folder: str, page: int) -> str:
        # phpBB lists 50 PMs a page by default; the link of page 2 is followed when asked for
        return self.url(f"ucp.php?i=pm&folder={folder}" + (f"&start={(page - 1) * 50}" if page > 1 else ""))

    def _topic_url(self, thread_url: str) -> str:
        query = parse_qs(urlsplit(thread_url).query)
        if "t" not in query:
            raise ForumError(f"the thread URL {thread_url} has no t= (a phpBB topic id)")
        return self.url("viewtopic.php?" + urlencode({"t": query["t"][0]}))

    def _posts_per_page(self, topic_url: str) -> int:
        """From config, else from the start= of the page-2 link of page 1 (learnt once)."""
        if self.settings.posts_per_page:
            return self.settings.posts_per_page
        if topic_url not in self._per_page:
            html = self.fetch(topic_url).text
            starts = [int(s) for s in _START.findall(html.replace("&amp;", "&")) if int(s) > 0]
            if not starts:
                return 10   # a one-page topic: nothing to learn yet (phpBB's default)
            self._per_page[topic_url] = min(starts)
        return self._per_page[topic_url]

    # -- posting -----------------------------------------------------------------------------------
    def reply(self, thread_url: str, bbcode: str) -> str:
        topic = parse_qs(urlsplit(self._topic_url(thread_url)).query)["t"][0]
        page, form = self.fetch_form(self.url(f"posting.php?mode=reply&t={topic}"), "reply")
        for _ in range(2):   # once more when phpBB says new posts arrived meanwhile
            result = self.submit(page, form, {"message": bbcode, "post": "Submit"}, follow=False)
            if result.location and _POST_ID.search(result.location):
                return _POST_ID.search(result.location).group(1)
            error = first_text(result.text, ERRORS) or f"HTTP {result.status}, no message"
            if NEW_POSTS_NOTICE not in error:
                raise ForumError(f"the forum refused the reply: {error}")
            page, form = result, self.read_form(result, "reply")
        raise ForumError(f"the forum refused the reply twice: {error}")

    def send_pm(self, to_nick: str, subject: str, bbcode: str) -> str:
        page, form = self.fetch_form(self.url("ucp.php?i=pm&mode=compose"), "pm")
        added = self.submit(page, form, {"username_list": to_nick, "add_to": "Add"})
        added_form = self.read_form(added, "pm")
        if not any(key.startswith("address_list[u][") for key in added_form.fields):
            raise ForumError(f"the forum does not know the recipient {to_nick}: "
                             f"{first_text(added.text, ERRORS) or 'no message'}")
        sent = self.submit(added, added_form, {"username_list": "", "subject": subject, "message": bbcode,
                                               "post": "Submit"})
        return self._sent_pm_id(sent)

    def _sent_pm_id(self, sent: Page) -> str:
        target = meta_refresh(sent.text) or ""
        found = _POST_ID.search(target)
        if "sent successfully" not in sent.text or not found:
            raise ForumError(f"the forum did not send the PM: {first_text(sent.text, ERRORS) or 'no message'}")
        return found.group(1)
