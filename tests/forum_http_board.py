"""A fixture board: one engine's saved pages served over real HTTP on 127.0.0.1, at that engine's URLs.

It plays the board's side of every flow the adapters drive: a guest gets the login page for any
member page; the login form's tokens are checked on POST and a session cookie is set; every form
token the pages carry is a fresh value per session (the page's placeholder swapped), so a POST is
accepted only with the value its page carried. A reply or a PM is recorded and answered as the
engine does (a redirect, or a "thank you" page with a meta refresh); the host's new post is shown
at the end of the last thread page, a sent PM in the sent items — both cloned from the saved pages
with the parser layout's own selectors. A site (the engine's URLs, field names, answers) is data.
"""
from __future__ import annotations

import copy
import hashlib
import itertools
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from bs4 import BeautifulSoup
from bs4.dammit import EntitySubstitution
from bs4.formatter import HTMLFormatter
from flask import Flask, Response, redirect, request
from werkzeug.serving import WSGIRequestHandler, make_server

from forumgm.daemon.offline.localforum.server import STOP_POLL
from forumgm.parsers.forums.layout import EngineLayout, Field

FIXTURES = Path(__file__).parent / "fixtures"


@dataclass(frozen=True)
class Token:
    """A hidden field the board checks: its name and value as the saved pages wrote them (either
    may be a placeholder the board replaces with a per-session value)."""
    name: str
    value: str


@dataclass(frozen=True)
class FormRule:
    path: str                         # pattern over the POST's "path?query"
    page: str                         # the fixture holding the form, shown again with the error on a refusal
    tokens: tuple[Token, ...]
    fields: dict[str, str]            # our name -> the form field the board reads ("message" -> "req_message")
    answer: str = "redirect"          # "redirect" (302 Location), "refresh" (a page with a meta refresh)
                                      # or a fixture: the engine's own redirect page, `{target}` in its refresh
    target: str = ""                  # where the answer sends, with {id}
    referer: str | None = None        # pattern the Referer must match (FluxBB's confirm_referrer)


class _SourceOrder(HTMLFormatter):
    """bs4's "minimal" output, but each tag's attributes in the page's order rather than sorted: a
    board's logged-in mark may be a run of its header's markup (MyBB's `" class="logout">`)."""

    def attributes(self, tag):
        return list(tag.attrs.items())


SOURCE_ORDER = _SourceOrder(entity_substitution=EntitySubstitution.substitute_xml)
ATTACH_ID = "ATTACH_ID_PLACEHOLDER"    # an upload's id in the pages that name it


@dataclass(frozen=True)
class UploadRule:
    """How the board takes a file before the post that shows it inline (the reply form's own step)."""
    path: str                         # pattern over the POST's "path?query" carrying the file
    field: str                        # the file field
    answer: str                       # fixture: the answer naming the new upload (ATTACH_ID its id)
    refused: str                      # fixture: the answer to a file too large or of a type not allowed
    inline: str                       # pattern of the inline tag in a posted message; group "ref"
    shown: str                        # fixture: how a post shows an inline attachment (ATTACH_ID its id)
    by_index: bool = False            # the tag names the upload by its place in the form's list (phpBB)
    max_size: int = 128 * 1024
    tokens: tuple[Token, ...] = ()
    media_type: str = "text/html"


@dataclass(frozen=True)
class Flood:
    """A board's flood rule, in whole seconds as the boards count: a POST of `kinds` ("login",
    "reply", "pm", counted together) is refused with the saved refusal `page` unless the last
    one counted is more than `interval` seconds old."""
    interval: float
    page: str
    kinds: tuple[str, ...] = ("login", "reply", "pm")
    status: int = 403
    refused_counts: bool = True     # SMF: a refused POST counts as the last (its log row is replaced)
    left: str | None = None         # where the page names the seconds left, filled in (MyBB: "wait 59 more seconds")


