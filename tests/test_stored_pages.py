"""Stored thread pages keep no session id or form token, and only the newest few are kept.

Every saved phpBB page carried the logout link with the host's `sid=` (300-2,400 copies per
game): a backup of the store was a key to the host's forum account.
"""
from __future__ import annotations

import json
import random
import re
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.store import Store
from forumgm.daemon.tick.sync import sync_game
from forumgm.parsers.forums import ENGINES, engine_functions
from forumgm.parsers.forums import scrub
from forumgm.parsers.forums.scrub import scrub_page
from forum_parser_fixtures import CAPTURED, FIXTURES
from localforum_support import HOST, PLAYERS, FakeClock, host_forum, seeded_board, thread_url

PLACEHOLDERS = ("IPS_CSRF_KEY_PLACEHOLDER", "MYBB_POST_KEY_PLACEHOLDER", "VB_SECURITYTOKEN_PLACEHOLDER",
                "VB_LOGOUTHASH_PLACEHOLDER")
SID = "0123456789abcdef0123456789abcdef"
GENERIC_CONFIG = Path(__file__).resolve().parent.parent / "config" / "forums" / "generic.example.toml"
REAL_CAPTURED = datetime(2026, 12, 1, 19, 40, tzinfo=timezone.utc)    # the real_thread_as_* pages


def fixture_threads():
    return sorted(path for path in FIXTURES.glob("*/thread_page*.html"))


