"""count_votes: which coloured nicknames count, and the reason for each one that does not."""
from datetime import datetime, timedelta, timezone

import pytest

from forumgm.engines.base import Tally
from forumgm.engines.tally import VotePostVersion, VoteRules, count_votes
from forumgm.parsers.forums.base import ColoredFragment
from forumgm.parsers.names import Roster

BLUE, RED = "#0000ff", "#ff0000"
PLAYERS = ("Аскон", "gosha100", "Robozik", "Ильмаринен", "Кума", "Гладиатор", "Тор", "Тора")
ROSTER = Roster(PLAYERS, {"Гоша": "gosha100"})
START = datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc)
DEADLINE = START + timedelta(hours=12)


def at(minutes):
    return START + timedelta(minutes=minutes)


def post(post_id, author, minutes, *texts, edited=None, color=BLUE, flagged=(), where=""):
    """One version of a post; `edited` (minutes) makes it a later version of the same post."""
    fragments = tuple(ColoredFragment(color, text, where) for text in texts)
    return VotePostVersion(post_id, author, at(minutes), at(edited if edited is not None else minutes),
                           fragments, tuple(ColoredFragment(BLUE, text, kind) for kind, text in flagged))


def rules(dead=(), **changes):
    living = frozenset(PLAYERS) - frozenset(dead)
    return VoteRules(colors=frozenset({BLUE}), voters=living, candidates=living, **changes)


def counted(tally):
    return {vote.voter: vote.target for vote in tally.counted}


def reasons(tally):
    return [(d.voter, d.text, d.reason) for d in tally.discarded]


def test_simple_votes_count_with_their_posts_and_text():
    tally = count_votes([post("3", "Аскон", 1, "Robozik"), post("4", "gosha100", 2, "Аскону")],
                        ROSTER, rules(), DEADLINE)
    assert counted(tally) == {"Аскон": "Robozik", "gosha100": "Аскон"}
    vote = tally.counted[1]
    assert (vote.post_id, vote.text, vote.at) == ("4", "Аскону", at(2))
    assert tally.discarded == ()


def test_other_colours_are_not_votes():
    tally = count_votes([post("7", "Кума", 1, "Ильмаринен", color=RED)], ROSTER, rules(), DEADLINE)
    assert tally == Tally()


@pytest.mark.parametrize("written", ["Аскoн", "Robоzik", "Асконом", "у Кумы", "Robozik'а", "Гоша", "Гладиатр"])
def test_written_forms_resolve(written):
    tally = count_votes([post("1", "Тор", 1, written)], ROSTER, rules(), DEADLINE)
    assert len(tally.counted) == 1 and not tally.discarded


def test_edit_before_deadline_changes_the_vote_and_is_timed_at_the_edit():
    versions = [post("3", "Аскон", 1, "gosha100"), post("3", "Аскон", 1, "Robozik", edited=30)]
    tally = count_votes(versions, ROSTER, rules(), DEADLINE)
    assert counted(tally) == {"Аскон": "Robozik"}
    assert tally.counted[0].at == at(30)
    assert tally.discarded == ()


def test_edit_that_keeps_the_vote_keeps_its_time():
    versions = [post("3", "Аскон", 1, "Robozik"), post("3", "Аскон", 1, "Robozik", edited=30)]
    assert count_votes(versions, ROSTER, rules(), DEADLINE).counted[0].at == at(1)


def test_edit_after_deadline_leaves_the_earlier_version_standing():
    late = 12 * 60 + 5
    versions = [post("3", "Аскон", 1, "gosha100"), post("3", "Аскон", 1, "Robozik", edited=late)]
    tally = count_votes(versions, ROSTER, rules(), DEADLINE)
    assert counted(tally) == {"Аскон": "gosha100"}
    assert reasons(tally) == [("Аскон", "Robozik", "after_deadline")]


def test_post_after_deadline_is_reported_not_counted():
    tally = count_votes([post("9", "Кума", 12 * 60 + 1, "Тор")], ROSTER, rules(), DEADLINE)
    assert counted(tally) == {}
    assert reasons(tally) == [("Кума", "Тор", "after_deadline")]


def test_vote_for_a_dead_player_and_by_a_dead_player():
    versions = [post("1", "Кума", 1, "Гладиатор"), post("2", "Гладиатор", 2, "Кума")]
    tally = count_votes(versions, ROSTER, rules(dead=("Гладиатор",)), DEADLINE)
    assert counted(tally) == {}
    assert [(d.voter, d.reason, d.detail) for d in tally.discarded] == [
        ("Кума", "dead_target", "Гладиатор"), ("Гладиатор", "dead_voter", "")]


