"""One forum account over HTTP, the same for every engine: log in, read, reply, PM, find own texts.

The engine is data (spec.EngineSpec: URLs, form and field names, how the board answers) and a
parser module from parsers/forums/; an engine module overrides a step only where its board
really differs (phpBB adds PM recipients in a separate step).
"""
from __future__ import annotations

import logging
import re
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Callable
from urllib.parse import urljoin

from forumgm.daemon.forum.errors import ForumError, ForumRefused, NoPrivateMessages, SessionLost
from forumgm.daemon.forum.http import HttpClient, Page
from forumgm.daemon.forum.page_text import first_text, meta_refresh
from forumgm.daemon.forum.settings import ForumSettings
from forumgm.daemon.forum.spec import EngineSpec, PmSpec
from forumgm.parsers.forums.base import Form, PageInfo, PmHeader, PmMessage, Post
from forumgm.parsers.forums.reader import read_form

log = logging.getLogger(__name__)

FORM_MIN_AGE = 1.0   # boards refuse a form submitted in the second it was generated (phpBB, SMF)
OWN_POST_PAGES = 2   # how far back from the last page find_own_post looks at least
# find_own_post reads back through every page holding a post from this long before the send on:
# the board's clock, or the time zone its dates are read in, may be off by hours
SENT_CLOCK_MARGIN = timedelta(days=1)
ANY_TARGET = r"(.+)"


