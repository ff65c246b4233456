"""The four engines captured from real installs carry the same 13-post game thread."""
from datetime import datetime, timezone

import pytest
from selectolax.lexbor import LexborHTMLParser

from forumgm.parsers.forums import ENGINES
from forumgm.parsers.forums.base import PageLayoutError
from forum_parser_fixtures import CAPTURED, page

AUTHORS = ("Ведущий", "Аскон", "gosha100", "Robozik", "Ильмаринен", "Кума", "Гладиатор",
           "Ильмаринен", "Кума", "gosha100", "Robozik", "Ведущий", "Гладиатор")
BLUE, RED = "#0000ff", "#ff0000"
COLORED = (((BLUE, "ник"),), ((BLUE, "Robozik"),), ((BLUE, "Robozik"),), ((BLUE, "gosha100"),), (),
           ((RED, "Ильмаринен"),), ((BLUE, "Кума"),), ((BLUE, "Кума"),), ((BLUE, "Гладиатор"),), (),
           ((BLUE, "gosha100"),), (), ())
EDITED, QUOTES, HEX_BLUE = 1, (3, 8), 10   # positions in the thread

THREADS = {
    # engine: (id of the first post, user ids, first post's time)
    "phpbb": (2, {"Ведущий": "2", "Аскон": "58", "gosha100": "59", "Robozik": "60", "Ильмаринен": "61",
                  "Кума": "62", "Гладиатор": "63"}, datetime(2026, 11, 30, 4, 42, 53, tzinfo=timezone.utc)),
    "mybb": (1, {"Ведущий": "1", "Аскон": "2", "gosha100": "3", "Robozik": "4", "Ильмаринен": "5",
                 "Кума": "6", "Гладиатор": "7"}, datetime(2026, 11, 30, 4, 29, tzinfo=timezone.utc)),
    "smf": (2, {"Ведущий": "1", "Аскон": "2", "gosha100": "3", "Robozik": "4", "Ильмаринен": "5",
                "Кума": "6", "Гладиатор": "7"}, datetime(2026, 11, 30, 4, 34, tzinfo=timezone.utc)),
    "fluxbb": (2, {"Ведущий": "2", "Аскон": "3", "gosha100": "4", "Robozik": "5", "Ильмаринен": "6",
                   "Кума": "7", "Гладиатор": "8"}, datetime(2026, 11, 30, 4, 31, 26, tzinfo=timezone.utc)),
}
PAGES = ("thread_page1", "thread_page2", "thread_page3_last")


def whole_thread(engine):
    return [post for name in PAGES for post in ENGINES[engine].posts(page(engine, name), "UTC", CAPTURED)]


@pytest.fixture(params=sorted(THREADS), scope="module")
def thread(request):
    return request.param, whole_thread(request.param)


def test_ids_authors_and_author_ids(thread):
    engine, posts = thread
    first_id, user_ids, _ = THREADS[engine]
    assert [post.id for post in posts] == [str(first_id + n) for n in range(13)]
    assert tuple(post.author for post in posts) == AUTHORS
    assert [post.author_id for post in posts] == [user_ids[author] for author in AUTHORS]


def test_posts_know_their_page(thread):
    _, posts = thread
    assert [post.page for post in posts] == [1] * 5 + [2] * 5 + [3] * 3


def test_times_are_aware_and_read_in_the_forum_timezone(thread):
    engine, posts = thread
    assert posts[0].posted_at == THREADS[engine][2]
    assert all(post.posted_at.tzinfo is not None for post in posts)
    assert [p.posted_at for p in posts] == sorted(p.posted_at for p in posts)


def test_coloured_fragments_outside_quotes_in_page_order(thread):
    _, posts = thread
    assert [tuple((f.color, f.text) for f in post.colored) for post in posts] == list(COLORED)


def test_hex_blue_is_normalised(thread):
    _, posts = thread
    assert "#0000FF" in posts[HEX_BLUE].html
    assert posts[HEX_BLUE].colored[0].color == BLUE


def test_only_the_edited_post_has_an_edit_marker(thread):
    _, posts = thread
    edited = posts[EDITED]
    assert edited.edited_by == "Аскон"
    assert isinstance(edited.edited_at, datetime) and edited.edited_at >= edited.posted_at
    assert all(post.edited_at is None and post.edited_by is None for post in posts if post is not edited)


def test_quotes_stay_in_text_but_not_in_text_unquoted(thread):
    _, posts = thread
    quoting = posts[QUOTES[0]]
    assert "Странно, что меня сразу подозревают." in quoting.text
    assert "Странно" not in quoting.text_unquoted
    assert quoting.text_unquoted.startswith("Ну конечно, стрелки переводишь.")
    assert "Без доказательств обвиняешь." in posts[QUOTES[1]].text_unquoted
    assert "Мои заметки" not in posts[QUOTES[1]].text_unquoted


def test_plain_post_text_is_kept_line_by_line(thread):
    _, posts = thread
    assert posts[0].text.split("\n") == [
        "Начинается День 1.", "Голосуем за подозреваемых в формате: Голосую за ник",
        "Голосование до 20:00 МСК. Удачи!"]


