"""Reading forum pages through an EngineLayout: posts, page numbers, inbox, one PM, forms.

Every engine module binds these functions to its layout (`bind`), so all engines share one
reader and differ only in data. Pages are parsed with selectolax (lexbor): fast, CSS native.
"""
from __future__ import annotations

import re
from datetime import datetime, time, timedelta, tzinfo
from typing import Callable, Iterable, NamedTuple, TypeVar
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forumgm.parsers.dates import parse_forum_date
from forumgm.parsers.forums.base import (
    Form, Listing, PageInfo, PageLayoutError, PastLastPage, PmHeader, PmMessage, Post,
)
from forumgm.parsers.forums.body import Marks, read_body
from forumgm.parsers.forums.html import parse_html
from forumgm.parsers.forums.layout import EngineLayout, Field, Fields, InboxLayout, MessageLayout, Pagination
from forumgm.parsers.forums.queries import ALONE, Alone, Posts, every, first

Zone = tzinfo | str
Query = Alone | Posts
T = TypeVar("T")


def read_field(scope: LexborNode, spec: Field | None, query: Query = ALONE) -> str | None:
    """The stripped value `spec` names inside `scope`, or None when it is absent or empty.
    (`query`: Posts when the scope is a post sharing its queries with the page's posts.)"""
    if spec is None:
        return None
    if spec.joined and spec.selector is not None:
        values = [value for node in query.every(scope, spec.selector)
                  if (value := _node_value(node, spec.attr)) is not None]
        if not values:
            return None
        value = " ".join(" ".join(values).split())
    else:           # one node, the usual case: no lists to build and join
        node = scope if spec.selector is None else query.first(scope, spec.selector)
        value = _node_value(node, spec.attr) if node is not None else None
        if value is None:
            return None
        value = " ".join(value.split())
    if spec.regex is not None:
        match = spec.regex.search(value)
        if match is None:
            return None
        value = (match.group(1) if match.re.groups else match.group(0)).strip()
    return value or None


def _node_value(node: LexborNode, attr: str | None) -> str | None:
    # one attribute read on its own: building the dict of them all costs more on a post's container
    return node.attrs.get(attr) if attr else node.text(deep=True)


def read_fields(scope: LexborNode, specs: Fields, query: Query = ALONE) -> str | None:
    for spec in specs:
        value = read_field(scope, spec, query)
        if value is not None:
            return value
    return None


# A page fetched just after local midnight may have been rendered just before it: its "Today,
# 23:59" is then yesterday. Such a page shows a "today" far in the future of the fetch time.
_MIDNIGHT_WINDOW = timedelta(minutes=10)
_FUTURE = timedelta(hours=1)


def rendered_on_its_day(read: Callable[[datetime | None], T], dates: Callable[[T], Iterable[datetime]],
                        tz: Zone, now: datetime | None) -> T:
    """`read(now)`, or — when `now` is just after midnight and the page dates something far
    ahead of it — `read` with the clock of the evening before, when the forum rendered the page."""
    result = read(now)
    if now is None:
        return result
    zone = _zone(tz)
    midnight = datetime.combine(now.astimezone(zone).date(), time(0), tzinfo=zone)
    if now - midnight < _MIDNIGHT_WINDOW and any(at > now + _FUTURE for at in dates(result)):
        return read(midnight - timedelta(microseconds=1))
    return result


def read_posts(html: str, layout: EngineLayout, tz: Zone, now: datetime | None = None) -> list[Post]:
    return _posts(parse_html(html), layout, tz, now)


def read_page_info(html: str, layout: EngineLayout) -> PageInfo:
    return _thread_page_info(parse_html(html), layout)


def read_thread_page(html: str, layout: EngineLayout, tz: Zone,
                     now: datetime | None = None) -> tuple[PageInfo, list[Post]]:
    """A thread page's place among the thread's pages, then its posts: the page parsed once (a
    page of the thread is read at every poll, and parsing it is most of what reading it costs)."""
    tree = parse_html(html)
    return _thread_page_info(tree, layout), _posts(tree, layout, tz, now)


def _posts(tree: LexborHTMLParser, layout: EngineLayout, tz: Zone, now: datetime | None) -> list[Post]:
    containers = every(tree.root, layout.thread.post)
    if not containers:
        raise PageLayoutError(f"{layout.name}: no posts found ({layout.thread.post!r}); not a thread page?")
    page = _page_number(tree, layout.thread.pagination)
    posts = Posts(containers)                 # each query once for all the posts
    marks = Marks(posts.root, layout.body)    # and for all their bodies
    zone = _zone(tz)
    return rendered_on_its_day(
        lambda clock: [_post(container, layout, zone, clock, page, posts, marks) for container in containers],
        lambda posts: [at for post in posts for at in (post.posted_at, post.edited_at) if isinstance(at, datetime)],
        tz, now)


