"""The local forum's data: accounts, one or more topics, posts with edits, private messages.

In memory and timed by an injectable clock, so that a demo can run a game on a fast clock and
tests can step time. The methods below are the "admin side" scripts and tests use to act as a
player without going through HTTP; the HTTP side (app.py) calls the same methods.
"""
from __future__ import annotations

import hashlib
import secrets
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable

Clock = Callable[[], datetime]

POSTS_PER_PAGE = 5
PMS_PER_PAGE = 25
PM_FOLDER_LIMIT = 50      # phpBB's default; new PMs are held back once the inbox holds this many
FORM_MIN_AGE = 1          # phpBB's check_form_key(): a form submitted in its own second is refused
FORM_MAX_AGE = 7200


def system_clock() -> datetime:
    return datetime.now(timezone.utc)


class BoardError(ValueError):
    """What phpBB would show in red on the form (the message is the board's own text)."""


@dataclass
class User:
    id: int
    name: str
    password: str
    admin: bool = False
    pm_folders: dict[int, str] = field(default_factory=dict)   # his own PM folders (phpBB: ids from 1)


@dataclass
class BoardPost:
    id: int
    topic_id: int
    author_id: int
    subject: str
    bbcode: str
    posted_at: datetime
    edited_at: datetime | None = None
    edited_by: int | None = None
    edit_count: int = 0
    deleted: bool = False
    soft_deleted: bool = False    # by a moderator: still shown to moderators, marked deleted (phpBB 3.1+)


@dataclass
class BoardFile:
    """A file uploaded with a reply form's "Add the file" step; a post it went with names it."""

    id: int
    name: str
    data: bytes
    post_id: int | None = None


@dataclass
class Topic:
    id: int
    forum_id: int
    title: str
    post_ids: list[int] = field(default_factory=list)


@dataclass
class PrivateMessage:
    id: int
    sender_id: int
    recipient_id: int
    subject: str
    bbcode: str
    sent_at: datetime
    unread: bool = True
    placed: bool = False      # in the recipient's folders: phpBB keeps it in the sender's outbox till then
    folder: int = 0           # the recipient's folder: 0 the inbox, else one of his own
    deleted: bool = False     # by the recipient (the sender's copy stays)
    sender_deleted: bool = False   # the sender's copy, from his sent folder (the recipient's stays)