def test_non_player_vote():
    tally = count_votes([post("2", "Гость", 1, "Аскон"), post("5", "Ведущий", 2, "ник")], ROSTER, rules(), DEADLINE)
    assert reasons(tally) == [("Гость", "Аскон", "non_player"), ("Ведущий", "ник", "non_player")]


def test_a_whole_phrase_in_blue_is_not_guessed_but_hints_at_the_player():
    tally = count_votes([post("1", "Кума", 1, "Голосую за Аскона")], ROSTER, rules(), DEADLINE)
    assert counted(tally) == {}
    assert [(d.reason, d.detail) for d in tally.discarded] == [("unknown_name", "Аскон")]


def test_unknown_and_ambiguous_names_carry_candidates():
    tally = count_votes([post("1", "Кума", 1, "Тору"), post("2", "Аскон", 2, "Никто")], ROSTER, rules(), DEADLINE)
    assert [(d.voter, d.reason, d.detail) for d in tally.discarded] == [
        ("Кума", "ambiguous_name", "Тор, Тора"), ("Аскон", "unknown_name", "")]


def test_shared_prefix_nicknames_count_exactly():
    tally = count_votes([post("1", "Кума", 1, "Тор"), post("2", "Аскон", 2, "Тора")], ROSTER, rules(), DEADLINE)
    assert counted(tally) == {"Кума": "Тор", "Аскон": "Тора"}


def test_two_different_names_in_one_post_are_ambiguous():
    tally = count_votes([post("1", "Кума", 1, "Аскон", "Robozik")], ROSTER, rules(), DEADLINE)
    assert counted(tally) == {}
    assert [(d.reason, d.detail) for d in tally.discarded] == [("ambiguous", "Аскон, Robozik")]


def test_same_name_twice_is_one_vote():
    tally = count_votes([post("1", "Кума", 1, "Аскон", "Аскона")], ROSTER, rules(), DEADLINE)
    assert counted(tally) == {"Кума": "Аскон"} and tally.discarded == ()


def test_fragments_in_quotes_spoilers_and_code_are_discarded_with_their_reason():
    versions = [
        post("1", "Кума", 1, "Robozik", where="quote"),
        post("2", "Аскон", 2, "Кума", flagged=(("spoiler", "Тор"), ("code", "Тора"))),
    ]
    tally = count_votes(versions, ROSTER, rules(), DEADLINE)
    assert counted(tally) == {"Аскон": "Кума"}
    assert reasons(tally) == [("Кума", "Robozik", "quoted"), ("Аскон", "Тор", "spoiler"),
                              ("Аскон", "Тора", "code")]


def test_last_policy_counts_the_last_vote():
    versions = [post("1", "Кума", 1, "Аскон"), post("2", "Кума", 5, "Тор"), post("3", "Кума", 9, "Тора")]
    tally = count_votes(versions, ROSTER, rules(), DEADLINE)
    assert counted(tally) == {"Кума": "Тора"}
    assert [(d.text, d.reason) for d in tally.discarded] == [("Аскон", "superseded"), ("Тор", "superseded")]


def test_last_policy_calls_the_same_vote_again_a_repeat():
    versions = [post("1", "Кума", 1, "Аскон"), post("2", "Кума", 5, "Аскона"), post("3", "Аскон", 6, "Тор")]
    tally = count_votes(versions, ROSTER, rules(), DEADLINE)
    assert [(v.voter, v.post_id) for v in tally.counted] == [("Кума", "2"), ("Аскон", "3")]
    assert [(d.text, d.reason, d.detail) for d in tally.discarded] == [("Аскон", "repeated", "Аскон")]


def test_first_policy_counts_the_first_vote():
    versions = [post("1", "Кума", 1, "Аскон"), post("2", "Кума", 5, "Аскон"), post("3", "Кума", 9, "Тора")]
    tally = count_votes(versions, ROSTER, rules(policy="first"), DEADLINE)
    assert counted(tally) == {"Кума": "Аскон"}
    assert [(d.text, d.reason) for d in tally.discarded] == [("Аскон", "repeated"), ("Тора", "changed_not_allowed")]


def test_first_counts_when_changes_are_not_allowed_even_by_an_edit():
    versions = [post("1", "Кума", 1, "Аскон"), post("1", "Кума", 1, "Тор", edited=20)]
    tally = count_votes(versions, ROSTER, rules(allow_change=False), DEADLINE)
    assert counted(tally) == {"Кума": "Аскон"}
    assert reasons(tally) == [("Кума", "Тор", "changed_not_allowed")]