@dataclass(frozen=True)
class Removal:
    """The inbox's own form removing PMs, as the board takes it (MyBB's do_stuff, SMF's pmactions)."""
    path: str                         # pattern over the POST's "path?query"
    tokens: tuple[Token, ...]
    mark: str                         # pattern over "field=value" of a marked PM: group 1 its id
    delete: str                       # the button that deletes the marked PMs
    inbox: str                        # pattern over the GETs listing the inbox: removed PMs are not shown
    when: dict[str, str] = field(default_factory=dict)   # fields telling this form from others on its path
    move: str | None = None           # the button that moves them to the folder field `folder` names
    folder: str | None = None
    trash: bool = False               # a delete moves a PM to the trash, and only one there is deleted (MyBB)
    answer: str = "redirect"          # as FormRule.answer
    target: str = ""


@dataclass(frozen=True)
class UnreadHeader:
    """How every member page's header shows the unread PMs: the markup with none and with `{n}`
    (each as the saved pages hold it), so the board can show its own count instead of the saved one."""
    none: str
    some: str

    def shown(self, count: int) -> str:
        return self.some.replace("{n}", str(count)) if count else self.none

    @property
    def saved(self) -> re.Pattern:
        return re.compile(f"{re.escape(self.none)}|{re.escape(self.some).replace(re.escape('{n}'), '[0-9]+')}")


@dataclass(frozen=True)
class Site:
    engine: str
    layout: EngineLayout
    fixtures: Path
    origin: str                       # the saved pages' own board URL, rewritten to the server's
    login_page: str                   # fixture
    home: str                         # where a login sends
    login: FormRule                   # fields: username, password
    thread: str                       # pattern over "path?query"; group "page" or "start"
    thread_pages: tuple[str, ...]     # fixtures, page 1 first; new posts go at the end of the last
    reply: FormRule                   # fields: message
    refusal: str                      # the engine's error markup, with {message}, shown above the form
    pages: tuple[tuple[str, str], ...] = ()   # pattern -> fixture, for the other GETs
    per_page: int = 5
    first_new_id: int = 100
    pm: FormRule | None = None        # fields: to, subject, message
    sentbox: str | None = None        # pattern
    sent_message: str | None = None   # pattern; group 1 the PM id
    pm_row_from: str | None = None    # the fixture whose first inbox row a sent PM's row is cloned from
    pm_view_from: str | None = None   # the fixture a sent PM's page is cloned from
    placeholders: tuple[str, ...] = ()   # every token placeholder in the pages
    sent_listed_with_inbox: bool = False  # one list of conversations (XenForo), not a sent-items folder
    password_digest: Callable[[str], str] | None = None   # what the login form carries for the password
                                                          # (vBulletin's script sends an md5 of it)
    sanitise: Callable[[str], str] = lambda text: text   # what the board does to a posted text (trims,
                                                          # drops or replaces invisible characters)
    floods: tuple[Flood, ...] = ()    # the board's flood rules
    received_view: tuple[str, str, str, str] | None = None   # any received PM's page: (pattern, group 1
                                                        # the id; a saved PM page; how that page names its own id,
                                                        # `{id}` the id (replaced))
    removal: Removal | None = None
    upload: UploadRule | None = None  # the board takes files with a reply
    inbox: str | None = None          # pattern over the inbox's GETs, which list the PMs `deliver` brought
                                      # (newest first, before the saved rows; `sent_message` serves them)
    unread: UnreadHeader | None = None   # the header shows the PMs brought and not opened yet
    thread_past_end: str | None = None   # the answer to a page past the last (SMF: the topic without
                                         # posts); None: the last page (phpBB clamps so; FluxBB shows page 1)


@dataclass
class Sent:
    id: str
    fields: dict[str, str]
    attached: dict[str, str] = field(default_factory=dict)   # an inline tag's ref -> the upload's id


@dataclass
class Upload:
    id: str
    name: str
    data: bytes