def _thread_page_info(tree: LexborHTMLParser, layout: EngineLayout) -> PageInfo:
    if first(tree.root, layout.thread.post) is None:
        pagination = layout.thread.pagination
        listed = first(tree.root, pagination.container) if pagination.container else None
        if listed is not None and (page := _current_page(listed, pagination)) > 1:
            raise PastLastPage(f"{layout.name}: page {page} of the thread shows no post", page)
        raise PageLayoutError(f"{layout.name}: no posts found; not a thread page?")
    return _page_info(tree, layout.thread.pagination)


def read_inbox(html: str, layout: EngineLayout, tz: Zone, now: datetime | None = None) -> list[PmHeader]:
    return _folder(parse_html(html), layout, _folder_layout(layout, sent=False), tz, now)


def read_sent(html: str, layout: EngineLayout, tz: Zone, now: datetime | None = None) -> list[PmHeader]:
    """A sent folder's rows; `sender` is whom the PM went to."""
    return _folder(parse_html(html), layout, _folder_layout(layout, sent=True), tz, now)


def _folder_layout(layout: EngineLayout, sent: bool) -> InboxLayout | None:
    """How a folder's rows read: the sent folder's own layout where the board has one."""
    return (layout.sent or layout.inbox) if sent else layout.inbox


def read_listing(html: str, layout: EngineLayout) -> Listing:
    """Where a PM folder page is among the folder's pages, its page links, what it says of the folder."""
    return _listing(parse_html(html), layout)


def read_folder_page(html: str, layout: EngineLayout, tz: Zone, now: datetime | None = None,
                     sent: bool = False) -> tuple[list[PmHeader], Listing]:
    """A page of the inbox (or of the sent folder): its rows and its listing (read_listing), the page
    parsed once."""
    tree = parse_html(html)
    listing = _listing(tree, layout)
    return _folder(tree, layout, _folder_layout(layout, sent), tz, now), listing


def _listing(tree: LexborHTMLParser, layout: EngineLayout) -> Listing:
    inbox = layout.inbox
    if inbox is None:
        raise PageLayoutError(f"{layout.name} has no private messages")
    info = _page_info(tree, inbox.pagination) if inbox.pagination else PageInfo(1, 1)
    links: dict[int, str] = {}
    container = first(tree.root, inbox.pagination.container) if inbox.pagination and inbox.pagination.container else None
    for link in every(container, "a[href]") if container is not None else ():
        number = _number(link.text(strip=True))
        if number is not None:
            links.setdefault(number, link.attributes["href"].replace("&amp;", "&"))
    page = tree.root
    fill = [int(n) for n in re.findall(r"\d+", read_field(page, inbox.fill) or "")] if inbox.fill else []
    return Listing(page=info.page, pages=info.pages, links=links, total=_number(read_field(page, inbox.total)),
                   stored=fill[0] if len(fill) == 2 else None, limit=fill[1] if len(fill) == 2 else None,
                   used=_percent(read_field(page, inbox.used)),
                   list_missing=bool(inbox.pagination and inbox.pagination.always and container is None))


def _folder(tree: LexborHTMLParser, layout: EngineLayout, inbox: InboxLayout | None, tz: Zone,
            now: datetime | None) -> list[PmHeader]:
    if inbox is None:
        raise PageLayoutError(f"{layout.name} has no private messages")
    if first(tree.root, inbox.page) is None:
        raise PageLayoutError(f"{layout.name}: not an inbox page ({inbox.page!r} missing)")
    unread = {node.mem_id for node in every(tree.root, inbox.unread)}

    def headers(clock: datetime | None) -> list[PmHeader]:
        out = []
        for row in every(tree.root, inbox.row):
            pm_id = _required(row, inbox.id, layout, "PM id")
            out.append(PmHeader(
                id=pm_id,
                sender=_required(row, inbox.sender, layout, f"sender of PM {pm_id}"),
                sender_id=read_field(row, inbox.sender_id),
                subject=read_field(row, inbox.subject) or "",
                sent_at=_date(row, inbox.sent_at, layout, tz, clock, f"PM {pm_id}"),
                unread=row.mem_id in unread or first(row, inbox.unread) is not None,
            ))
        return out
    return rendered_on_its_day(headers, lambda rows: [row.sent_at for row in rows], tz, now)


def read_message(html: str, layout: EngineLayout, tz: Zone, now: datetime | None = None) -> PmMessage:
    return _read_message(html, layout, layout.message, tz, now)


