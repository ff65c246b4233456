"""What one forum engine's HTTP side looks like, as data: URLs, form names, field names, answers.

An adapter is an EngineSpec plus the few steps its engine does differently (adapter.py runs the
common flows). Templates are relative to the board root and take `{thread}` (what the spec's
`thread_id` pattern took from the thread URL), `{page}` (1-based), `{start}` (posts before the
page), `{pm}` (a PM id) and `{post}` (a post id).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from forumgm.parsers.forums.unread import UnreadCount


@dataclass(frozen=True)
class Paged:
    """A listing URL: `first` for page 1, `later` (default: `first`) for the pages after it."""
    first: str
    later: str | None = None

    def url(self, page: int, **values) -> str:
        template = self.later if page > 1 and self.later else self.first
        return template.format(page=page, **values)

    @property
    def uses_start(self) -> bool:
        return "{start}" in (self.later or self.first)


@dataclass(frozen=True)
class FormStep:
    """One form the adapter fills in: the page holding it, the parser's name for it, and which
    of the form's fields take our values ("message" -> "req_message"). `fixed` adds the submit
    button and any choice the engine wants sent."""
    page: str
    form: str
    fields: Mapping[str, str]
    fixed: Mapping[str, str] = field(default_factory=dict)

    def values(self, form_fields: Iterable[str] = (), **ours: str) -> dict[str, str]:
        """Our values under the form's names; a name ending in "*" is the form's field starting so
        (Invision Community 4 numbers its editor fields after the topic: `topic_comment_7`)."""
        def named(name: str) -> str:
            if not name.endswith("*"):
                return name
            return next((field for field in form_fields if field.startswith(name[:-1])), name[:-1])
        return {**{named(name): ours[our] for our, name in self.fields.items() if our in ours}, **self.fixed}


@dataclass(frozen=True)
class PmRemoval:
    """How the board removes PMs from the inbox: the inbox page's form with a box per PM, how a
    box is marked, and what the form sends to delete or move the marked PMs.

    `mark` names the field of one PM (`{pm}` its id, `{n}` its place among the marked: PHP reads
    `pms[0]`, `pms[1]` as the `pms[]` the page has) and `mark_value` its value. A move's values
    name `{folder}`: the value of the page's `folder_options` entry whose text is the folder's
    name (a count after it, "[3]", is the board's)."""
    form: str                          # CSS of the inbox page's form
    mark: str
    delete: Mapping[str, str]
    mark_value: str = "{pm}"
    move: Mapping[str, str] | None = None
    folder_options: str | None = None  # CSS of the <option>s naming the folders a PM can go to
    confirm: str | None = None         # CSS of the "are you sure?" form a delete answers with (phpBB)
    confirm_with: Mapping[str, str] = field(default_factory=dict)   # the button that says yes
    trash: Paged | None = None         # a deleted PM lands here and is deleted once more from it (MyBB)

    @property
    def actions(self) -> tuple[str, ...]:
        return ("delete", "move") if self.move is not None else ("delete",)


@dataclass(frozen=True)
class PmSpec:
    inbox: Paged
    sentbox: Paged
    message: str                  # {pm}
    send: FormStep                # our values: to, subject, message
    sent_ref: str | None = None   # pattern over where the board sends after sending: group 1 = the PM id;
                                  # None: the board does not say, the newest copy in the sent box does
    sent_message: str | None = None   # a sent PM's page when it differs from `message`
    per_page: int = 50            # PMs a listing page shows, for `{start}`
    sent_accepted: str | None = None  # pattern over where the board sends after taking a PM it does not name
    outbox: Paged | None = None   # PMs sent but not read yet, when the board keeps them apart (phpBB)
    oldest_first: bool = False    # folders list the oldest PM first and open on their last page (SMF)
    lists_recipient: bool = True  # a sent folder's row names the recipient; False: a list of
                                  # conversations naming who started each (the host, for ours)
    removal: PmRemoval | None = None   # None: forumgm cannot delete or move PMs on this board
    sent_counted: bool = False    # the account's sent copies count against a limit the board sets (MyBB's
                                  # quota over every folder, phpBB's sent folder): recorded ones are deleted
    full_keeps_no_copy: bool = False  # with that limit reached the board keeps no copy of a new PM (MyBB;
                                      # phpBB drops its oldest instead): a lost answer could not be confirmed
    verification: str | None = None   # CSS of the compose form's verification (a picture to read, a
                                      # question) the board asks of some accounts before a PM: forumgm
                                      # cannot answer it, so the host is told what to change
    verification_advice: str = ""     # ... what to change on this engine's board

    @property
    def sent_folders(self) -> tuple[Paged, ...]:
        return (self.sentbox,) if self.outbox is None else (self.sentbox, self.outbox)


@dataclass(frozen=True)
class MemberSearch:
    """The board's member list searched by name, as a logged-in member reads it: `page` with `{name}`
    (the name URL-quoted), `name` the CSS of each listed member's name (a link to his profile)."""
    page: str
    name: str


@dataclass(frozen=True)
class EngineSpec:
    name: str                     # as the host writes it, for messages
    logged_in: str                # text every page shows a logged-in member (a logout link...)
    errors: str                   # CSS of the board's refusal message on a form page
    thread_id: str                # pattern over a thread URL: group 1 is `{thread}`
    thread_page: Paged
    login: FormStep               # our values: username, password
    reply: FormStep               # our values: message
    reply_ref: str                # pattern over where the board sends after a reply: group 1 = the post id
    pm: PmSpec | None = None      # None: the engine has no private messages
    per_page_link: str | None = None  # pattern of a page link's `{start}`, to learn the posts per page
    default_per_page: int = 10
    post_link: str | None = None  # one post's permalink: `{thread}`, `{post}` (the parser's post id)
    forms: Mapping[str, str] = field(default_factory=dict)   # name -> CSS of a form the parser does not
                                                             # know (a PM compose form), for FormStep.form
    reply_accepted: str | None = None  # pattern over where the board sends after taking a reply it does not name
    post_interval: float = 0.0    # the board's own flood rule for the host's account, seconds between posts
    flood_pause: float = 60.0     # waited after a flood refusal that names no pause: the engine's stock
                                  # flood interval (phpBB says only "so soon after your last")
    flood_left: bool = False      # its flood refusal names the seconds left (MyBB), not the whole interval
    stale_form: str | None = None  # the board's refusal of a form whose token expired (fetched too long
                                   # before it was sent, or its session ended meanwhile): fetched again once
    unread_pms: tuple[UnreadCount, ...] = ()   # where the header shows the unread PMs on every page,
                                               # the first found tells; none: the inbox is read at every poll
    members: MemberSearch | None = None   # where the board tells whether it has a member (forumgm replace's
                                          # new account); None: it cannot be asked without sending
