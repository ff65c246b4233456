"""Pages saved on the real boards (phpBB 3.3.10, MyBB 1.8.37, SMF 2.1.4) on the paths that only
matter when something goes wrong: sent folders, outboxes, paged and full inboxes, the sender's copy
of a PM, soft-deleted posts."""
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from forumgm.parsers.forums import mybb, phpbb, smf
from forumgm.parsers.forums.base import PageInfo

FORUMS = Path(__file__).parent / "fixtures" / "forums"
CAPTURED = datetime(2026, 11, 30, 19, 0, tzinfo=timezone.utc)


def page(engine: str, name: str) -> str:
    return (FORUMS / engine / f"{name}.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("folder, ids", [("real_pm_outbox", ["3", "2"]), ("real_pm_sentbox", ["2"])])
def test_phpbb_sent_folders_name_the_recipient_and_the_date(folder, ids):
    """"To Кума", "Sent: …" — the inbox's "by … »" layout does not read them."""
    rows = phpbb.sent(page("phpbb", folder), "UTC", CAPTURED)
    assert [row.id for row in rows] == ids
    assert {row.sender for row in rows} <= {"Кума", "Аскон"} and all(row.sent_at for row in rows)
    assert rows[-1].sender == "Аскон" and rows[-1].subject == "Квитанция"
    with pytest.raises(ValueError, match="no date"):
        phpbb.inbox(page("phpbb", folder), "UTC", CAPTURED)


def test_phpbb_inbox_says_how_full_it_is_and_links_its_next_page():
    listing = phpbb.listing(page("phpbb", "real_pm_inbox_27_of_50"))
    assert (listing.page, listing.pages, listing.total, listing.stored, listing.limit) == (1, 2, 27, 27, 50)
    assert listing.links[2].endswith("&start=25")
    assert len(phpbb.inbox(page("phpbb", "real_pm_inbox_27_of_50"), "UTC", CAPTURED)) == 25


def test_mybb_the_senders_copy_of_a_pm_has_empty_ids_and_is_read():
    message = mybb.sent_message(page("mybb", "real_pm_sent_view"), "UTC", CAPTURED)
    assert (message.id, message.sender, message.subject) == ("4", "Ведущий", "Квитанция")
    assert message.text == "Принято: Атака 3 → Гладиатор"


def test_mybb_a_pm_the_account_sent_itself_has_empty_ids_and_is_read():
    """The host's notice to his own account, in its inbox: MyBB shows it as the sender's copy (its
    opening stopped the game: "not a private message page")."""
    message = mybb.message(page("mybb", "real_pm_view_from_self"), "UTC", CAPTURED)
    assert (message.id, message.sender, message.subject) == ("31", "Ведущий", "Уведомление")
    assert message.text == "Проверка: уведомление самому себе."


def test_mybb_sent_folder_and_a_paged_inbox():
    [row] = mybb.sent(page("mybb", "real_pm_sent"), "UTC", CAPTURED)
    assert (row.id, row.sender, row.subject) == ("4", "Аскон", "Квитанция")
    listing = mybb.listing(page("mybb", "real_pm_inbox_page1_of_2"))
    assert (listing.page, listing.pages, listing.links) == (1, 2, {2: "private.php?fid=1&page=2"})


@pytest.mark.parametrize("start, page_no, ids", [(0, 1, ["1", "3", "4", "5", "6"]), (15, 4, ["17", "18", "19"])])
def test_smf_lists_the_oldest_pm_first_and_links_every_other_page(start, page_no, ids):
    html = page("smf", f"real_pm_inbox_start{start}")
    listing = smf.listing(html)
    assert (listing.page, listing.pages) == (page_no, 4)
    assert sorted(listing.links) == [n for n in (1, 2, 3, 4) if n != page_no]
    assert [row.id for row in smf.inbox(html, "UTC", CAPTURED)] == ids


@pytest.mark.parametrize("parser, name, sent", [
    (phpbb, "real_pm_outbox", True), (phpbb, "real_pm_sentbox", True), (phpbb, "real_pm_inbox_27_of_50", False),
    (mybb, "real_pm_sent", True), (mybb, "real_pm_inbox_page1_of_2", False), (smf, "real_pm_inbox_start15", False)])
def test_a_folder_page_read_at_once_is_its_rows_and_its_listing(parser, name, sent):
    html = page(parser.__name__.rpartition(".")[2], name)
    rows = (parser.sent if sent else parser.inbox)(html, "UTC", CAPTURED)
    assert rows and parser.folder(html, "UTC", CAPTURED, sent) == (rows, parser.listing(html))
    if sent and parser is phpbb:        # read as an inbox, a sent folder has no dates: refused as before
        with pytest.raises(ValueError, match="no date"):
            parser.folder(html, "UTC", CAPTURED)


@pytest.mark.parametrize("engine, parser, name, pages", [
    ("phpbb", phpbb, "real_pm_sentbox", r'<div class="pagination">.*?</div>'),
    ("smf", smf, "real_pm_sent", r'<div class="pagelinks">.*?</div>'),
])
def test_a_sent_folder_page_that_lost_its_page_list_says_so_where_the_board_always_shows_one(
        engine, parser, name, pages):
    """phpBB ("1 message • Page 1 of 1") and SMF ("Pages [1]") head a folder of one page with its page
    list too: a page without it is no folder of one page, and a lost PM looked for there is not
    taken for unsent (adapter._proves_folder)."""
    html = page(engine, name)
    assert not parser.listing(html).list_missing
    assert parser.listing(re.sub(pages, "", html, flags=re.S)).list_missing


def test_mybb_shows_no_page_list_on_a_folder_of_one_page():
    assert not mybb.listing(page("mybb", "real_pm_sent")).list_missing


def test_smf_sent_folder_names_the_recipient():
    [row] = smf.sent(page("smf", "real_pm_sent"), "UTC", CAPTURED)
    assert (row.id, row.sender, row.subject) == ("2", "Аскон", "Квитанция")


@pytest.mark.parametrize("engine, hidden_id", [("phpbb", "4"), ("mybb", "3")])
def test_a_moderators_soft_deleted_post_is_read_as_hidden(engine, hidden_id):
    """Both boards show it to the host (an admin), marked: it is read, and known to be no vote."""
    module = {"phpbb": phpbb, "mybb": mybb}[engine]
    posts = module.posts(page(engine, "real_thread_softdeleted"), "UTC", CAPTURED)
    assert [p.id for p in posts if p.hidden] == [hidden_id]
    hidden = next(p for p in posts if p.hidden)
    assert hidden.author == "Кума" and [c.text for c in hidden.colored] == ["Аскон"]


def test_mybb_shows_a_plain_member_a_soft_deleted_post_as_a_stub_that_is_no_post():
    """A host who is no moderator sees "This post has been deleted." with the author's name and no
    body, date or text: the page is read without it (its reading stopped on "body of post 2 not found")."""
    posts = mybb.posts(page("mybb", "real_thread_softdeleted_as_member"), "UTC", CAPTURED)
    assert [(p.id, p.author) for p in posts] == [("1", "Ведущий")]


def test_smf_shows_zero_width_characters_as_replacement_characters():
    """Why forumgm puts no invisible character into a text (a player's "[" becomes "［")."""
    html = page("smf", "real_thread_sanitised")
    assert "[\ufffdcolor=blue] конец\ufffd\u200c\ufffd\ufffd" in html


def test_mybb_a_forum_with_more_topics_than_a_page_does_not_page_its_thread():
    """Once the game section lists more than a page of topics, MyBB's breadcrumb carries a hidden
    page list of the forum (`div.pagination.pagination_breadcrumb`): a two-post thread is one page."""
    html = page("mybb", "real_thread_forum_pages_in_breadcrumb")
    assert 'class="pagination pagination_breadcrumb"' in html
    assert mybb.page_info(html) == PageInfo(page=1, pages=1)
    assert [post.id for post in mybb.posts(html, timezone.utc)] == ["27", "28"]