@pytest.mark.parametrize("engine", sorted(THREADS))
def test_page_numbers(engine):
    module = ENGINES[engine]
    assert [(module.page_info(page(engine, n)).page, module.page_info(page(engine, n)).pages) for n in PAGES] \
        == [(1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize("engine", sorted(THREADS))
def test_a_thread_page_read_at_once_is_its_page_numbers_and_its_posts(engine):
    module = ENGINES[engine]
    for name in PAGES:
        html = page(engine, name)
        assert module.thread(html, "UTC", CAPTURED) == (module.page_info(html), module.posts(html, "UTC", CAPTURED))
    not_a_thread = {"phpbb": "index", "mybb": "forum", "smf": "login", "fluxbb": "newreply_form"}[engine]
    with pytest.raises(PageLayoutError):
        module.thread(page(engine, not_a_thread), "UTC", CAPTURED)


@pytest.mark.parametrize("engine", sorted(THREADS))
@pytest.mark.parametrize("other", sorted(THREADS))
def test_a_page_of_another_engine_is_a_layout_error(engine, other):
    if engine == other:
        return
    with pytest.raises(PageLayoutError):
        ENGINES[engine].posts(page(other, "thread_page1"), "UTC", CAPTURED)


@pytest.mark.parametrize("engine, name", [("phpbb", "index"), ("mybb", "forum"), ("smf", "login"),
                                          ("fluxbb", "newreply_form"), ("phpbb", "pm_inbox")])
def test_a_non_thread_page_is_a_layout_error_not_an_empty_list(engine, name):
    with pytest.raises(PageLayoutError):
        ENGINES[engine].posts(page(engine, name), "UTC", CAPTURED)
    with pytest.raises(PageLayoutError):
        ENGINES[engine].page_info(page(engine, name))


def test_relative_dates_are_read_against_the_fetch_time():
    next_day = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
    posts = ENGINES["smf"].posts(page("smf", "thread_page1"), "UTC", next_day)
    assert posts[0].posted_at == datetime(2026, 12, 1, 4, 34, tzinfo=timezone.utc)
    with pytest.raises(PageLayoutError, match="now"):
        ENGINES["smf"].posts(page("smf", "thread_page1"), "UTC")


def test_spoiler_markup_is_not_counted_but_flagged():
    html = page("mybb", "thread_page2").replace(
        '<div class="spoiler_body">Мои заметки', '<div class="spoiler_body"><span style="color: blue;">Аскон</span> Мои заметки', 1)
    spoilered = ENGINES["mybb"].posts(html, "UTC", CAPTURED)[1]
    assert [(f.color, f.text) for f in spoilered.colored] == [(BLUE, "Кума")]
    assert [(f.color, f.text, f.where) for f in spoilered.flagged] == [(BLUE, "Аскон", "spoiler")]


@pytest.mark.parametrize("engine, shown, late", [("smf", "04:34 AM", "11:59 PM"), ("fluxbb", "04:31:26", "23:59:50")])
def test_a_page_rendered_before_midnight_and_fetched_after_it_keeps_its_day(engine, shown, late):
    # The first post says "Today 23:59" and the page was fetched a second after midnight: the board
    # rendered it the evening before, so its "today" is that evening's day, not 24 hours ahead.
    html = page(engine, "thread_page1").replace(shown, late)
    fetched = datetime(2026, 12, 1, 0, 0, 1, tzinfo=timezone.utc)
    posts = ENGINES[engine].posts(html, "UTC", fetched)
    assert posts[0].posted_at.replace(second=0) == datetime(2026, 11, 30, 23, 59, tzinfo=timezone.utc)
    assert {post.posted_at.date() for post in posts} == {datetime(2026, 11, 30).date()}


def test_a_page_fetched_later_in_the_day_reads_today_as_that_day():
    fetched = datetime(2026, 12, 1, 0, 30, tzinfo=timezone.utc)   # outside the minutes after midnight
    posts = ENGINES["fluxbb"].posts(page("fluxbb", "thread_page1"), "UTC", fetched)
    assert {post.posted_at.date() for post in posts} == {fetched.date()}


def test_an_inbox_rendered_before_midnight_keeps_its_day():
    html = page("smf", "pm_inbox").replace("04:35 AM", "11:58 PM")
    fetched = datetime(2026, 12, 1, 0, 0, 2, tzinfo=timezone.utc)
    rows = ENGINES["smf"].inbox(html, "UTC", fetched)
    assert rows and {row.sent_at for row in rows} == {datetime(2026, 11, 30, 23, 58, tzinfo=timezone.utc)}


ALL_ENGINES = {"phpbb": "thread_page1", "mybb": "thread_page1", "smf": "thread_page1", "fluxbb": "thread_page1",
               "ipb3": "thread_page1", "ipb4": "thread_page1", "vbulletin3": "thread_page1",
               "vbulletin4": "thread_page1", "xenforo": "thread_page2"}
NOTICES = ("The requested topic does not exist.", "Форум временно закрыт на техническое обслуживание.",
           "You are not authorised to read this forum.")


def _without_posts(engine: str, notice: str) -> str:
    """The engine's own thread page with every post gone and a board message in their place:
    how its error, maintenance and empty-thread pages look to the parser."""
    tree = LexborHTMLParser(page(engine, ALL_ENGINES[engine]))
    posts = tree.css(ENGINES[engine].LAYOUT.thread.post)
    posts[0].insert_before(notice)
    for post in posts:
        post.decompose()
    return tree.html


@pytest.mark.parametrize("engine", sorted(ALL_ENGINES))
@pytest.mark.parametrize("notice", NOTICES + ("",))
def test_error_maintenance_and_empty_pages_are_layout_errors(engine, notice):
    html = _without_posts(engine, notice)
    assert notice in html
    with pytest.raises(PageLayoutError, match="no posts"):
        ENGINES[engine].posts(html, "UTC", CAPTURED)


@pytest.mark.parametrize("engine", sorted(ALL_ENGINES))
def test_the_login_page_is_a_layout_error(engine):
    with pytest.raises(PageLayoutError):
        ENGINES[engine].posts(page(engine, "login"), "UTC", CAPTURED)
