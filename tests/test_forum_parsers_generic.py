"""The selector-driven engine, and the parse-page JSON."""
import json
from pathlib import Path

import pytest

from forumgm.parsers.forums import ENGINES, parse_page
from forumgm.parsers.forums.base import PageLayoutError
from forumgm.parsers.forums.generic import GenericConfigError, engine, load_layout
from forum_parser_fixtures import CAPTURED, FIXTURES, page

EXAMPLE = Path(__file__).parent.parent / "config" / "forums" / "generic.example.toml"


@pytest.mark.parametrize("name", ["thread_page1", "thread_page2", "thread_page3_last"])
def test_example_config_reads_phpbb_like_the_phpbb_engine(name):
    html = page("phpbb", name)
    generic = engine(EXAMPLE)
    assert generic.posts(html, "UTC") == ENGINES["phpbb"].posts(html, "UTC")
    assert generic.page_info(html) == ENGINES["phpbb"].page_info(html)


def test_example_config_reads_pms_and_forms():
    generic = engine(EXAMPLE)
    assert generic.inbox(page("phpbb", "pm_inbox"), "UTC") == ENGINES["phpbb"].inbox(page("phpbb", "pm_inbox"), "UTC")
    assert generic.message(page("phpbb", "pm_view_2"), "UTC").text == "Атака 7 Кума\nЗащита Аскон"
    assert generic.form(page("phpbb", "login"), "login").fields["form_token"] == "PHPBB_FORM_TOKEN_PLACEHOLDER"


def test_generic_on_a_page_it_does_not_describe_is_a_layout_error():
    with pytest.raises(PageLayoutError):
        engine(EXAMPLE).posts(page("smf", "thread_page1"), "UTC", CAPTURED)


@pytest.mark.parametrize("table, key", [
    ({}, "[thread]"),
    ({"thread": {"post": "div.post"}}, "thread.post_id"),
    ({"thread": {"post": "div", "post_id": {"attr": "id", "pattern": "("}, "author": "a", "posted_at": "t",
                 "body": "p"}}, "thread.post_id.pattern"),
    ({"thread": {"post": "div", "post_id": {"atr": "id"}}}, "thread.post_id"),
])
def test_config_errors_name_the_key(table, key):
    with pytest.raises(GenericConfigError, match=key.replace("[", r"\[").replace("]", r"\]")):
        load_layout(table)


def test_minimal_config_without_pagination_is_one_page():
    layout = load_layout({"thread": {"post": "div.post.has-profile", "post_id": {"attr": "id", "pattern": r"p(\d+)"},
                                     "author": "a.username, a.username-coloured", "posted_at": {"selector": "time", "attr": "datetime"},
                                     "body": "div.content"}})
    assert layout.inbox is None and layout.thread.edit is None
    functions = engine({"thread": {"post": "div.post.has-profile", "post_id": {"attr": "id", "pattern": r"p(\d+)"},
                                   "author": "dl.postprofile a.username, dl.postprofile a.username-coloured",
                                   "posted_at": {"selector": "time", "attr": "datetime"}, "body": "div.content"}})
    assert functions.page_info(page("phpbb", "thread_page2")).pages == 1
    assert [p.id for p in functions.posts(page("phpbb", "thread_page2"), "UTC")] == ["7", "8", "9", "10", "11"]


def test_parse_page_json_matches_the_scenario_contract():
    result = parse_page("phpbb", page("phpbb", "thread_page1"), "UTC")
    assert (result["engine"], result["page"], result["pages"]) == ("phpbb", 1, 3)
    quoting = result["posts"][3]
    assert {"id", "author", "author_id", "posted_at", "edited_at", "edited_by", "text", "colored"} <= quoting.keys()
    assert quoting["colored"] == [{"color": "#0000ff", "text": "gosha100"}]
    assert "Странно" not in quoting["text"]
    assert result["posts"][1]["edited_at"] == "2026-11-30T04:43:00+00:00"
    assert result["posts"][0]["posted_at"] == "2026-11-30T04:42:53+00:00"
    json.dumps(result)


def test_parse_page_rejects_unknown_engines_and_generic_without_config():
    with pytest.raises(ValueError, match="unknown forum engine"):
        parse_page("nosuch", "", "UTC")
    with pytest.raises(ValueError, match="config"):
        parse_page("generic", page("phpbb", "thread_page1"), "UTC")


def test_parse_page_command_prints_json_and_fails_clearly(tmp_path, capsys):
    import argparse
    from forumgm.daemon.cli import parse_page as command

    parser = argparse.ArgumentParser()
    command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["parse-page", "--engine", "smf", "--tz", "Europe/Moscow",
                              "--now", "2026-11-30T10:00:00+03:00", str(FIXTURES / "smf" / "thread_page3_last.html")])
    assert command.run(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["page"], result["pages"]) == (3, 3)
    assert result["posts"][0]["posted_at"] == "2026-11-30T04:35:00+03:00"
    wrong = tmp_path / "index.html"
    wrong.write_text(page("smf", "index"), encoding="utf-8")
    args.file = wrong
    assert command.run(args) == 2
    assert "page layout not understood" in capsys.readouterr().err
