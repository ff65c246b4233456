"""One forum account over HTTP, the same for every engine: log in, read, reply, PM, find own texts.

The engine is data (spec.EngineSpec: URLs, form and field names, how the board answers) and a
parser module from parsers/forums/; an engine module overrides a step only where its board
really differs (phpBB adds PM recipients in a separate step).
"""
from __future__ import annotations

import logging
import mimetypes
import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Callable, Collection, Iterator, Sequence
from urllib.parse import quote, urljoin


from forumgm.daemon.forum.board_time import ShownPosts
from forumgm.daemon.forum.errors import (
    Accepted, BoardSaid, FloodPause, ForumError, ForumRefused, NoAttachments, NoPrivateMessages, SessionLost,
    StaleForm, Unproven,
)
from forumgm.daemon.forum.http import HttpClient, HttpError, Page
from forumgm.daemon.forum.page_text import all_texts, first_text, flood_wait, hourly_limit, meta_refresh, whole_page
from forumgm.daemon.forum.sent_text import same_name, same_text, skeleton
from forumgm.daemon.forum.settings import ForumSettings
from forumgm.daemon.forum.spec import EngineSpec, Paged, PmRemoval, PmSpec
from forumgm.parsers.forums.base import Form, Listing, PageInfo, PmHeader, PmMessage, Post
from forumgm.parsers.forums.html import parse_html
from forumgm.parsers.forums.reader import read_form, read_options
from forumgm.parsers.forums.unread import unread_pms

log = logging.getLogger(__name__)

FORM_MIN_AGE = 1.0   # boards refuse a form submitted in the second it was generated (phpBB, SMF)
OWN_POST_PAGES = 2   # how far back from the last page find_own_post looks at least
# find_own_post reads back through every page holding a post from this long before the send on:
# the board's clock, or the time zone its dates are read in, may be off by hours
SENT_CLOCK_MARGIN = timedelta(days=1)
ANY_TARGET = r"."
FLOOD_RETRIES = 2     # a flood refusal is waited out this often per text, then it waits for the next tick
FLOOD_MARGIN = 1.0    # seconds added to the pause the board names (its clock ticks in whole seconds)
# a flood pause up to this long is waited out inside the tick (SMF's 2 s for an admin); a longer one
# (SMF's 5 s for a member, phpBB's 15 s, MyBB's 60 s) leaves the text for a tick after the pause:
# a burst of texts never holds the tick for minutes
FLOOD_INLINE = 5.0


@dataclass(frozen=True)
class Attachment:
    """A file posted with a reply, shown where `mark` is in the text."""
    name: str
    data: bytes
    mark: str

    def upload(self) -> tuple[str, bytes, str]:
        return self.name, self.data, mimetypes.guess_type(self.name)[0] or "application/octet-stream"


