"""Shared by the spine's tick tests: an in-memory forum with the Forum methods of INTERFACES.md."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from forumgm.parsers.forums.base import Listing, PageInfo, PmHeader, PmMessage, Post


@dataclass
class ScriptedPm:
    sender: str
    text: str
    at: datetime
    subject: str = "ход"


@dataclass
class MemoryForum:
    """Shows each scripted PM once the clock has reached its time; remembers everything sent."""

    clock: object
    pms: list[ScriptedPm] = field(default_factory=list)
    posts: list[Post] = field(default_factory=list)
    sent: list[dict] = field(default_factory=list)

    def login(self) -> None:
        pass

    def current_user(self) -> str:
        return "Ведущий"

    def thread_page_count(self, url: str) -> int:
        return 1

    def thread_page(self, url: str, page: int):
        shown = [p for p in self.posts if p.posted_at <= self.clock.now()]
        return PageInfo(1, 1), shown, "<html></html>"

    def _visible(self) -> list[tuple[str, ScriptedPm]]:
        return [(str(i + 1), pm) for i, pm in enumerate(self.pms) if pm.at <= self.clock.now()]

    def inbox_pages(self):
        yield [PmHeader(pm_id, pm.sender, None, pm.subject, pm.at, True) for pm_id, pm in reversed(self._visible())], \
            Listing()

    def message(self, pm_id: str) -> PmMessage:
        pm = self.pms[int(pm_id) - 1]
        return PmMessage(pm_id, pm.sender, None, pm.subject, pm.at, f"<p>{pm.text}</p>", pm.text)

    def reply(self, thread_url: str, bbcode: str) -> str:
        self.sent.append({"to": "thread", "body": bbcode})
        return f"post-{len(self.sent)}"

    def send_pm(self, to_nick: str, subject: str, bbcode: str) -> str:
        self.sent.append({"to": to_nick, "subject": subject, "body": bbcode})
        return f"pm-{len(self.sent)}"

    def newest_sent_pm(self) -> str:
        return str(len(self.sent))

    def find_own_post(self, thread_url: str, bbcode: str, after=None, since=None, claimed=(), pages_known=0) -> str | None:
        return self._find("thread", bbcode, claimed)

    def find_sent_pm(self, to_nick: str, subject: str, bbcode: str, after=None, claimed=()) -> str | None:
        return self._find(to_nick, bbcode, claimed)

    def _find(self, to: str, bbcode: str, claimed) -> str | None:
        for index, item in enumerate(self.sent):
            if item["to"] == to and item["body"] == bbcode and f"found-{index + 1}" not in claimed:
                return f"found-{index + 1}"
        return None