@dataclass
class FixtureBoard:
    site: Site
    password: str
    member: str
    members: tuple[str, ...] = ()
    received: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    posts: list[Sent] = field(default_factory=list)
    pms: list[Sent] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    removed: dict[str, str] = field(default_factory=dict)   # PM id -> "trash", "deleted" or "folder N"
    uploads: list[Upload] = field(default_factory=list)
    delivered: list[Sent] = field(default_factory=list)     # PMs to the member, fields: from, subject, message
    opened: set[str] = field(default_factory=set)           # ids of the delivered PMs the member has viewed
    clock: Callable[[], float] = time.monotonic   # for the flood rule

    def __post_init__(self):
        self._sids = itertools.count(1)
        self._ids = itertools.count(self.site.first_new_id)
        self._members_in: set[str] = set()
        self._lock = threading.Lock()
        self._counted_at: dict[Flood, float] = {}    # the last POST each flood rule counted
        self.floods = 0
        # pattern -> a saved 403 page every request there gets meanwhile (a limit the account hit)
        self.closed: dict[str, str] = {}
        self.base_url = ""

    # -- what tests do to the board ------------------------------------------------------------
    def expire_sessions(self) -> None:
        self._members_in.clear()

    def deliver(self, sender: str, subject: str, text: str) -> str:
        """A player's PM reaches the member's inbox, unread; its id."""
        with self._lock:
            self.delivered.append(Sent(str(next(self._ids)), {"from": sender, "subject": subject, "message": text}))
            return self.delivered[-1].id

    @property
    def unread(self) -> int:
        return sum(pm.id not in self.opened for pm in self.delivered)

    # -- the WSGI app ----------------------------------------------------------------------------
    def app(self) -> Flask:
        app = Flask(f"fixture-{self.site.engine}")

        @app.route("/", defaults={"path": ""}, methods=["GET", "POST"])
        @app.route("/<path:path>", methods=["GET", "POST"])
        def serve(path):
            with self._lock:
                sid = request.cookies.get("board_sid") or f"s{next(self._sids)}"
                where = request.full_path.lstrip("/").rstrip("?")
                answer = self._post(sid, where) if request.method == "POST" else self._get(sid, where)
                response = answer if isinstance(answer, Response) else Response(answer, mimetype="text/html")
                if "board_sid" not in request.cookies and not response.headers.get("X-New-Session"):
                    response.set_cookie("board_sid", sid)
                return response

        return app

    def _get(self, sid: str, where: str):
        site = self.site
        if sid not in self._members_in:
            return self._text(sid, site.login_page)
        for pattern, fixture in self.closed.items():
            if re.fullmatch(pattern, where):
                return Response(self._text(sid, fixture), status=403, mimetype="text/html")
        if (found := re.fullmatch(site.thread, where)) is not None:
            return self._thread_page(sid, found)
        if site.sent_message and (found := re.fullmatch(site.sent_message, where)):
            return self._sent_pm_page(sid, found.group(1))
        if site.sentbox and re.fullmatch(site.sentbox, where):
            return self._listed(where, self._sentbox(sid))
        if site.received_view and (found := re.fullmatch(site.received_view[0], where)):
            _, fixture, own_id, named = site.received_view
            return self._text(sid, fixture).replace(named.format(id=own_id), named.format(id=found.group(1)))
        for pattern, fixture in site.pages:
            if re.fullmatch(pattern, where):
                return self._listed(where, self._text(sid, fixture))
        return Response(f"no page at {where}", status=404)

    def _post(self, sid: str, where: str):
        site, form = self.site, request.form.to_dict()
        removal = site.removal
        if removal and re.fullmatch(removal.path, where) and all(form.get(k) == v for k, v in removal.when.items()):
            return self._remove(sid, where, removal, form)
        upload = site.upload
        if upload and re.fullmatch(upload.path, where) and getattr(request.files.get(upload.field), "filename", ""):
            return self._upload(sid, where, form, request.files[upload.field])
        rule = next((r for r in (site.login, site.reply, site.pm) if r and re.fullmatch(r.path, where)), None)
        if rule is None:
            return Response(f"no form at {where}", status=404)
        self.received.append((where, form))
        kind = "login" if rule is site.login else "reply" if rule is site.reply else "pm"
        for flood in (flood for flood in site.floods if kind in flood.kinds):
            if (refused := self._flooded(sid, flood)) is not None:
                return refused
        if not self._tokens_ok(sid, rule, form):
            return Response("bad or missing form token", status=403)
        if rule.referer and not re.search(rule.referer, request.headers.get("Referer", "")):
            return self._refuse(sid, rule.page, "Bad HTTP_REFERER.")
        if rule is site.login:
            return self._login(sid, form)
        if sid not in self._members_in:
            return self._text(sid, site.login_page)
        if not form.get(rule.fields["message"], "").strip():
            return self._refuse(sid, rule.page, "The message is too short.")
        if rule is site.reply:
            return self._accept(self.posts, rule, form)
        if form.get(rule.fields["to"]) not in self.members:
            return self._refuse(sid, rule.page, f"The user {form.get(rule.fields['to'])} does not exist.")
        return self._accept(self.pms, rule, form)

    def _flooded(self, sid: str, flood: Flood) -> Response | None:
        """The refusal page when the last POST `flood` counted is not `interval` seconds old (the
        boards' `now - last <= interval` over whole seconds); None, the POST counted, otherwise."""
        now, last = self.clock() // 1, self._counted_at.get(flood)
        if last is None or now > last + flood.interval:
            self._counted_at[flood] = now
            return None
        if flood.refused_counts:
            self._counted_at[flood] = now
        self.floods += 1
        html = self._text(sid, flood.page)
        if flood.left is not None:
            html = re.sub(flood.left, str(int(flood.interval - (now - last)) + 1), html)
        return Response(html, status=flood.status, mimetype="text/html")

    def _remove(self, sid: str, where: str, removal: Removal, form: dict[str, str]):
        self.received.append((where, form))
        if sid not in self._members_in:
            return self._text(sid, self.site.login_page)
        if not self._tokens_ok(sid, removal, form):
            return Response("bad or missing form token", status=403)
        marked = [found.group(1) for name, value in form.items() if (found := re.fullmatch(removal.mark, f"{name}={value}"))]
        if removal.delete in form:
            for pm_id in marked:
                self.removed[pm_id] = "deleted" if not removal.trash or self.removed.get(pm_id) == "trash" else "trash"
        elif removal.move and removal.move in form:
            for pm_id in marked:
                self.removed[pm_id] = f"folder {form.get(removal.folder)}"
        return self._answer(removal.answer, self.base_url + removal.target)

    def _listed(self, where: str, html: str) -> str:
        """A folder page as the board's state has it: the PMs delivered on top, those removed gone."""
        site = self.site
        if site.inbox and re.fullmatch(site.inbox, where):
            html = self._with_delivered(html)
        return self._without_removed(html) if site.removal and re.fullmatch(site.removal.inbox, where) else html

    def _without_removed(self, html: str) -> str:
        """An inbox page without the rows of PMs deleted, in the trash or moved."""
        soup = BeautifulSoup(html, "html.parser")
        inbox = self.site.layout.inbox
        for row in soup.select(inbox.row):
            if _get(row, inbox.id) in self.removed:
                row.decompose()
        return soup.decode(formatter=SOURCE_ORDER)

    def _upload(self, sid: str, where: str, form: dict[str, str], file):
        rule = self.site.upload
        self.received.append((where, {**form, rule.field: file.filename}))
        if sid not in self._members_in or not self._tokens_ok(sid, rule, form):
            return Response("bad or missing form token", status=403)
        data = file.read()
        if len(data) > rule.max_size or not file.filename.lower().endswith((".png", ".jpg", ".gif")):
            self.refused.append(f"upload {file.filename}")
            return Response(self._text(sid, rule.refused), mimetype=rule.media_type)
        self.uploads.append(Upload(str(next(self._ids)), file.filename, data))
        return Response(self._text(sid, rule.answer).replace(ATTACH_ID, self.uploads[-1].id), mimetype=rule.media_type)

    def _attached(self, message: str, form: dict[str, str]) -> dict[str, str]:
        """The uploads a posted message shows inline, by their tag's ref."""
        rule = self.site.upload
        if rule is None:
            return {}
        refs = {found.group("ref") for found in re.finditer(rule.inline, message)}
        if rule.by_index:
            return {ref: form[f"attachment_data[{ref}][attach_id]"] for ref in refs
                    if f"attachment_data[{ref}][attach_id]" in form}
        return {ref: ref for ref in refs if any(u.id == ref for u in self.uploads)}

    def _login(self, sid: str, form: dict[str, str]):
        rule, digest = self.site.login, self.site.password_digest or (lambda password: password)
        if (form.get(rule.fields["username"]), form.get(rule.fields["password"])) != (self.member,
                                                                                    digest(self.password)):
            return self._refuse(sid, rule.page, "Incorrect username or password.")
        member_sid = f"s{next(self._sids)}"   # boards open a new session on login
        self._members_in.add(member_sid)
        response = self._answer(rule.answer, self.base_url + self.site.home)
        response.set_cookie("board_sid", member_sid)
        response.headers["X-New-Session"] = "1"
        return response

    def _accept(self, store: list[Sent], rule: FormRule, form: dict[str, str]):
        sent = Sent(str(next(self._ids)), {ours: form.get(name, "") for ours, name in rule.fields.items()})
        sent.fields["message"] = self.site.sanitise(sent.fields["message"])
        sent.attached = self._attached(sent.fields["message"], form)
        store.append(sent)
        return self._answer(rule.answer, self.base_url + rule.target.format(id=sent.id))

    def _answer(self, kind: str, target: str) -> Response:
        if kind == "redirect":
            return redirect(target, code=302)
        if kind == "refresh":
            return Response(f'<html><head><meta http-equiv="refresh" content="1;URL={target}" /></head>'
                            f"<body><p>Thank you. Redirecting…</p></body></html>", mimetype="text/html")
        # a fixture page of the engine's own "thank you" screen, with {target} in its meta refresh
        page = (self.site.fixtures / kind).read_text(encoding="utf-8").replace(self.site.origin, self.base_url)
        return Response(page.replace("{target}", target), mimetype="text/html")

    def _refuse(self, sid: str, fixture: str, message: str):
        self.refused.append(message)
        html = self._text(sid, fixture)
        return re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + self.site.refusal.format(message=message), html,
                      count=1)

    # -- pages -----------------------------------------------------------------------------------
    def _text(self, sid: str, fixture: str) -> str:
        html = (self.site.fixtures / fixture).read_text(encoding="utf-8").replace(self.site.origin, self.base_url)
        for placeholder in self.site.placeholders:
            html = html.replace(placeholder, _session_value(placeholder, sid))
        if self.site.unread is not None:
            html = self.site.unread.saved.sub(lambda _: self.site.unread.shown(self.unread), html)
        return html

    def _thread_page(self, sid: str, found: re.Match) -> str:
        groups = {k: int(v) for k, v in found.groupdict().items() if v is not None}
        number = groups.get("page") or groups.get("start", 0) // self.site.per_page + 1
        pages = self.site.thread_pages
        if number > len(pages) and self.site.thread_past_end:
            return self._text(sid, self.site.thread_past_end)
        html = self._text(sid, pages[min(number, len(pages)) - 1])
        if number < len(pages) or not self.posts:
            return html
        soup = BeautifulSoup(html, "html.parser")
        last = soup.select(self.site.layout.thread.post)[-1]
        for post in self.posts:
            last = _insert_after(last, _cloned_post(last, self.site.layout, post, self.member))
            if post.attached:
                self._show_attached(sid, last.select_one(self.site.layout.thread.body), post)
        return soup.decode(formatter=SOURCE_ORDER)

    def _show_attached(self, sid: str, body, post: Sent) -> None:
        """The post's inline tags as the board renders an attached picture."""
        rule, text = self.site.upload, post.fields["message"]
        body.clear()
        start = 0
        for found in re.finditer(rule.inline, text):
            body.append(text[start:found.start()])
            upload = post.attached.get(found.group("ref"))
            if upload is not None:
                shown = self._text(sid, rule.shown).replace(ATTACH_ID, upload)
                body.append(BeautifulSoup(shown, "html.parser"))
            start = found.end()
        body.append(text[start:])

    def _sentbox(self, sid: str) -> str:
        inbox = self.site.layout.inbox
        soup = BeautifulSoup(self._text(sid, self.site.pm_row_from), "html.parser")
        rows = soup.select(inbox.row)
        for pm in self.pms:   # each lands right after the saved rows: newest first
            row = copy.copy(rows[0])
            _set(row, inbox.id, pm.id)
            _set(row, inbox.subject, pm.fields["subject"])
            # a sent-items folder shows the recipient; a list of conversations, who started it
            _set(row, inbox.sender, self.member if self.site.sent_listed_with_inbox else pm.fields["to"])
            rows[-1].insert_after(row)
        for row in rows if not self.site.sent_listed_with_inbox else ():
            row.decompose()
        return soup.decode(formatter=SOURCE_ORDER)

    def _sent_pm_page(self, sid: str, pm_id: str) -> Response | str:
        """A PM the member sent, or one delivered to him (viewing it opens it), cloned from a saved PM page."""
        pm = next((p for p in (*self.pms, *self.delivered) if p.id == pm_id), None)
        if pm is None:
            return Response("no such message", status=404)
        message = self.site.layout.message
        if "from" in pm.fields:
            self.opened.add(pm.id)
        soup = BeautifulSoup(self._text(sid, self.site.pm_view_from), "html.parser")
        # "html:has(...)" names the whole page (soupsieve refuses some lexbor :has() forms)
        scope = soup.html if message.container.startswith("html:") else soup.select_one(message.container)
        _set(scope, message.subject, pm.fields["subject"])
        if "from" in pm.fields:
            _set(scope, message.id, pm.id)
            _set(scope, message.sender, pm.fields["from"])
        _fill(scope.select_one(message.body), pm.fields["message"])
        return soup.decode(formatter=SOURCE_ORDER)

    def _with_delivered(self, html: str) -> str:
        """The inbox page with a row for each PM delivered, newest first, above the saved rows."""
        inbox = self.site.layout.inbox
        soup = BeautifulSoup(html, "html.parser")
        first = soup.select(inbox.row)[0]
        for pm in self.delivered:       # each goes above the one before: newest first
            row = copy.copy(first)
            _set(row, inbox.id, pm.id)
            _set(row, inbox.subject, pm.fields["subject"])
            _set(row, inbox.sender, pm.fields["from"])
            first.insert_before(row)
            first = row
        return soup.decode(formatter=SOURCE_ORDER)

    def _tokens_ok(self, sid: str, rule: FormRule | UploadRule | Removal, form: dict[str, str]) -> bool:
        def resolved(text: str) -> str:
            return _session_value(text, sid) if text in self.site.placeholders else text
        return all(form.get(resolved(t.name)) == resolved(t.value) for t in rule.tokens)