class ForumAdapter:
    spec: EngineSpec
    parser: object       # posts/page_info/thread/inbox/message/form of the engine (parsers/forums/<engine>.py)

    def __init__(self, settings: ForumSettings, password: str, client: HttpClient,
                 now: Callable[[], datetime] = lambda: datetime.now(timezone.utc)):
        self.settings = settings
        self.client = client
        self.now = now   # the fetch time, for dates a board prints as "Today at 04:35 AM"
        self._password = password
        self._logged_in = False
        self._form_at = 0.0
        self._posted_at = float("-inf")
        # the board's flood rule per kind of text ("reply", "PM"): when its last refusal's pause
        # ends, the pause learned from it, and when the last text went
        self._paused: dict[str, float] = {}
        self._paced: dict[str, float] = {}
        self._sent_at: dict[str, float] = {}
        self._per_page: dict[str, int] = {}
        self._shown = ShownPosts(client.clock)     # the board's clock where its answers tell none

    def __repr__(self) -> str:   # never the password
        return f"<{type(self).__name__} {self.settings.username}@{self.settings.base_url}>"

    @property
    def pm_supported(self) -> bool:
        return self.spec.pm is not None

    def board_now(self) -> datetime | None:
        """The board's clock now, as its latest answer dated it; on a board whose answers carry no
        date, the latest it can be by the posts and PMs it showed first (board_time.AtMost); None: not told."""
        return self.client.board_now() or self._shown.board_at_most()

    def unread_pms(self, html: str) -> int | None:
        """The unread PMs a page of this board counts in its header; None when its pages do not tell."""
        shown = self.spec.unread_pms
        return unread_pms(html, shown) if shown and self.pm_supported else None

    @property
    def attaches(self) -> bool:
        """Whether forumgm uploads files with a reply on this engine (the board may still refuse one)."""
        return type(self).attach is not ForumAdapter.attach

    # -- the Forum interface ---------------------------------------------------------------------
    def current_user(self) -> str:
        return self.settings.username

    def login(self) -> None:
        """Log in; a flood refusal (SMF: one login per 2 s from an address, another client's too)
        is waited out like a post's."""
        def once() -> str:
            step = self.spec.login
            page, form = self.fetch_form(self.url(step.page), step.form, login=False)
            result = self.submit(page, form, self.login_values(form))
            refresh = meta_refresh(result.text)
            if self.logged_out(result.text) and refresh:   # a "thank you, redirecting" page (vBulletin)
                result = self.client.get(urljoin(result.url, refresh))
            if self.logged_out(result.text):
                reason = first_text(result.text, self.spec.errors) or "no reason shown"
                failed = StaleForm if self.stale(reason) else ForumError
                raise failed(f"login to {self.settings.base_url} as {self.settings.username} failed: {reason}")
            return ""
        self.posting("login", once)
        self._logged_in = True
        log.info("logged in to %s as %s", self.settings.base_url, self.settings.username)

    def thread_page(self, thread_url: str, page: int) -> tuple[PageInfo, list[Post], str]:
        url = self.thread_page_url(thread_url, page)
        asked = self.client.clock()
        fetched = self.fetch(url)
        info, posts = self.parser.thread(fetched.text, self.settings.time_zone, self.now())
        self._shown.saw_thread(url, asked, info, posts)
        return info, posts, fetched.text

    def thread_page_count(self, thread_url: str) -> int:
        return self.parser.page_info(self.fetch(self.thread_page_url(thread_url, 1)).text).pages

    def inbox_pages(self) -> Iterator[tuple[list[PmHeader], Listing]]:
        """The inbox page by page, newest first, as its own page links lead (SMF lists oldest first
        and opens on the last page), with what each page says of the folder. PMs to the account
        only: a conversation it started itself (XenForo lists those too) is no order."""
        asked = self.client.clock()
        for n, (listed, listing) in enumerate(self._folder_pages(self.pms().inbox)):
            if n == 0:    # the page the folder opens on holds its newest PMs
                self._shown.saw_inbox(self._listing(self.pms().inbox, 1), asked, listed)
            own = tuple(header.id for header in listed if header.sender == self.current_user())
            unread = tuple(header.id for header in listed if header.id in own and header.unread)
            yield [header for header in listed if header.id not in own], replace(listing, own=own, own_unread=unread)

    def message(self, pm_id: str) -> PmMessage:
        return self._message(self.pms().message, pm_id)

    def reply(self, thread_url: str, bbcode: str, attachments: Sequence[Attachment] = ()) -> str:
        """The new post's id; Accepted when the board took it without naming it. `attachments` are
        uploaded with the post and shown inline where their marks are in `bbcode`; NoAttachments
        (before anything is posted) when the board takes none."""
        def once() -> str:
            step = self.spec.reply
            page, form = self.fetch_form(self.url(step.page.format(thread=self.thread_id(thread_url))), step.form)
            text = bbcode
            if attachments:
                page, form, text = self.attach(page, form, attachments, bbcode)
            return self.reply_answer(self.submit(page, form, step.values(form.fields, message=text), follow=False),
                                     text)
        return self.posting("reply", once)

    def knows_account(self, nick: str) -> bool | None:
        """Whether the board has a member `nick` (forumgm replace's new account), asked of its member
        list without sending anything; None where the board cannot be asked so (it says so only to a
        sent PM). Only the exact name (after NFC) is that member: a player is his exact account."""
        members = self.spec.members
        if members is None:
            return None
        page = self.fetch(self.url(members.page.format(name=quote(nick))))
        wanted = unicodedata.normalize("NFC", nick.strip())
        return wanted in {unicodedata.normalize("NFC", name) for name in all_texts(page.text, members.name)}

    def send_pm(self, to_nick: str, subject: str, bbcode: str) -> str:
        """The sent PM's id; Accepted when the board took it without naming it (publish.py finds it)."""
        def once() -> str:
            pms = self.pms()
            page, form = self.fetch_form(self.url(pms.send.page), pms.send.form)
            self._refuse_verification(page)
            page, form = self.add_recipient(page, form, to_nick)
            result = self.submit(page, form, pms.send.values(form.fields, to=to_nick, subject=subject,
                                                             message=bbcode), follow=False)
            self._refuse_verification(result)   # asked only now: the board refused the PM, and asks again
            # a board that never names a sent PM: any redirect that is not a refusal took it
            accepted = pms.sent_accepted or (None if pms.sent_ref else ANY_TARGET)
            return self.answer_ref(result, pms.sent_ref or r"(?!)", "PM", accepted=accepted)
        return self.posting("PM", once)

    def find_own_post(self, thread_url: str, bbcode: str, after: str | None = None, since: datetime | None = None,
                      claimed: Collection[str] = (), pages_known: int = 0) -> str | None:
        """The account's first post after the post `after` whose text is `bbcode` as the board shows
        it, and that is no other draft's (`claimed`). Read from the last page back to the page
        holding `after`; without it, OWN_POST_PAGES pages and further while a page holds posts
        from `since` (when the post was sent) on. None only when the pages read prove the thread
        whole (`pages_known`: how many pages the thread had when it was last read); else Unproven."""
        last = self.thread_page_count(thread_url)
        found: list[str] = []
        for page in range(last, 0, -1):
            info, posts, _ = self.thread_page(thread_url, page)
            if page == last:
                _proves_last(info, last, pages_known)
            found += [post.id for post in posts
                      if post.author == self.current_user() and _newer(post.id, after) and post.id not in claimed
                      and same_text(bbcode, post.text)]
            if after is not None and any(not _newer(post.id, after) for post in posts):
                break
            if after is None and last - page + 1 >= OWN_POST_PAGES and not _any_since(posts, since):
                break
        return min(found, key=_id_order) if found else None

    def find_sent_pm(self, to_nick: str, subject: str, bbcode: str, after: str | None = None,
                     claimed: Collection[str] = ()) -> str | None:
        """The first PM the account sent to `to_nick` after the PM `after` with this subject and text
        as the board shows them, and that is no other draft's (`claimed`). Every sent folder is
        read (phpBB keeps a PM in the outbox until it is read), newest page first, back to the page
        holding `after`, else through its last page. None only when those reads prove each folder
        whole (_folder_unproven); else Unproven."""
        pms = self.pms()
        found: list[str] = []
        unproven: list[Unproven] = []
        for folder in pms.sent_folders:
            listings: list[Listing] = []
            for headers, listing in self._folder_pages(folder, sent=True):
                listings.append(listing)
                for header in headers:
                    recipient = to_nick if pms.lists_recipient else self.current_user()
                    if (_newer(header.id, after) and header.id not in claimed and same_name(header.sender, recipient)
                            and skeleton(header.subject) == skeleton(subject)):
                        sent = self._message(pms.sent_message or pms.message, header.id, sent=True)
                        if same_text(bbcode, sent.text):
                            found.append(header.id)
                if after is None or any(not _newer(header.id, after) for header in headers):
                    break
            else:
                unproven += _folder_unproven(listings)
        if not found and unproven:
            raise unproven[0]
        return min(found, key=_id_order) if found else None

    def newest_sent_pm(self) -> str | None:
        """The newest id in the sent folders ("0" when they are empty): what is sent from now on
        comes after it."""
        ids = [header.id for folder in self.pms().sent_folders
               for header in next(self._folder_pages(folder, sent=True))[0]]
        return max(ids, key=_id_order) if ids else "0"

    def remove_pms(self, pm_ids: Sequence[str], action: str, folder: str | None = None) -> None:
        """Delete the inbox's PMs `pm_ids`, or move them to the account's PM folder named `folder`,
        with the inbox page's own form (its tokens included). Whether the board did it, the inbox
        shows afterwards: the caller reads it again."""
        self._remove(self.pms().inbox, pm_ids, action, folder)

    def remove_sent_pms(self, pm_ids: Sequence[str]) -> None:
        """Delete the account's own copies `pm_ids` from its sent folder, with that folder's form.
        Never from phpBB's outbox: a PM deleted there is taken back from its recipient unread."""
        self._remove(self.pms().sentbox, pm_ids, "delete")

    def sent_space(self) -> Listing:
        """What the sent folder's first page says of the space the board allows: the folder's
        limit (phpBB) or the account's quota over every folder (MyBB)."""
        return next(self._folder_pages(self.pms().sentbox, sent=True))[1]

    def sent_unplaced(self) -> set[str]:
        """The ids of sent PMs the board keeps apart until their recipient reads them (phpBB's outbox)."""
        outbox = self.pms().outbox
        return set() if outbox is None else {
            header.id for headers, _ in self._folder_pages(outbox, sent=True) for header in headers}

    def _remove(self, source: Paged, pm_ids: Sequence[str], action: str, folder: str | None = None) -> None:
        removal = self.removal(action)
        page, form = self._removal_form(self._listing(source, 1), removal.form)
        values = removal.delete if action == "delete" else _with_folder(removal.move, self._folder_value(
            page, removal, folder))
        result = self.submit(page, form, {**self._marked(removal, form, pm_ids), **values})
        if action == "delete" and removal.confirm is not None:
            self.submit(result, self._read_css_form(result, removal.confirm), dict(removal.confirm_with))
        if action == "delete" and removal.trash is not None:
            page, form = self._removal_form(self._listing(removal.trash, 1), removal.form)
            self.submit(page, form, {**self._marked(removal, form, pm_ids), **removal.delete})

    def removal(self, action: str) -> PmRemoval:
        """How this board removes PMs; ForumError when it cannot `action` them."""
        removal = self.pms().removal
        if removal is None or action not in removal.actions:
            can = f"only {' and '.join(removal.actions)}" if removal else "neither delete nor move"
            raise ForumError(f"forumgm can {can} PMs on {self.spec.name}, not {action} them")
        return removal

    def posting(self, kind: str, once: Callable[[], str]) -> str:
        """Run a posting flow of `kind` ("reply", "PM", "login": boards count their pauses apart), again
        after the pause a flood refusal names (the board said it did not take it), at most
        FLOOD_RETRIES times. A pause longer than FLOOD_INLINE is not waited here: FloodPause. The
        pause a refusal shows is kept between the texts of the kind from then on, so the board
        is not asked too soon again."""
        self._before_posting(kind)
        for attempt in range(FLOOD_RETRIES + 1):
            try:
                ref = self._fresh_form(kind, once)
            except BoardSaid as said:
                if said.wait is None:
                    raise
                self._flood_refused(kind, said)
                if said.wait + FLOOD_MARGIN > FLOOD_INLINE:
                    raise self._flood_pause(f"the forum's flood rule holds the {kind} for {said.wait:.0f} s: "
                                            f"{said.reason}", said.wait + FLOOD_MARGIN, said.reason) from said
                if attempt == FLOOD_RETRIES:
                    raise
                log.info("%s asks to wait %.0f s before posting again (%s)", self.settings.base_url, said.wait,
                         said.reason)
                self.client.wait_until(self.client.clock() + said.wait + FLOOD_MARGIN)
            except ForumError:   # taken, maybe taken or refused otherwise: it may count as the last text
                self._sent_at[kind] = self.client.clock()
                raise
            else:
                self._sent_at[kind] = self.client.clock()
                return ref
        raise AssertionError("unreachable")

    def _fresh_form(self, kind: str, once: Callable[[], str]) -> str:
        """`once`, and once more with the form fetched again when the board refused it as expired:
        a slow tick, a pause waited between fetching and sending, or a jump of the board's clock
        can outlast a form token. Expired again right after a fetch is the host's to look at."""
        try:
            return once()
        except StaleForm as stale:
            log.info("%s refused the %s form as expired (%s); fetching it again", self.settings.base_url, kind,
                     stale)
        try:
            return once()
        except StaleForm as again:
            raise StaleForm(f"{again}; the form was refused as expired twice, the second time just after it "
                            f"was fetched: the board's clock may be wrong, or its form lifetime too short "
                            f"(phpBB: ACP, Security settings, 'Maximum time to submit forms'); nothing was sent"
                            ) from again

    def stale(self, refusal: str) -> bool:
        """Whether the board's refusal says the form expired (StaleForm)."""
        return self.spec.stale_form is not None and self.spec.stale_form in refusal

    def _refuse_verification(self, page: Page) -> None:
        """ForumRefused when the PM form asks for a verification (a picture, a question) that only a
        person can answer: sending it without would be refused every time."""
        pms = self.pms()
        if pms.verification and parse_html(page.text).css_first(pms.verification) is not None:
            raise ForumRefused(f"{self.spec.name} asks the account {self.settings.username} to pass a verification "
                               f"(a picture to read or a question) before each PM, which forumgm cannot answer: "
                               f"{pms.verification_advice}; then approve the PM again (nothing was sent)")

    def _flood_refused(self, kind: str, said: BoardSaid) -> None:
        """Learn the board's pause from its refusal: the text may go `wait` seconds from now; that
        is the whole pause between two texts, or (MyBB) what is left of it since the last one. A
        limit per hour is no pause between two texts: only this one waits."""
        now, wait = self.client.clock(), said.wait
        self._paused[kind] = now + wait + FLOOD_MARGIN
        if hourly_limit(said.reason):
            return
        if not self.spec.flood_left:
            self._paced[kind] = wait
        elif kind in self._sent_at:
            self._paced[kind] = now - self._sent_at[kind] + wait

    def _before_posting(self, kind: str) -> None:
        """FloodPause while the board's flood pause for `kind` (the one its last refusal named, or
        the one learned since the last text), or the interval kept between POSTs, has longer than
        FLOOD_INLINE to run; a shorter rest is waited."""
        paced = self._sent_at.get(kind, float("-inf")) + self._paced.get(kind, 0.0) + FLOOD_MARGIN
        ready = max(self._paused.get(kind, float("-inf")), paced if kind in self._paced else float("-inf"),
                    self._posted_at + self.post_interval())
        left = ready - self.client.clock()
        if left > FLOOD_INLINE:
            raise self._flood_pause(f"the forum's flood rule holds the {kind} for {left:.0f} s more", left)
        self.client.wait_until(ready)

    def _flood_pause(self, message: str, wait: float, reason: str | None = None) -> FloodPause:
        return FloodPause(message, wait, self.now() + timedelta(seconds=wait), reason)

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
        return self.answer_ref(result, self.spec.reply_ref, "reply", accepted=self.spec.reply_accepted)

    def add_recipient(self, page: Page, form: Form, to_nick: str) -> tuple[Page, Form]:
        """Boards that take the recipient with the rest of the form need no step of their own."""
        return page, form

    def attach(self, page: Page, form: Form, attachments: Sequence[Attachment], bbcode: str) -> tuple[Page, Form, str]:
        """Upload the files as the reply form's own attachment step does; the page and form to post
        then, and the text with each mark replaced by the board's inline tag for its file."""
        raise NoAttachments(f"forumgm attaches no files on {self.spec.name}")

    def upload_field(self, form: Form, name: str) -> str:
        """The reply form's file field `name`; NoAttachments when the form has none (attachments are
        off on the board, or the account may not attach here)."""
        if name not in form.files:
            raise NoAttachments(f"the {self.spec.name} reply form takes no file (attachments are off, or the "
                                f"account {self.settings.username} may not attach in this forum)")
        return name

    def answer_ref(self, result: Page, pattern: str, what: str, accepted: str | None = None) -> str:
        """The id in where the board sends us after a form; Accepted when it sends where it goes
        after taking a text without naming it (`accepted`); its message when it refused."""
        targets = [target for target in (result.location, meta_refresh(result.text)) if target]
        for target in targets:
            found = re.search(pattern, target)
            if found:
                return found.group(1)
        refusal = first_text(result.text, self.spec.errors)
        if refusal:
            wait = flood_wait(refusal, self.flood_default())
            if wait is not None:
                raise BoardSaid(f"the forum asks to wait before the {what}: {refusal}", result.status, refusal, wait)
            raise (StaleForm if self.stale(refusal) else ForumRefused)(f"the forum refused the {what}: {refusal}")
        if accepted and any(re.search(accepted, target) for target in targets):
            raise Accepted(f"the forum took the {what} and sent to {targets[0].split('#')[0]}, which does not name it")
        raise ForumError(f"the forum's answer to the {what} (HTTP {result.status}) neither names it nor says why")

    def post_interval(self) -> float:
        """Seconds the board wants between two posts, PMs or logins of this account (its flood rule)."""
        configured = self.settings.post_interval
        return self.spec.post_interval if configured is None else configured

    def flood_default(self) -> float:
        """The pause after a flood refusal that names none: the interval the host set, else the
        engine's stock flood interval."""
        return self.settings.post_interval or self.spec.flood_pause

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
        page = self.get(url)
        if self.logged_out(page.text):
            log.info("session expired on %s; logging in again", self.settings.base_url)
            self.login()
            page = self.get(url)
            if self.logged_out(page.text):
                raise SessionLost(f"still logged out of {self.settings.base_url} after logging in again")
        return page

    def get(self, url: str) -> Page:
        """A board page, whole: one cut short is asked again (the client's retries), never read."""
        try:
            return self.client.get(url, whole=whole_page)
        except HttpError as error:
            raise self.board_said(error) from error

    def board_said(self, error: HttpError) -> BoardSaid:
        """An error page with the board's words: a flood refusal says how long to wait."""
        reason = first_text(error.page.text, self.spec.errors)
        wait = flood_wait(reason, self.flood_default()) if reason else None
        return BoardSaid(f"{error}: {reason}" if reason else str(error), error.page.status, reason, wait)

    def fetch_form(self, url: str, name: str, login: bool = True) -> tuple[Page, Form]:
        page = self.fetch(url) if login else self.get(url)
        self._form_at = self.client.clock()
        return page, self.read_form(page, name)

    def read_form(self, page: Page, name: str) -> Form:
        try:
            if name in self.spec.forms:
                return read_form(page.text, replace(self.parser.LAYOUT, forms=self.spec.forms), name)
            return self.parser.form(page.text, name)
        except ValueError as error:
            raise ForumError(f"no {name} form on {page.url.split('?')[0]}: {error}") from error

    def submit(self, page: Page, form: Form, values: dict[str, str], follow: bool = True,
               files: dict[str, Attachment] | None = None) -> Page:
        """POST a form read from `page` as a browser does (Referer: the page; FluxBB checks it),
        no sooner than FORM_MIN_AGE after the page was fetched."""
        self.client.wait_until(max(self._form_at + FORM_MIN_AGE, self._posted_at + self.post_interval()))
        multipart = form.enctype.startswith("multipart/")
        try:
            result = self.client.post(urljoin(page.url, form.action), {**form.fields, **values},
                                      multipart=multipart, follow=follow, headers={"Referer": page.url},
                                      files={name: file.upload() for name, file in (files or {}).items()})
        except HttpError as error:
            raise self.board_said(error) from error
        finally:
            self._form_at = self._posted_at = self.client.clock()
        return result

    def _removal_form(self, url: str, css: str) -> tuple[Page, Form]:
        page = self.fetch(url)
        self._form_at = self.client.clock()
        return page, self._read_css_form(page, css)

    def _read_css_form(self, page: Page, css: str) -> Form:
        try:
            return read_form(page.text, replace(self.parser.LAYOUT, forms={"removal": css}), "removal")
        except ValueError as error:
            raise ForumError(f"no PM form ({css}) on {page.url.split('?')[0]}: {error}") from error

    @staticmethod
    def _marked(removal: PmRemoval, form: Form, pm_ids: Sequence[str]) -> dict[str, str]:
        """The form's own fields without a box the page had ticked, and a ticked box per PM."""
        unmarked = {name: value for name, value in form.fields.items()
                    if not name.startswith(removal.mark.split("[")[0] + "[")}
        marks = {removal.mark.format(pm=pm_id, n=n): removal.mark_value.format(pm=pm_id)
                 for n, pm_id in enumerate(pm_ids)}
        return {**unmarked, **marks}

    def _folder_value(self, page: Page, removal: PmRemoval, folder: str | None) -> str:
        """The form's value for the account's PM folder named `folder` (a count the board shows
        after a name, "forumgm [3]", is not part of it)."""
        options = read_options(page.text, removal.folder_options or "option")
        wanted = (folder or "").strip().casefold()
        for value, text in options:
            name = re.sub(r"\s*[\[(]\d+[\])]$", "", text).strip().casefold()
            if wanted and (name == wanted or name.endswith(" " + wanted)):
                return value
        shown = ", ".join(text for _, text in options) or "none"
        raise ForumRefused(f"the account has no PM folder named {folder!r} on {self.spec.name} "
                           f"(the inbox offers: {shown}); make it on the forum or name another")

    def _listing(self, paged, page: int) -> str:
        return self.url(paged.url(page, start=(page - 1) * self.pms().per_page))

    def _message(self, template: str, pm_id: str, sent: bool = False) -> PmMessage:
        html = self.fetch(self.url(template.format(pm=pm_id))).text
        read = self.parser.sent_message if sent else self.parser.message
        return read(html, self.settings.time_zone, self.now())

    def _folder_pages(self, folder: Paged, sent: bool = False) -> Iterator[tuple[list[PmHeader], Listing]]:
        """A PM folder's pages, newest first, each as the board lists it: the page the folder
        opens on, then the page its own links name next (older). A board listing oldest first
        (SMF) opens on its last page, so "older" is the page before."""
        url = self._listing(folder, 1)
        seen: set[str] = set()
        while url and url not in seen:
            seen.add(url)
            headers, listing = self.parser.folder(self.fetch(url).text, self.settings.time_zone, self.now(), sent)
            yield headers, listing
            older = listing.links.get(listing.page - 1 if self.pms().oldest_first else listing.page + 1)
            url = urljoin(url, older) if older else None

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


