"""A page is whole only when its own markup ends it: the real boards answer close-delimited
(PHP's server on MyBB, FluxBB, SMF and phpBB: `Connection: close`, neither Content-Length nor
chunks), so a connection ended early is no HTTP error, only a shorter page. Cut between two posts
it parses as a page with fewer posts; a PM cut inside its text as a shorter PM."""
import pytest

from forumgm.daemon.forum.page_text import whole_page
from forumgm.parsers.forums import ENGINES
from forumgm.parsers.forums.base import PageLayoutError
from forum_parser_fixtures import CAPTURED, page

# each engine's saved real thread pages and PM views (tests/fixtures/forums/<engine>/README.md)
PAGES = {
    "phpbb": ["thread_page1", "thread_page3_last", "pm_view_1", "pm_view_2", "pm_inbox", "real_pm_sentbox",
              "real_pm_outbox"],
    "mybb": ["thread_page1", "thread_page3_last", "pm_view_1", "pm_inbox", "real_pm_sent", "real_pm_view_71",
             "real_pm_sent_view", "real_pm_view_from_self"],
    "smf": ["thread_page1", "thread_page3_last", "pm_view_1", "pm_inbox", "real_pm_sent", "real_pm_view_19"],
    "fluxbb": ["thread_page1", "thread_page3_last"],
    "vbulletin3": ["thread_page1", "pm_view", "pm_inbox"],
    "vbulletin4": ["thread_page1", "pm_view", "pm_inbox"],
    "xenforo": ["thread_page2", "conversation_view", "conversations"],
    "ipb3": ["thread_page1", "pm_view", "pm_inbox"],
    "ipb4": ["thread_page1", "pm_view", "pm_inbox"],
}
CASES = [(engine, name) for engine, names in PAGES.items() for name in names]


@pytest.mark.parametrize("engine, name", CASES)
def test_every_saved_real_page_is_whole_and_none_of_its_cuts_is(engine, name):
    html = page(engine, name)
    assert whole_page(html)
    end = html.lower().rindex("</html")
    for cut in range(0, end, max(1, end // 400)):
        assert not whole_page(html[:cut]), f"{engine}/{name} cut at {cut} of {len(html)} passed for whole"
    assert not whole_page(html[:end + 3])


@pytest.mark.parametrize("engine", [engine for engine in PAGES if "thread" in " ".join(PAGES[engine])])
def test_a_thread_page_cut_between_posts_parses_without_an_error_with_fewer_posts(engine):
    """Why the end of the document is what is asked: the parser alone cannot tell such a cut."""
    name = next(name for name in PAGES[engine] if name.startswith("thread"))
    html = page(engine, name)
    parser = ENGINES[engine]
    posts = parser.posts(html, "UTC", CAPTURED)
    fewer = set()
    for cut in range(len(html) // 2, len(html), max(1, len(html) // 200)):
        try:
            fewer.add(len(parser.posts(html[:cut], "UTC", CAPTURED)))
        except PageLayoutError:
            continue
    assert any(0 < count < len(posts) for count in fewer)


def test_a_page_closed_by_comments_after_its_end_is_whole():
    """MyBB writes its template's name after the document: `</html>\n<!-- end: showthread -->`."""
    assert whole_page("<html><body></body></html>\n<!-- end: showthread -->\n")
    assert whole_page("<HTML><BODY></BODY></HTML >\r\n")
    assert not whole_page("<html><body><div>a post</div>")
    assert not whole_page("<html><body><!-- </html> --><div>")
