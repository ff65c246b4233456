"""The engine-independent half of a forum account: fetch with re-login, parse, find own posts.

An engine module subclasses ForumAdapter with its URLs, its logged-out markers and its form
flows (login, reply, PM); parsing is the engine's module in parsers/forums/.
"""
from __future__ import annotations

import logging
from types import ModuleType
from urllib.parse import urljoin

from forumgm.daemon.forum.errors import ForumError, SessionLost
from forumgm.daemon.forum.http import HttpClient, Page
from forumgm.daemon.forum.settings import ForumSettings
from forumgm.parsers.forums.base import Form, PageInfo, PmHeader, PmMessage, Post

log = logging.getLogger(__name__)

FORM_MIN_AGE = 1.0   # boards refuse a form submitted in the second it was generated (phpBB, SMF)
OWN_POST_PAGES = 2   # how far back from the last page find_own_post looks


class ForumAdapter:
    parser: ModuleType
    pm_supported = True

    def __init__(self, settings: ForumSettings, password: str, client: HttpClient):
        self.settings = settings
        self.client = client
        self._password = password
        self._logged_in = False
        self._form_at = 0.0

    def __repr__(self) -> str:   # never the password
        return f"<{type(self).__name__} {self.settings.username}@{self.settings.base_url}>"

    # -- what an engine provides ---------------------------------------------------------------
    def thread_page_url(self, thread_url: str, page: int) -> str:
        raise NotImplementedError

    def logged_out(self, html: str) -> bool:
        raise NotImplementedError

    def _login(self) -> None:
        raise NotImplementedError

    def inbox_url(self, page: int) -> str:
        raise NotImplementedError

    def message_url(self, pm_id: str) -> str:
        raise NotImplementedError

    def sentbox_url(self, page: int) -> str:
        raise NotImplementedError

    def reply(self, thread_url: str, bbcode: str) -> str:
        raise NotImplementedError

    def send_pm(self, to_nick: str, subject: str, bbcode: str) -> str:
        raise NotImplementedError

    # -- the Forum interface ---------------------------------------------------------------------
    def current_user(self) -> str:
        return self.settings.username

    def login(self) -> None:
        self._login()
        self._logged_in = True
        log.info("logged in to %s as %s", self.settings.base_url, self.settings.username)

    def thread_page(self, thread_url: str, page: int) -> tuple[PageInfo, list[Post], str]:
        fetched = self.fetch(self.thread_page_url(thread_url, page))
        info = self.parser.page_info(fetched.text)
        return info, self.parser.posts(fetched.text, self.settings.time_zone), fetched.text

    def thread_page_count(self, thread_url: str) -> int:
        return self.parser.page_info(self.fetch(self.thread_page_url(thread_url, 1)).text).pages

    def inbox(self, page: int = 1) -> list[PmHeader]:
        return self.parser.inbox(self.fetch(self.inbox_url(page)).text, self.settings.time_zone)

    def message(self, pm_id: str) -> PmMessage:
        return self.parser.message(self.fetch(self.message_url(pm_id)).text, self.settings.time_zone)

    def find_own_post(self, thread_url: str, marker: str) -> str | None:
        last = self.thread_page_count(thread_url)
        for page in range(last, max(0, last - OWN_POST_PAGES), -1):
            _, posts, _ = self.thread_page(thread_url, page)
            for post in reversed(posts):
                if post.author == self.current_user() and marker in post.html + post.text:
                    return post.id
        return None

    def find_sent_pm(self, to_nick: str, subject: str, marker: str) -> str | None:
        for header in self.parser.inbox(self.fetch(self.sentbox_url(1)).text, self.settings.time_zone):
            if header.subject.strip() == subject.strip() or marker in header.subject:
                sent = self.message(header.id)
                if marker in sent.html + sent.text + sent.subject:
                    return sent.id
        return None

    # -- helpers for engines -----------------------------------------------------------------------
    def url(self, path: str) -> str:
        return urljoin(self.settings.base_url, path)

    def fetch(self, url: str) -> Page:
        """GET as the logged-in account; a lost session is re-opened once."""
        if not self._logged_in:
            self.login()
        page = self.client.get(url)
        if self.logged_out(page.text):
            log.info("session expired on %s; logging in again", self.settings.base_url)
            self.login()
            page = self.client.get(url)
            if self.logged_out(page.text):
                raise SessionLost(f"still logged out of {self.settings.base_url} after logging in again")
        return page

    def fetch_form(self, url: str, name: str, login: bool = True) -> tuple[Page, Form]:
        page = self.fetch(url) if login else self.client.get(url)
        self._form_at = self.client.clock()
        return page, self.read_form(page, name)

    def read_form(self, page: Page, name: str) -> Form:
        try:
            return self.parser.form(page.text, name)
        except ValueError as error:
            raise ForumError(f"no {name} form on {page.url.split('?')[0]}: {error}") from error

    def submit(self, page: Page, form: Form, values: dict[str, str], follow: bool = True) -> Page:
        """POST a form read from `page`, no sooner than FORM_MIN_AGE after it was fetched."""
        self.client.wait_until(self._form_at + FORM_MIN_AGE)
        multipart = form.enctype.startswith("multipart/")
        result = self.client.post(urljoin(page.url, form.action), {**form.fields, **values},
                                  multipart=multipart, follow=follow)
        self._form_at = self.client.clock()
        return result
