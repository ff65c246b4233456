"""Vote-count drafts rendered from a tally."""
from datetime import datetime, timedelta, timezone

import pytest

from forumgm.config import load_texts
from forumgm.engines.base import CountedVote, DiscardedVote, Tally
from forumgm.engines.tally import REASONS
from forumgm.engines.votecount import leaders, not_voted, tally_rows, vote_count_text

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc)
ALIVE = ["Аскон", "gosha100", "Robozik", "Ильмаринен", "Кума", "Гладиатор"]
TEXTS = load_texts()


def url(post_id):
    return f"https://forum.example/viewtopic.php?p={post_id}#p{post_id}"


def vote(voter, target, post_id, minute):
    return CountedVote(voter, target, post_id, T0 + timedelta(minutes=minute), target)


TALLY = Tally(
    counted=(vote("Аскон", "Robozik", "3", 1), vote("Ильмаринен", "Кума", "9", 2),
             vote("gosha100", "Robozik", "4", 3), vote("Гладиатор", "Кума", "8", 4),
             vote("Кума", "Гладиатор", "10", 5)),
    discarded=(DiscardedVote("Гость", "Аскон", "non_player", "20"),
               DiscardedVote("Robozik", "Тору", "unknown_name", "12", "Тор, Тора")),
)


def test_rows_sorted_by_count_then_name_with_voters_in_order():
    rows = tally_rows(TALLY, url)
    assert [(r.target, r.count) for r in rows] == [("Кума", 2), ("Robozik", 2), ("Гладиатор", 1)]   # Latin after Cyrillic
    assert [(v.voter, v.url) for v in rows[0].voters] == [("Ильмаринен", url("9")), ("Гладиатор", url("8"))]
    assert [r.target for r in leaders(rows)] == ["Кума", "Robozik"]
    assert leaders([]) == []


def test_not_voted_keeps_the_alive_order():
    assert not_voted(TALLY, ALIVE) == ["Robozik"]


def test_running_count_post():
    text = vote_count_text(TEXTS, TALLY, ALIVE, url, day=2, as_of="30.11 12:00")
    lines = text.splitlines()
    assert lines[0] == "[b]Промежуточный подсчёт голосов, день 2, на 30.11 12:00[/b]"
    assert f"Кума — 2: [url={url('9')}]Ильмаринен[/url], [url={url('8')}]Гладиатор[/url]" in lines
    assert f"Robozik — 2: [url={url('3')}]Аскон[/url], [url={url('4')}]gosha100[/url]" in lines
    assert lines.index("[b]Не проголосовали (1):[/b] Robozik") > lines.index(f"Гладиатор — 1: [url={url('10')}]Кума[/url]")
    assert f"[url={url('12')}]Robozik[/url]: «Тору» — ник не распознан, возможно: Тор, Тора" in lines
    assert "Больше всего" not in text


def test_final_count_names_the_leaders():
    text = vote_count_text(TEXTS, TALLY, ALIVE, url, final=True)
    assert text.startswith("[b]Итоги голосования[/b]")
    assert text.splitlines()[-1] == "[b]Больше всего голосов (2):[/b] Кума, Robozik"


def test_empty_day():
    text = vote_count_text(TEXTS, Tally(), ["Аскон"], url, final=True)
    assert "Засчитанных голосов нет." in text and "[b]Не проголосовали (1):[/b] Аскон" in text
    assert "Больше всего" not in text


def test_player_text_cannot_open_a_tag():
    tally = Tally(discarded=(DiscardedVote("Кума", "[url=http://evil]x[/url]", "unknown_name", "7"),))
    text = vote_count_text(TEXTS, tally, [], url)
    assert "[url=http://evil]" not in text and "\uff3burl=http://evil]" in text and "\u200b" not in text


@pytest.mark.parametrize("reason", REASONS)
def test_every_discard_reason_has_a_russian_label(reason):
    tally = Tally(discarded=(DiscardedVote("Кума", "Тор", reason),))
    line = vote_count_text(TEXTS, tally, [], url).splitlines()[-1]
    label = line.split(" — ", 1)[1]
    assert reason not in label and any("а" <= ch <= "я" for ch in label)