def test_invalid_first_vote_does_not_block_a_valid_later_one():
    versions = [post("1", "Кума", 1, "Никто"), post("2", "Кума", 5, "Тор")]
    tally = count_votes(versions, ROSTER, rules(policy="first"), DEADLINE)
    assert counted(tally) == {"Кума": "Тор"}
    assert reasons(tally) == [("Кума", "Никто", "unknown_name")]


def test_votes_before_the_day_opens():
    tally = count_votes([post("1", "Кума", 1, "Тор"), post("2", "Аскон", 20, "Тор")], ROSTER,
                        rules(opens=at(10)), DEADLINE)
    assert counted(tally) == {"Аскон": "Тор"}
    assert reasons(tally) == [("Кума", "Тор", "before_open")]


def test_abstain_token_counts_without_being_a_player():
    tally = count_votes([post("1", "Кума", 1, "Не судить")], ROSTER, rules(abstain_token="не судить"), DEADLINE)
    assert counted(tally) == {"Кума": "не судить"}


def test_vote_removed_by_an_edit_is_not_counted():
    versions = [post("1", "Кума", 1, "Тор"), post("1", "Кума", 1, edited=5)]
    assert count_votes(versions, ROSTER, rules(), DEADLINE) == Tally()


def test_unknown_policy_is_refused():
    with pytest.raises(ValueError):
        rules(policy="most")


def test_look_alike_account_cannot_vote_for_a_player():
    tally = count_votes([post("1", "Кумa", 1, "Тор")], ROSTER, rules(), DEADLINE)   # Latin a
    assert counted(tally) == {} and reasons(tally) == [("Кумa", "Тор", "non_player")]


@pytest.mark.parametrize("account", ["Гоша", "гоша", "gosha100\u200b", "\u202egosha100", "GOSHA100"])
def test_an_account_that_only_looks_like_a_player_votes_for_nobody(account):
    """The player's vote stands; the look-alike account's vote is a non-player's."""
    tally = count_votes([post("1", "gosha100", 1, "Аскон"), post("2", account, 2, "Robozik")],
                        ROSTER, rules(), DEADLINE)
    assert counted(tally) == {"gosha100": "Аскон"}
    assert reasons(tally) == [(account, "Robozik", "non_player")]


def test_the_hosts_correction_stands_for_the_players_posts():
    from forumgm.engines.tally import HostVote

    posts = [post("1", "Аскон", 1, "Кума"), post("2", "Аскон", 5, "Тор"), post("3", "Тора", 2, "Кума"),
             post("4", "Тор", 3, "Кто-то")]
    fixes = [HostVote("Аскон", "Торой", at(20), "host"),          # replaces his counted vote (and the one before)
             HostVote("Кума", "Аскону", at(30), "host"),          # adds a vote he never posted
             HostVote("Тор", "Тор", at(40), "host")]              # stands beside his unreadable post
    tally = count_votes(posts, ROSTER, rules(), DEADLINE, fixes)
    assert counted(tally) == {"Тора": "Кума", "Аскон": "Тора", "Кума": "Аскон", "Тор": "Тор"}
    assert [(v.voter, v.post_id, v.entered_by, v.at) for v in tally.counted if v.entered_by] == [
        ("Аскон", None, "host", at(20)), ("Кума", None, "host", at(30)), ("Тор", None, "host", at(40))]
    assert [(d.voter, d.text, d.reason, d.detail) for d in tally.discarded] == [
        ("Тор", "Кто-то", "unknown_name", ""), ("Аскон", "Тор", "corrected", "Тора"),
        ("Аскон", "Кума", "superseded", "Тор")]


def test_a_correction_is_judged_by_the_days_rules_like_a_post():
    from forumgm.engines.tally import HostVote

    fixes = [HostVote("Аскон", "Кума", at(20), "host"), HostVote("Тора", "Аскон", at(21), "host")]
    tally = count_votes([post("1", "Аскон", 1, "Тор")], ROSTER, rules(dead=("Кума", "Тора"), policy="first"),
                        DEADLINE, fixes)
    assert tally.counted == ()
    assert [(d.voter, d.text, d.reason, d.detail) for d in tally.discarded] == [
        ("Аскон", "Тор", "corrected", "Кума"), ("Аскон", "Кума", "dead_target", "Кума"),
        ("Тора", "Аскон", "dead_voter", "")]