def read_sent_message(html: str, layout: EngineLayout, tz: Zone, now: datetime | None = None) -> PmMessage:
    """The sender's copy of a PM (MyBB renders it with empty ids)."""
    return _read_message(html, layout, layout.sent_message or layout.message, tz, now)


def _read_message(html: str, layout: EngineLayout, spec: MessageLayout | None, tz: Zone,
                  now: datetime | None) -> PmMessage:
    if spec is None:
        raise PageLayoutError(f"{layout.name} has no private messages")
    container = first(parse_html(html).root, spec.container)
    if container is None:
        raise PageLayoutError(f"{layout.name}: not a private message page ({spec.container!r} missing)")
    pm_id = _required(container, spec.id, layout, "PM id")
    body = _required_node(container, spec.body, layout, f"body of PM {pm_id}")
    reading = read_body(body, layout.body)
    return PmMessage(
        id=pm_id,
        sender=_required(container, spec.sender, layout, f"sender of PM {pm_id}"),
        sender_id=read_field(container, spec.sender_id),
        subject=read_field(container, spec.subject) or "",
        sent_at=rendered_on_its_day(lambda clock: _date(container, spec.sent_at, layout, tz, clock, f"PM {pm_id}"),
                                    lambda at: [at], tz, now),
        html=body.inner_html.strip(),
        text=reading.text,
        text_unquoted=reading.text_unquoted,
    )


def read_form(html: str, layout: EngineLayout, name: str) -> Form:
    """The form `name` ("login", "reply", "pm" or a form id/name) with the values a browser would send.

    Submit buttons are left out: the caller adds the one it "clicks".
    """
    selector = layout.forms.get(name) or f'form#{name}, form[name="{name}"]'
    form = first(parse_html(html).root, selector)
    if form is None:
        raise PageLayoutError(f"{layout.name}: form {name!r} not found ({selector!r})")
    attributes = form.attributes
    return Form(
        action=attributes.get("action") or "",
        method=(attributes.get("method") or "get").lower(),
        fields=_form_fields(form),
        enctype=attributes.get("enctype") or "application/x-www-form-urlencoded",
        files=tuple(dict.fromkeys(control.attributes["name"] for control in every(form, 'input[type="file"][name]'))),
    )


def read_options(html: str, selector: str) -> list[tuple[str, str]]:
    """(value, text) of every <option> the selector finds, in page order."""
    return [(option.attributes.get("value") or option.text(strip=True), option.text(strip=True))
            for option in every(parse_html(html).root, selector)]


class EngineFunctions(NamedTuple):
    posts: Callable[..., list[Post]]
    page_info: Callable[[str], PageInfo]
    thread: Callable[..., tuple[PageInfo, list[Post]]]
    inbox: Callable[..., list[PmHeader]]
    message: Callable[..., PmMessage]
    form: Callable[[str, str], Form]
    sent: Callable[..., list[PmHeader]]
    sent_message: Callable[..., PmMessage]
    listing: Callable[[str], Listing]
    folder: Callable[..., tuple[list[PmHeader], Listing]]


def bind(layout: EngineLayout) -> EngineFunctions:
    """The engine module's public functions, reading pages through `layout`."""
    def posts(html: str, tz: Zone, now: datetime | None = None) -> list[Post]:
        return read_posts(html, layout, tz, now)

    def page_info(html: str) -> PageInfo:
        return read_page_info(html, layout)

    def thread(html: str, tz: Zone, now: datetime | None = None) -> tuple[PageInfo, list[Post]]:
        return read_thread_page(html, layout, tz, now)

    def inbox(html: str, tz: Zone, now: datetime | None = None) -> list[PmHeader]:
        return read_inbox(html, layout, tz, now)

    def message(html: str, tz: Zone, now: datetime | None = None) -> PmMessage:
        return read_message(html, layout, tz, now)

    def form(html: str, name: str) -> Form:
        return read_form(html, layout, name)

    def sent(html: str, tz: Zone, now: datetime | None = None) -> list[PmHeader]:
        return read_sent(html, layout, tz, now)

    def sent_message(html: str, tz: Zone, now: datetime | None = None) -> PmMessage:
        return read_sent_message(html, layout, tz, now)

    def listing(html: str) -> Listing:
        return read_listing(html, layout)

    def folder(html: str, tz: Zone, now: datetime | None = None, sent: bool = False) -> tuple[list[PmHeader], Listing]:
        return read_folder_page(html, layout, tz, now, sent)

    return EngineFunctions(posts, page_info, thread, inbox, message, form, sent, sent_message, listing, folder)