class ForumAdapter:
    spec: EngineSpec
    parser: object       # posts/page_info/inbox/message/form of the engine (parsers/forums/<engine>.py)

    def __init__(self, settings: ForumSettings, password: str, client: HttpClient,
                 now: Callable[[], datetime] = lambda: datetime.now(timezone.utc)):
        self.settings = settings
        self.client = client
        self.now = now   # the fetch time, for dates a board prints as "Today at 04:35 AM"
        self._password = password
        self._logged_in = False
        self._form_at = 0.0
        self._per_page: dict[str, int] = {}

    def __repr__(self) -> str:   # never the password
        return f"<{type(self).__name__} {self.settings.username}@{self.settings.base_url}>"

    @property
    def pm_supported(self) -> bool:
        return self.spec.pm is not None

    # -- the Forum interface ---------------------------------------------------------------------
    def current_user(self) -> str:
        return self.settings.username

    def login(self) -> None:
        step = self.spec.login
        page, form = self.fetch_form(self.url(step.page), step.form, login=False)
        result = self.submit(page, form, self.login_values(form))
        refresh = meta_refresh(result.text)
        if self.logged_out(result.text) and refresh:   # a "thank you, redirecting" page (vBulletin)
            result = self.client.get(urljoin(result.url, refresh))
        if self.logged_out(result.text):
            reason = first_text(result.text, self.spec.errors) or "no reason shown"
            raise ForumError(f"login to {self.settings.base_url} as {self.settings.username} failed: {reason}")
        self._logged_in = True
        log.info("logged in to %s as %s", self.settings.base_url, self.settings.username)

    def thread_page(self, thread_url: str, page: int) -> tuple[PageInfo, list[Post], str]:
        fetched = self.fetch(self.thread_page_url(thread_url, page))
        info = self.parser.page_info(fetched.text)
        return info, self.parser.posts(fetched.text, self.settings.time_zone, self.now()), fetched.text

    def thread_page_count(self, thread_url: str) -> int:
        return self.parser.page_info(self.fetch(self.thread_page_url(thread_url, 1)).text).pages

    def inbox(self, page: int = 1) -> list[PmHeader]:
        """PMs to the account; a conversation it started itself (XenForo lists those too) is no order."""
        listed = self.parser.inbox(self.fetch(self._listing(self.pms().inbox, page)).text, self.settings.time_zone,
                                   self.now())
        return [header for header in listed if header.sender != self.current_user()]

    def message(self, pm_id: str) -> PmMessage:
        return self._message(self.pms().message, pm_id)

    def reply(self, thread_url: str, bbcode: str) -> str:
        step = self.spec.reply
        page, form = self.fetch_form(self.url(step.page.format(thread=self.thread_id(thread_url))), step.form)
        return self.reply_answer(self.submit(page, form, step.values(form.fields, message=bbcode), follow=False),
                                 bbcode)

    def send_pm(self, to_nick: str, subject: str, bbcode: str) -> str:
        pms = self.pms()
        page, form = self.fetch_form(self.url(pms.send.page), pms.send.form)
        page, form = self.add_recipient(page, form, to_nick)
        result = self.submit(page, form, pms.send.values(form.fields, to=to_nick, subject=subject, message=bbcode),
                             follow=False)
        if pms.sent_ref:
            return self.answer_ref(result, pms.sent_ref, "PM")
        self.answer_ref(result, ANY_TARGET, "PM")   # a redirect, not the form again with an error
        newest = [h.id for h in self._sent_headers() if h.subject.strip() == subject.strip()]
        if not newest:
            raise ForumError(f"the PM to {to_nick} is not in the sent items after sending")
        return max(newest, key=_id_order)

    def find_own_post(self, thread_url: str, marker: str, since: datetime | None = None) -> str | None:
        """The account's post carrying `marker`, from the last page back: OWN_POST_PAGES pages, and
        further while a page holds posts from `since` (when the post was sent) on, so that a
        thread that grew while the daemon was down is still searched far enough."""
        last = self.thread_page_count(thread_url)
        for page in range(last, 0, -1):
            _, posts, _ = self.thread_page(thread_url, page)
            for post in reversed(posts):
                if post.author == self.current_user() and marker in post.html + post.text:
                    return post.id
            if last - page + 1 >= OWN_POST_PAGES and not _any_since(posts, since):
                return None
        return None

    def find_sent_pm(self, to_nick: str, subject: str, marker: str) -> str | None:
        pms = self.pms()
        for header in self._sent_headers():
            if header.subject.strip() == subject.strip() or marker in header.subject:
                sent = self._message(pms.sent_message or pms.message, header.id)
                if marker in sent.html + sent.text + sent.subject:
                    return header.id
        return None

    # -- steps an engine may override ------------------------------------------------------------
    def login_values(self, form: Form) -> dict[str, str]:
        return self.spec.login.values(form.fields, username=self.settings.username, password=self._password)

    def logged_out(self, html: str) -> bool:
        return self.spec.logged_in not in html

    def thread_id(self, thread_url: str) -> str:
        found = re.search(self.spec.thread_id, thread_url)
        if not found:
            raise ForumError(f"the thread URL {thread_url} is not a {self.spec.name} thread "
                             f"(expected {self.spec.thread_id!r} in it)")
        return found.group(1)

    def thread_page_url(self, thread_url: str, page: int) -> str:
        thread = self.thread_id(thread_url)
        paged = self.spec.thread_page
        start = (page - 1) * self._posts_per_page(thread) if paged.uses_start and page > 1 else 0
        return self.url(paged.url(page, thread=thread, start=start))

    def reply_answer(self, result: Page, bbcode: str) -> str:
        return self.answer_ref(result, self.spec.reply_ref, "reply")

    def add_recipient(self, page: Page, form: Form, to_nick: str) -> tuple[Page, Form]:
        """Boards that take the recipient with the rest of the form need no step of their own."""
        return page, form

    def answer_ref(self, result: Page, pattern: str, what: str) -> str:
        """The id in where the board sends us after a form; its message when it refused."""
        for target in (result.location, meta_refresh(result.text)):
            found = re.search(pattern, target or "")
            if found:
                return found.group(1)
        refusal = first_text(result.text, self.spec.errors)
        if refusal:
            raise ForumRefused(f"the forum refused the {what}: {refusal}")
        raise ForumError(f"the forum's answer to the {what} (HTTP {result.status}) neither names it nor says why")

    # -- helpers ---------------------------------------------------------------------------------
    def pms(self) -> PmSpec:
        if self.spec.pm is None:
            raise NoPrivateMessages(f"{self.spec.name} has no private messages: orders cannot come by PM "
                                    "on this forum (thread votes still count)")
        return self.spec.pm

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
            if name in self.spec.forms:
                return read_form(page.text, replace(self.parser.LAYOUT, forms=self.spec.forms), name)
            return self.parser.form(page.text, name)
        except ValueError as error:
            raise ForumError(f"no {name} form on {page.url.split('?')[0]}: {error}") from error

    def submit(self, page: Page, form: Form, values: dict[str, str], follow: bool = True) -> Page:
        """POST a form read from `page` as a browser does (Referer: the page; FluxBB checks it),
        no sooner than FORM_MIN_AGE after the page was fetched."""
        self.client.wait_until(self._form_at + FORM_MIN_AGE)
        multipart = form.enctype.startswith("multipart/")
        result = self.client.post(urljoin(page.url, form.action), {**form.fields, **values},
                                  multipart=multipart, follow=follow, headers={"Referer": page.url})
        self._form_at = self.client.clock()
        return result

    def _listing(self, paged, page: int) -> str:
        return self.url(paged.url(page, start=(page - 1) * self.pms().per_page))

    def _message(self, template: str, pm_id: str) -> PmMessage:
        return self.parser.message(self.fetch(self.url(template.format(pm=pm_id))).text, self.settings.time_zone,
                                   self.now())

    def _sent_headers(self) -> list[PmHeader]:
        return self.parser.inbox(self.fetch(self._listing(self.pms().sentbox, 1)).text, self.settings.time_zone,
                                 self.now())

    def _posts_per_page(self, thread: str) -> int:
        """From config, else from the smallest `{start}` of the page links on page 1 (learnt once)."""
        if self.settings.posts_per_page:
            return self.settings.posts_per_page
        if thread not in self._per_page:
            html = self.fetch(self.url(self.spec.thread_page.url(1, thread=thread, start=0))).text
            pattern = (self.spec.per_page_link or r"(?!)").format(thread=re.escape(thread))
            starts = [int(s) for s in re.findall(pattern, html.replace("&amp;", "&")) if int(s) > 0]
            if not starts:
                return self.spec.default_per_page   # a one-page thread: nothing to learn yet
            self._per_page[thread] = min(starts)
        return self._per_page[thread]


def _any_since(posts: list[Post], since: datetime | None) -> bool:
    """Whether a page may hold a post sent at `since` (a post without a readable date may)."""
    if since is None:
        return False
    return any(post.posted_at is None or post.posted_at >= since - SENT_CLOCK_MARGIN for post in posts)


def _id_order(pm_id: str):
    return (0, int(pm_id)) if pm_id.isdigit() else (1, pm_id)