def _session_value(placeholder: str, sid: str) -> str:
    return "t" + hashlib.sha1(f"{placeholder}/{sid}".encode()).hexdigest()[:15]


def _cloned_post(model, layout: EngineLayout, post: Sent, author: str):
    clone = copy.copy(model)
    _set(clone, layout.thread.post_id, post.id)
    _set(clone, layout.thread.author, author)
    _fill(clone.select_one(layout.thread.body), post.fields["message"])
    return clone


def _insert_after(anchor, node):
    anchor.insert_after(node)
    return node


def _fill(node, text: str) -> None:
    node.clear()
    node.append(text)


def _get(scope, spec: Field) -> str | None:
    """What the parser reads as `spec` in `scope` (its pattern's group, else all of it)."""
    node = scope if spec.selector is None else scope.select_one(spec.selector)
    if node is None:
        return None
    text = node.get(spec.attr, "") if spec.attr else node.get_text()
    found = re.search(spec.pattern, text) if spec.pattern else None
    return (found.group(1) if found.re.groups else found.group(0)) if found else (None if spec.pattern else text)


def _set(scope, spec: Field, value: str) -> None:
    """Write `value` where the parser reads `spec` (its pattern's group, else all of it)."""
    node = scope if spec.selector is None else scope.select_one(spec.selector)
    old = node[spec.attr] if spec.attr else node.get_text()
    new = value
    if spec.pattern and (found := re.search(spec.pattern, old)):
        group = 1 if found.re.groups else 0
        new = old[:found.start(group)] + value + old[found.end(group):]
    if spec.attr:
        node[spec.attr] = new
    else:
        _fill(node, new)


class _Quiet(WSGIRequestHandler):
    def log_request(self, *args) -> None:
        pass


class BoardServer:
    """The board on a free port of 127.0.0.1 in a daemon thread, for one test (a context manager)."""

    def __init__(self, board: FixtureBoard):
        self.board = board
        self._server = make_server("127.0.0.1", 0, board.app(), threaded=True, request_handler=_Quiet)
        host, port = self._server.server_address[:2]
        self.url = board.base_url = f"http://{host}:{port}/"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": STOP_POLL},
                                        name="fixture-board", daemon=True)

    def __enter__(self) -> "BoardServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

