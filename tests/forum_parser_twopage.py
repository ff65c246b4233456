"""The two-page game thread hand-written for ipb3, ipb4, vbulletin3 and vbulletin4 (see each README.md).

Every engine carries the same six posts, the same PMs and the same fetch time, so the engine test
files share these expectations and checks.
"""
from datetime import datetime
from zoneinfo import ZoneInfo

from forumgm.parsers.forums import ENGINES
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
FLAGGED = ((), (), (), (), (("Аскон", "spoiler"),), ())
UNQUOTED_OPENINGS = ("Голосую за Robozik", "Не согласен.", "Оба мимо.", "Мой голос:", "Пока не голосую.",
                     "Голос за gosha100")
PM_LINES = ["Атака 5 gosha100", "Атака магией gosha100", "Атака 10 Robozik"]
INBOX = (("Robozik", "60", "Ночь 1", True, datetime(2026, 11, 30, 13, 59, tzinfo=MSK)),
         ("Аскон", "58", "Ночной ход", False, datetime(2026, 11, 30, 0, 40, tzinfo=MSK)))


def thread(engine: str) -> list:
    functions = ENGINES[engine]
    return [post for name in ("thread_page1", "thread_page2_last")
            for post in functions.posts(page(engine, name), ZONE, NOW)]


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
