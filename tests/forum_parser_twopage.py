"""The two-page game thread hand-written for ipb3, ipb4, vbulletin3 and vbulletin4 (see each README.md).

Every engine carries the same six posts, the same PMs and the same fetch time, so the engine test
files share these expectations and checks.
"""
from datetime import datetime
from functools import lru_cache
from zoneinfo import ZoneInfo

import pytest

from forumgm.parsers.forums import ENGINES
from forumgm.parsers.forums.base import PageInfo, PageLayoutError
from forum_parser_fixtures import page

ZONE = "Europe/Moscow"
MSK = ZoneInfo(ZONE)
NOW = datetime(2026, 11, 30, 14, 30, tzinfo=MSK)   # the fetch time: «Сегодня» is 30 November
BLUE, RED = "#0000ff", "#ff0000"
AUTHORS = (("Аскон", "58"), ("gosha100", "59"), ("Кума", "62"), ("Гладиатор", "63"),
           ("Ильмаринен", "61"), ("Robozik", "60"))
POSTED = (datetime(2026, 11, 29, 22, 10, tzinfo=MSK), datetime(2026, 11, 29, 22, 31, tzinfo=MSK),
          datetime(2026, 11, 29, 23, 5, tzinfo=MSK), datetime(2026, 11, 30, 9, 5, tzinfo=MSK),
          datetime(2026, 11, 30, 13, 59, tzinfo=MSK), datetime(2026, 11, 30, 14, 2, tzinfo=MSK))
EDITED_AT = datetime(2026, 11, 30, 9, 20, tzinfo=MSK)   # post 4, by its author
COLORED = (((BLUE, "Robozik"),), ((BLUE, "Аскон"),), ((RED, "Ильмаринен"),), ((BLUE, "Кума"),), (),
           ((BLUE, "gosha100"),))
FLAGGED = ((), (("Robozik", "quote"),), (("Robozik", "quote"), ("Аскон", "quote")), (),
           (("Аскон", "spoiler"),), ())
UNQUOTED_OPENINGS = ("Голосую за Robozik", "Не согласен.", "Оба мимо.", "Мой голос:", "Пока не голосую.",
                     "Голос за gosha100")
PM_LINES = ["Атака 5 gosha100", "Атака магией gosha100", "Атака 10 Robozik"]
INBOX = (("Robozik", "60", "Ночь 1", True, datetime(2026, 11, 30, 13, 59, tzinfo=MSK)),
         ("Аскон", "58", "Ночной ход", False, datetime(2026, 11, 30, 0, 40, tzinfo=MSK)))


@lru_cache(maxsize=None)
def thread(engine: str) -> tuple:
    functions = ENGINES[engine]
    return tuple(post for name in ("thread_page1", "thread_page2_last")
                 for post in functions.posts(page(engine, name), ZONE, NOW))


def check_posts(posts, first_id: int) -> None:
    assert [post.id for post in posts] == [str(first_id + n) for n in range(6)]
    assert [(post.author, post.author_id) for post in posts] == list(AUTHORS)
    assert [post.posted_at for post in posts] == list(POSTED)
    assert [post.page for post in posts] == [1, 1, 1, 1, 2, 2]


def check_votes(posts) -> None:
    assert [tuple((f.color, f.text) for f in post.colored) for post in posts] == list(COLORED)
    assert [tuple((f.text, f.where) for f in post.flagged) for post in posts] == list(FLAGGED)
    assert [post.text_unquoted.startswith(opening) for post, opening in zip(posts, UNQUOTED_OPENINGS)] == [True] * 6
    nested = posts[2].text   # the quote of a quote keeps both quoted votes in the full text
    assert nested.index("Голосую за Robozik") < nested.index("Не согласен.") < nested.index("Оба мимо.")
    assert "Robozik" not in posts[2].text_unquoted and "Аскон" not in posts[2].text_unquoted


def check_edits(posts, edited_by: str | None = "Гладиатор") -> None:
    assert [post.edited_at for post in posts] == [None, None, None, EDITED_AT, None, None]
    assert posts[3].edited_by == edited_by
    assert "отредактировал" not in posts[3].text and "Изменено" not in posts[3].text


def check_inbox(headers, ids: tuple[str, str]) -> None:
    assert [(h.id, h.sender, h.sender_id, h.subject, h.unread, h.sent_at) for h in headers] == [
        (pm_id, *row) for pm_id, row in zip(ids, INBOX)]


def check_message(pm, pm_id: str) -> None:
    assert (pm.id, pm.sender, pm.sender_id, pm.subject) == (pm_id, "Аскон", "58", "Ночной ход")
    assert pm.sent_at == INBOX[1][4]
    assert [line for line in pm.text.split("\n") if line] == PM_LINES


def pytest_generate_tests(metafunc):
    """Runs a TwoPageEngineTests subclass once per engine it names (import this into the test module)."""
    if "engine" in metafunc.fixturenames and metafunc.cls is not None and hasattr(metafunc.cls, "FIRST_POST"):
        metafunc.parametrize("engine", sorted(metafunc.cls.FIRST_POST))


class TwoPageEngineTests:
    """The tests every engine with these fixtures passes; a subclass names its engines' ids."""
    FIRST_POST: dict[str, int] = {}               # engine -> id of the thread's first post
    PM_IDS: dict[str, tuple[str, str]] = {}       # engine -> ids of the unread and the read PM
    OTHER_PAGES: tuple[str, ...] = ()             # "engine/page" of other engines, none of them readable

    def test_ids_authors_times_and_pages(self, engine):
        check_posts(thread(engine), self.FIRST_POST[engine])

    def test_votes_outside_quotes_spoilers_and_code(self, engine):
        check_votes(thread(engine))

    def test_edit_marker_time_and_editor(self, engine):
        check_edits(thread(engine))

    def test_page_counts(self, engine):
        assert ENGINES[engine].page_info(page(engine, "thread_page1")) == PageInfo(1, 2)
        assert ENGINES[engine].page_info(page(engine, "thread_page2_last")) == PageInfo(2, 2)

    def test_inbox_and_message(self, engine):
        check_inbox(ENGINES[engine].inbox(page(engine, "pm_inbox"), ZONE, NOW), self.PM_IDS[engine])
        check_message(ENGINES[engine].message(page(engine, "pm_view"), ZONE, NOW), self.PM_IDS[engine][1])

    def test_other_engines_pages_are_layout_errors(self, engine):
        functions = ENGINES[engine]
        for other in self.OTHER_PAGES:
            other_engine, name = other.split("/")
            if other_engine == engine:
                continue
            for read in (functions.posts, functions.inbox, functions.message):
                with pytest.raises(PageLayoutError):
                    read(page(other_engine, name), ZONE, NOW)

    def test_own_pages_of_the_wrong_kind_are_layout_errors(self, engine):
        functions = ENGINES[engine]
        for read, name in ((functions.posts, "pm_view"), (functions.posts, "pm_inbox"),
                           (functions.inbox, "thread_page1"), (functions.message, "thread_page1")):
            with pytest.raises(PageLayoutError):
                read(page(engine, name), ZONE, NOW)