class Board:
    def __init__(self, clock: Clock = system_clock, title: str = "forumgm local board",
                 posts_per_page: int = POSTS_PER_PAGE, pm_folder_limit: int = PM_FOLDER_LIMIT,
                 form_clock: Callable[[], float] | None = None, attachments: bool = False):
        self.clock = clock
        # the reply form takes files, as a phpBB whose admin allows attachments (else it shows no file field)
        self.attachments = attachments
        # phpBB times its form keys by the server's own clock, seconds: on a demo's fast game
        # clock a form the client posts a real second after fetching it would be hours old
        self.form_clock = form_clock or self._clock_seconds
        self.title = title
        self.posts_per_page = posts_per_page
        self.pm_folder_limit = pm_folder_limit     # an admin's setting on a real board
        self.users: dict[int, User] = {}
        self.topics: dict[int, Topic] = {}
        self.posts: dict[int, BoardPost] = {}
        self.pms: dict[int, PrivateMessage] = {}
        self.files: dict[int, BoardFile] = {}
        self.sessions: dict[str, int] = {}
        # topics shown in a markup no phpBB parser knows, as after a theme change (for tests)
        self.broken_topics: set[int] = set()
        # pages sent with an ETag and answered 304 when unchanged, as a board behind a caching proxy
        # (phpBB itself sends no validator): the client's conditional GETs (for tests)
        self.etags = False
        # answers carry the board's clock as their Date:, as a real board's do; False: a server set
        # to send none, whose clock only its posts' dates tell (for tests)
        self.dates_answers = True
        self._salt = secrets.token_hex(8)
        self._lock = threading.RLock()

    def _clock_seconds(self) -> float:
        return self.clock().timestamp()

    # a deep copy (tests give each test its own copy of a played board) takes a lock of its own and
    # times its forms by its own clock
    def __getstate__(self) -> dict:
        return {name: value for name, value in self.__dict__.items() if name != "_lock"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.RLock()

    # -- accounts and sessions -------------------------------------------------------------
    def add_user(self, name: str, password: str, admin: bool = False) -> User:
        with self._lock:
            user = User(id=max(self.users, default=1) + 1, name=name, password=password, admin=admin)
            self.users[user.id] = user
            return user

    def user_named(self, name: str) -> User | None:
        folded = name.strip().casefold()
        return next((u for u in self.users.values() if u.name.casefold() == folded), None)

    def login(self, name: str, password: str) -> str:
        user = self.user_named(name)
        if user is None or not secrets.compare_digest(user.password.encode(), password.encode()):
            raise BoardError("You have specified an incorrect username or password.")
        sid = secrets.token_hex(16)
        with self._lock:
            self.sessions[sid] = user.id
        return sid

    def session_user(self, sid: str | None) -> User | None:
        user_id = self.sessions.get(sid or "")
        return self.users.get(user_id) if user_id else None

    def expire_sessions(self) -> None:
        """Every logged-in client becomes a guest, as after the board's session length."""
        with self._lock:
            self.sessions.clear()

    # -- form keys (phpBB's add_form_key/check_form_key) ----------------------------------
    def form_key(self, form_name: str, sid: str | None) -> tuple[int, str]:
        created = int(self.form_clock())
        return created, self._token(created, form_name, sid)

    def check_form_key(self, form_name: str, sid: str | None, creation_time: str, token: str) -> None:
        try:
            created = int(creation_time)
        except ValueError:
            created = -FORM_MAX_AGE * 2
        age = int(self.form_clock()) - created
        expected = self._token(created, form_name, sid)
        if not (FORM_MIN_AGE <= age <= FORM_MAX_AGE) or not secrets.compare_digest(expected, token or ""):
            raise BoardError("The submitted form was invalid. Try submitting again.")

    def _token(self, created: int, form_name: str, sid: str | None) -> str:
        return hashlib.sha1(f"{created}{self._salt}{form_name}{sid or ''}".encode()).hexdigest()

    # -- topics and posts ------------------------------------------------------------------
    def add_topic(self, author: str, title: str, bbcode: str, forum_id: int = 2) -> Topic:
        with self._lock:
            topic = Topic(id=max(self.topics, default=1) + 1, forum_id=forum_id, title=title)
            self.topics[topic.id] = topic
            self._add_post(topic, self._user(author), title, bbcode)
            return topic

    def reply(self, author: str, topic_id: int, bbcode: str, subject: str | None = None) -> BoardPost:
        if not bbcode.strip():
            raise BoardError("Your message contains too few characters.")
        with self._lock:
            topic = self.topics[topic_id]
            return self._add_post(topic, self._user(author), subject or f"Re: {topic.title}", bbcode)

    def upload(self, name: str, data: bytes) -> BoardFile:
        """A file added to a reply form, not yet posted (phpBB's orphan attachment)."""
        if not name or not data:
            raise BoardError("The file is empty or no file was chosen.")
        with self._lock:
            upload = BoardFile(id=max(self.files, default=0) + 1, name=name, data=data)
            self.files[upload.id] = upload
            return upload

    def attach(self, post_id: int, file_ids: list[int]) -> None:
        """The post carries the uploaded files (those already posted elsewhere are no longer orphans)."""
        with self._lock:
            for file_id in file_ids:
                if file_id in self.files and self.files[file_id].post_id is None:
                    self.files[file_id].post_id = post_id

    def post_files(self, post_id: int) -> list[BoardFile]:
        return [f for f in self.files.values() if f.post_id == post_id]

    def edit_post(self, post_id: int, bbcode: str, by: str | None = None) -> BoardPost:
        """phpBB records "Last edited by" only when the post is not the topic's last one."""
        with self._lock:
            post = self.posts[post_id]
            editor = self._user(by) if by else self.users[post.author_id]
            if self.visible_posts(post.topic_id)[-1].id != post.id:
                post.edit_count += 1
                post.edited_at = self.clock()
                post.edited_by = editor.id
            post.bbcode = bbcode
            return post

    def delete_post(self, post_id: int) -> None:
        with self._lock:
            self.posts[post_id].deleted = True

    def soft_delete_post(self, post_id: int) -> None:
        with self._lock:
            self.posts[post_id].soft_deleted = True

    def visible_posts(self, topic_id: int, moderator: bool = False) -> list[BoardPost]:
        """What a member sees; a moderator also sees soft-deleted posts (marked as such)."""
        return [p for p in (self.posts[i] for i in self.topics[topic_id].post_ids)
                if not p.deleted and (moderator or not p.soft_deleted)]

    def _add_post(self, topic: Topic, author: User, subject: str, bbcode: str) -> BoardPost:
        # ids only grow and dicts keep insertion order: the last key is the largest (a 20,000-post
        # thread is built in a blink, not in quadratic time)
        post = BoardPost(id=next(reversed(self.posts), 1) + 1, topic_id=topic.id, author_id=author.id,
                         subject=subject, bbcode=bbcode, posted_at=self.clock())
        self.posts[post.id] = post
        topic.post_ids.append(post.id)
        return post

    # -- private messages ------------------------------------------------------------------
    def send_pm(self, sender: str, to: str, subject: str, bbcode: str) -> PrivateMessage:
        recipient = self.user_named(to)
        if recipient is None:
            raise BoardError("The following usernames could not be found: " + to)
        if not subject.strip():
            raise BoardError("You must specify a subject when posting a new topic.")
        if not bbcode.strip():
            raise BoardError("Your message contains too few characters.")
        with self._lock:
            pm = PrivateMessage(id=next(reversed(self.pms), 0) + 1, sender_id=self._user(sender).id,
                                recipient_id=recipient.id, subject=subject, bbcode=bbcode,
                                sent_at=self.clock())
            self.pms[pm.id] = pm
            return pm

    def inbox(self, user_id: int) -> list[PrivateMessage]:
        """Newest first; a PM beyond the folder's limit is held back, as phpBB does by default, and
        comes in once PMs before it are deleted or moved."""
        return self.pm_folder(user_id, 0)

    def pm_folder(self, user_id: int, folder: int) -> list[PrivateMessage]:
        """Newest first, the folder's limit at most (phpBB limits every folder alike)."""
        received = sorted((m for m in self.pms.values()
                           if m.recipient_id == user_id and not m.deleted and m.folder == folder), key=lambda m: m.id)
        return received[:self.pm_folder_limit][::-1]

    def add_pm_folder(self, user_id: int, name: str) -> int:
        user = self.users[user_id]
        number = max(user.pm_folders, default=0) + 1
        user.pm_folders[number] = name
        return number

    def remove_pms(self, user_id: int, pm_ids: list[int], to_folder: int | None = None) -> None:
        """Delete the PMs he received (to_folder None) or move them to one of his folders."""
        if to_folder is not None and to_folder not in self.users[user_id].pm_folders:
            raise BoardError("The selected folder does not exist.")
        with self._lock:
            for pm_id in pm_ids:
                pm = self.pms.get(pm_id)
                if pm is None or pm.recipient_id != user_id:
                    continue
                if to_folder is None:
                    pm.deleted = True
                else:
                    pm.folder = to_folder

    def place_pms(self, user_id: int) -> None:
        """The recipient opened his PMs: phpBB moves what was sent to him from the senders' outboxes
        to their sent folders."""
        for pm in self.pms.values():
            if pm.recipient_id == user_id:
                pm.placed = True

    def sentbox(self, user_id: int) -> list[PrivateMessage]:
        """Newest first; past the folder's limit phpBB deletes the oldest copies itself."""
        kept = sorted((m for m in self.pms.values() if m.sender_id == user_id and m.placed and not m.sender_deleted),
                      key=lambda m: -m.id)
        for dropped in kept[self.pm_folder_limit:]:
            dropped.sender_deleted = True
        return kept[:self.pm_folder_limit]

    def outbox(self, user_id: int) -> list[PrivateMessage]:
        return sorted((m for m in self.pms.values() if m.sender_id == user_id and not m.placed
                       and not m.sender_deleted), key=lambda m: -m.id)

    def remove_sent_pms(self, user_id: int, pm_ids: list[int]) -> None:
        """Delete his copies of PMs he sent from his sent folder (a PM in his outbox is not there)."""
        with self._lock:
            for pm_id in pm_ids:
                pm = self.pms.get(pm_id)
                if pm is not None and pm.sender_id == user_id and pm.placed:
                    pm.sender_deleted = True

    def _user(self, name: str) -> User:
        user = self.user_named(name)
        if user is None:
            raise KeyError(f"no account named {name!r} on the local forum")
        return user
