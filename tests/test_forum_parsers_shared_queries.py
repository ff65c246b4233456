"""A page's posts share their queries (one per selector for all of them): each post must still
get exactly what a query of its own finds, also on pages that nest a post inside another."""
import pytest
from selectolax.lexbor import LexborHTMLParser

from forumgm.parsers.forums import ENGINES
from forum_parser_fixtures import CAPTURED, page

THREADS = [("phpbb", "thread_page1"), ("xenforo", "thread_page2"), ("ipb3", "thread_page1"),
           ("vbulletin3", "thread_page1"), ("fluxbb", "thread_page2"), ("mybb", "thread_page1")]


def nest(engine: str, html: str) -> str:
    """The page with its last post copied whole into the first post's body."""
    layout = ENGINES[engine].LAYOUT
    tree = LexborHTMLParser(html)
    posts = tree.css(layout.thread.post)
    posts[0].css_first(layout.thread.body).insert_child(LexborHTMLParser(posts[-1].html).body.first_child)
    return tree.html


@pytest.mark.parametrize("engine, name", THREADS)
def test_a_post_nested_in_another_is_read_as_its_own_and_the_others_are_unchanged(engine, name):
    original = ENGINES[engine].posts(page(engine, name), "UTC", CAPTURED)
    nested = ENGINES[engine].posts(nest(engine, page(engine, name)), "UTC", CAPTURED)
    outer, copy = nested[0], nested[1]
    assert [p.id for p in nested] == [original[0].id, original[-1].id, *[p.id for p in original[1:]]]
    # the copy is read like the post it copies, the other posts as before
    assert (copy.author, copy.author_id, copy.posted_at, copy.text, copy.colored) == (
        original[-1].author, original[-1].author_id, original[-1].posted_at, original[-1].text, original[-1].colored)
    assert nested[2:] == original[1:]
    # the outer post keeps its own header, and its body now also shows the copied post's words
    assert (outer.author, outer.author_id, outer.posted_at) == (
        original[0].author, original[0].author_id, original[0].posted_at)
    assert outer.text.startswith(original[0].text) and original[-1].text.splitlines()[0] in outer.text
    assert list(outer.colored[:len(original[0].colored)]) == list(original[0].colored)