def _with_folder(values, folder: str) -> dict[str, str]:
    return {name: value.format(folder=folder) for name, value in values.items()}


def _proves_last(info: PageInfo, last: int, pages_known: int) -> None:
    """Unproven unless the page read as the thread's last counts as many pages as page 1 did (a
    last page read without its page list passes for page 1 of 1), and the thread has no fewer
    pages than when it was read before (page 1 without its page list passes for the only page):
    a post looked for and not found on such a read may well be there."""
    if info.pages != last:
        raise Unproven(f"the thread's page {last}, read as its last, counts {info.pages} page(s)")
    if last < pages_known:
        raise Unproven(f"the thread showed {last} page(s) where {pages_known} were read before (a page list gone?)")


def _folder_unproven(listings: list[Listing]) -> list[Unproven]:
    """Why a sent folder read to its end without reaching the baseline was not read whole, if it was
    not: a page without the page list the board always shows, pages counting different numbers of
    pages, a page counted and not read (a page list gone reads as a folder of one page; a link gone
    ends the walk early). A PM looked for and not found on such a read may well be there."""
    missing = [listing.page for listing in listings if listing.list_missing]
    if missing:
        return [Unproven(f"the sent folder's page {missing[0]} shows no page list")]
    counted = {listing.pages for listing in listings}
    read = {listing.page for listing in listings}
    if len(counted) > 1 or read != set(range(1, max(counted) + 1)):
        return [Unproven(f"the sent folder counts {max(counted)} page(s), of which {len(read)} could be read")]
    return []


def _any_since(posts: list[Post], since: datetime | None) -> bool:
    """Whether a page may hold a post sent at `since` (a post without a readable date may)."""
    if since is None:
        return False
    return any(post.posted_at is None or post.posted_at >= since - SENT_CLOCK_MARGIN for post in posts)


def _newer(item_id: str, after: str | None) -> bool:
    return after is None or _id_order(item_id) > _id_order(after)


def _id_order(pm_id: str):
    return (0, int(pm_id)) if pm_id.isdigit() else (1, pm_id)