@pytest.mark.parametrize("path", fixture_threads(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_tokens_of_every_engine_are_blanked_and_the_page_reads_the_same(path):
    html = path.read_text(encoding="utf-8").replace("sid=", f"sid={SID}")
    scrubbed = scrub_page(html)
    for secret in (*PLACEHOLDERS, SID):
        assert secret not in scrubbed
    parser = ENGINES[path.parent.name]
    assert parser.posts(scrubbed, "UTC", CAPTURED) == parser.posts(html, "UTC", CAPTURED)
    assert parser.page_info(scrubbed) == parser.page_info(html)


def real_pages():
    """Thread pages the four real boards rendered to the host (an admin: moderation links, SMF's
    quick-modify script) and to a player, each with the session values it carried (fakes of the
    same shape stand in for them) listed beside it."""
    return [(listing.parent / name, secrets) for listing in sorted(FIXTURES.glob("*/real_thread_secrets.json"))
            for name, secrets in json.loads(listing.read_text(encoding="utf-8")).items()]


@pytest.mark.parametrize("path, secrets", real_pages(), ids=lambda p: f"{p.parent.name}/{p.stem}" if isinstance(p, Path) else "")
def test_no_session_value_of_a_real_board_is_left_and_the_page_reads_the_same(path, secrets):
    html = path.read_text(encoding="utf-8")
    scrubbed = scrub_page(html)
    assert secrets and all(secret in html for secret in secrets)
    assert [secret for secret in secrets if secret in scrubbed] == []
    engines = [path.parent.name, *(["generic"] if path.parent.name == "phpbb" else [])]
    for engine in engines:
        functions = engine_functions(engine, GENERIC_CONFIG if engine == "generic" else None)
        assert functions.posts(scrubbed, "UTC", REAL_CAPTURED) == functions.posts(html, "UTC", REAL_CAPTURED)
        assert functions.page_info(scrubbed) == functions.page_info(html)


@pytest.mark.parametrize("html, expected", [
    ('<a href="./ucp.php?mode=logout&amp;sid=abc123">', '<a href="./ucp.php?mode=logout&amp;sid=">'),
    ('<a href="index.php?action=logout;sesc=deadbeef">', '<a href="index.php?action=logout;sesc=">'),
    ('<a href="index.php?action=logout;c2a9e1=' + "f" * 32 + '">', '<a href="index.php?action=logout;c2a9e1=">'),
    ('<input type="hidden" name="form_token" value="tok">', '<input type="hidden" name="form_token" value="">'),
    ('<input value="' + "a" * 32 + '" type="hidden" name="x9f">', '<input value="" type="hidden" name="x9f">'),
    ('<input type="hidden" name="_xfToken" value="1700000000,abc" />', '<input type="hidden" name="_xfToken" value="" />'),
    ('<html data-csrf="1700000000,abc">', '<html data-csrf="">'),
    ("var SECURITYTOKEN = \"1-abc\";", "var SECURITYTOKEN = \"\";"),
    ('<a href="viewtopic.php?t=2&amp;start=5">2</a>', '<a href="viewtopic.php?t=2&amp;start=5">2</a>'),
    # a blanked link value ends at its quote: the next attribute must survive (the script pattern
    # once read `sesc=" class="` as a quoted value and ate into it)
    ('<a href="index.php?action=logout;sesc=abc" class="bbc_link">', '<a href="index.php?action=logout;sesc=" class="bbc_link">'),
    ("<a href='ucp.php?mode=logout&amp;sid=abc' title='Выход'>", "<a href='ucp.php?mode=logout&amp;sid=' title='Выход'>"),
    ('<a href="x.php?token=abc" data-csrf="k">', '<a href="x.php?token=" data-csrf="">'),
    ('<input type="text" name="subject" value="Re: Игра">', '<input type="text" name="subject" value="Re: Игра">'),    # SMF 2.1's session id: in its script variable, and bare in the quick-modify calls (found blanked
    # in the logout link or the form's field, it is blanked wherever else it stands)
    ('var smf_session_id = "' + "ab" * 16 + '";', 'var smf_session_id = "";'),
    ('<a href="index.php?action=logout;c2a9e1=' + "ab" * 16 + '">x</a><form onsubmit="return oQuickModify.modifySave(\''
     + "ab" * 16 + '\', \'c2a9e1\')">', '<a href="index.php?action=logout;c2a9e1=">x</a><form onsubmit='
     '"return oQuickModify.modifySave(\'\', \'c2a9e1\')">'),
    ('<a href="index.php?PHPSESSID=kdguajkhk1gn7piu;topic=2.0">', '<a href="index.php?PHPSESSID=;topic=2.0">'),
])
def test_what_is_blanked_and_what_is_kept(html, expected):
    assert scrub_page(html) == expected


def test_known_secret_values_are_masked_wherever_they_are():
    assert scrub_page("<p>cookie-value-123 in text</p>", ["cookie-value-123", "x"]) == "<p>*** in text</p>"


def as_the_patterns_say(html: str) -> str:
    """What scrub_page blanks, by the definition: each pattern substituted wherever it matches, then
    the session ids among the blanked texts wherever they stand."""
    blanked = []

    def blank(replacement):
        return lambda found: (blanked.append(found.group(0)), found.expand(replacement))[1]
    html = scrub._URL_PARAM.sub(blank(r"\1"), html)
    html = scrub._HEX_PARAM.sub(blank(r"\1"), html)
    html = scrub._SCRIPT_VALUE.sub(blank(r"\1\2\2"), html)
    html = scrub._INPUT.sub(lambda found: scrub.blank_input(found, blanked), html)
    return scrub.blank_everywhere(html, blanked, ())


# Pieces of generated pages: every name in odd cases (with the non-ASCII letters IGNORECASE takes),
# what may stand before and after one, values quoted and not, hex runs, tags.
NAMES = [*scrub.SECRET_NAMES, "SID", "Sesc", "ſid", "MY_POST_KEY", "securityToken", "Session_ID", "csrfKEY",
         "MD5CHECK", "\u212aey", "auth_\u212aey", "PHPSESSİD", "sessıonid", "xsid", "sidx", "class"]
AROUND = ["?", "&", "&amp;", "&AMP;", ";", "amp;", "data-", "-", " ", "", "x", "_", "\n", '"', "'", "=", ":", " = ",
          ": ", "=\t", '="', "='", '"="', "\"\u00a0:\u00a0'", "<", ">", "#", "/", "1", "é", "Ж"]
VALUES = ["abc", '"abc"', "'abc'", '""', "'x\"y'", '"a\nb"', "0123456789abcdef" * 2, "0123456789ABCDEF" * 3,
          "0123456789abcdef" * 2 + "g", '"' + "f" * 32 + '"', "", "Голос"]
TAGS = ['<input type="hidden" name="sid" value="abc">', "<input name=token value=x>", '<INPUT value="' + "a" * 32 + '">',
        '<input type="text" name="subject" value="Re: Игра">', "<input", '<a href="x.php?sid=1&amp;t=2">']


def generated_page(rng: random.Random) -> str:
    return "".join(rng.choice(rng.choice((NAMES, AROUND, AROUND, VALUES, TAGS))) for _ in range(rng.randint(1, 40)))


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*/*.html")), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_saved_page_is_blanked_as_the_patterns_say(path):
    html = path.read_text(encoding="utf-8")
    for page in (html, html.replace("sid=", f"sid={SID}")):
        assert scrub_page(page) == as_the_patterns_say(page)


def test_generated_pages_are_blanked_as_the_patterns_say():
    rng = random.Random(5)
    pages = [generated_page(rng) for _ in range(5000)]
    changed = 0
    for page in pages:
        expected = as_the_patterns_say(page)
        assert scrub_page(page) == expected, page
        changed += expected != page
    assert changed > 1000          # (so that the comparison says something)


def test_the_letters_ignorecase_takes_for_the_names_are_all_searched_for():
    """The reversed search spells each letter of the names out; IGNORECASE's matches of an ASCII
    letter are the letter's two cases and, for some, non-ASCII letters (_FOLDS)."""
    every_character = "".join(map(chr, range(sys.maxunicode + 1)))
    for letter in sorted({c for name in scrub.SECRET_NAMES for c in name if c.isalpha()}):
        taken = set(re.findall(letter, every_character, re.IGNORECASE))
        assert taken == {letter, letter.upper(), *scrub._FOLDS.get(letter, "")}


def test_the_store_keeps_neither_the_session_nor_more_than_the_newest_pages(tmp_path):
    clock = FakeClock()
    with LocalForum(seeded_board(clock, replies=11)) as server:      # 12 posts: pages of 5, 5, 2
        forum = host_forum(server, clock)
        store = Store(tmp_path / "forumgm.sqlite", now=clock.now, raw_pages_kept=4)
        store.register_forum("local", "phpbb", server.url, HOST)
        store.register_game("g1", "mafia", "local", thread_url(server), "UTC", 1, {n: [] for n in PLAYERS})
        for _ in range(3):
            assert sync_game(store.game("g1"), forum, store, clock.now()).ok
            clock.sleep(60)
        sessions = [cookie.value for cookie in forum.client.session.cookies if len(cookie.value) >= 8]
        pages = store.raw_pages("g1")
        assert sessions and len(pages) == 4
        for page in pages:
            assert not re.search(r"sid=[0-9a-f]", page["html"])
            assert not any(value in page["html"] for value in sessions)
        store.close()