def _post(container: LexborNode, layout: EngineLayout, tz: tzinfo, now: datetime | None, page: int,
          posts: Posts, marks: Marks) -> Post:
    thread = layout.thread
    post_id = _required(container, thread.post_id, layout, "post id", posts)
    body = _required_node(container, thread.body, layout, f"body of post {post_id}", posts)
    reading = read_body(body, layout.body, marks)
    edited_at, edited_by = _edit(container, layout, tz, now, post_id, posts)
    return Post(
        hidden=bool(thread.hidden) and posts.first(container, thread.hidden) is not None,
        id=post_id,
        author=_required(container, thread.author, layout, f"author of post {post_id}", posts),
        author_id=read_field(container, thread.author_id, posts),
        posted_at=_date(container, thread.posted_at, layout, tz, now, f"post {post_id}", posts),
        edited_at=edited_at,
        edited_by=edited_by,
        html=body.inner_html.strip(),
        text=reading.text,
        text_unquoted=reading.text_unquoted,
        colored=reading.colored,
        flagged=reading.flagged,
        page=page,
    )


def _edit(container, layout, tz, now, post_id, posts: Posts):
    edit = layout.thread.edit
    marker = posts.first(container, edit.marker) if edit else None
    if marker is None:
        return None, None
    when = read_fields(marker, edit.time)
    edited_at: datetime | bool = True   # the engine shows that the post was edited, not when
    if when is not None:
        try:
            edited_at = parse_forum_date(when, tz, now)
        except ValueError as error:
            raise PageLayoutError(f"{layout.name}: post {post_id}: unreadable edit time: {error}") from None
    return edited_at, read_field(marker, edit.editor)


def _date(scope, specs: Fields, layout: EngineLayout, tz, now, what: str, query: Query = ALONE) -> datetime:
    value = read_fields(scope, specs, query)
    if value is None:
        raise PageLayoutError(f"{layout.name}: {what}: no date found")
    try:
        return parse_forum_date(value, tz, now)
    except ValueError as error:
        raise PageLayoutError(f"{layout.name}: {what}: {error}") from None


def _required(scope: LexborNode, spec: Field, layout: EngineLayout, what: str, query: Query = ALONE) -> str:
    value = read_field(scope, spec, query)
    if value is None:
        raise PageLayoutError(f"{layout.name}: {what} not found ({spec})")
    return value


def _required_node(scope: LexborNode, selector: str, layout: EngineLayout, what: str,
                   query: Query = ALONE) -> LexborNode:
    node = query.first(scope, selector)
    if node is None:
        raise PageLayoutError(f"{layout.name}: {what} not found ({selector!r})")
    return node


def _page_info(tree: LexborHTMLParser, pagination: Pagination) -> PageInfo:
    container = first(tree.root, pagination.container) if pagination.container else None
    if container is None:
        return PageInfo(1, 1)
    page = _current_page(container, pagination)
    stated = _number(read_field(container, pagination.total))
    listed = [number for node in every(container, "a, span, strong, b, li, em")
              if (number := _number(node.text(strip=True))) is not None]
    return PageInfo(page, stated or max([page, *listed]))


def _page_number(tree: LexborHTMLParser, pagination: Pagination) -> int:
    """`_page_info(...).page` without reading the page count, which posts do not need."""
    container = first(tree.root, pagination.container) if pagination.container else None
    return _current_page(container, pagination) if container is not None else 1


def _current_page(container: LexborNode, pagination: Pagination) -> int:
    current_node = first(container, pagination.current) if pagination.current else None
    return (_number(current_node.text(strip=True)) if current_node is not None else None) or 1


def _number(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None


def _percent(text: str | None) -> float | None:
    return float(text) if text and re.fullmatch(r"\d+(?:\.\d+)?", text) else None


def _form_fields(form: LexborNode) -> dict[str, str]:
    fields: dict[str, str] = {}
    for control in every(form, "input, textarea, select"):
        attributes = control.attributes
        name = attributes.get("name")
        if not name or "disabled" in attributes:
            continue
        kind = (attributes.get("type") or "text").lower()
        if control.tag == "textarea":
            fields[name] = control.text(deep=True)
        elif control.tag == "select":
            option = first(control, "option[selected]") or first(control, "option")
            if option is not None:
                fields[name] = option.attributes.get("value") or option.text(strip=True)
        elif kind in ("submit", "button", "image", "reset", "file"):
            continue
        elif kind in ("checkbox", "radio"):
            if "checked" in attributes:
                fields[name] = attributes.get("value") or "on"
        else:
            fields[name] = attributes.get("value") or ""
    return fields


def _zone(tz: Zone) -> tzinfo:
    return ZoneInfo(tz) if isinstance(tz, str) else tz
