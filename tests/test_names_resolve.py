"""Nickname resolution: every rule, and the cases where it must refuse to guess."""
import pytest

from forumgm.parsers.names import (
    Resolved, Roster, Unresolved, account_player, declensions, resolve_name, split_name,
)

# The players of the phpBB fixture thread, plus nicknames that share prefixes.
FIXTURE = ("Ведущий", "Аскон", "gosha100", "Robozik", "Ильмаринен", "Кума", "Гладиатор", "Гость")
ROSTER = Roster(FIXTURE + ("Тор", "Тора", "Кум", "Хан", "Лиса", "Чёрный Рыцарь"), {"Гоша": "gosha100"})


def nick(text, roster=ROSTER):
    found = resolve_name(text, roster)
    assert isinstance(found, Resolved), found
    return found.nick, found.how


@pytest.mark.parametrize("text, expected", [
    ("Аскон", ("Аскон", "exact")),
    ("gosha100", ("gosha100", "exact")),
    ("Чёрный Рыцарь", ("Чёрный Рыцарь", "exact")),
    ("  Гладиатор, ", ("Гладиатор", "exact")),
    ("«Кума»", ("Кума", "exact")),
    ("аскон", ("Аскон", "case")),
    ("ROBOZIK", ("Robozik", "case")),
    ("черный рыцарь", ("Чёрный Рыцарь", "fold")),
    ("Аскoн", ("Аскон", "fold")),            # Latin o
    ("Robоzik", ("Robozik", "fold")),        # Cyrillic о
    ("АСКOH", ("Аскон", "fold")),            # Latin O and H
    ("goshа1оо", ("gosha100", "fold")),      # Cyrillic а and о for a and zeros
])
def test_spelling_rules(text, expected):
    assert nick(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Аскона", "Аскон"), ("Аскону", "Аскон"), ("Асконом", "Аскон"), ("об Асконе", "Аскон"),
    ("у Кумы", "Кума"), ("Кумой", "Кума"), ("Гладиатору", "Гладиатор"), ("Хана", "Хан"),
    ("Лисы", "Лиса"), ("Ведущему", "Ведущий"), ("Ильмаринена", "Ильмаринен"),
    ("Гостю", "Гость"), ("Чёрному Рыцарю", "Чёрный Рыцарь"), ("Тором", "Тор"), ("Торой", "Тора"),
    ("Robozik'а", "Robozik"), ("Robozik’у", "Robozik"), ("Robozikом", "Robozik"),
    ("gosha100у", "gosha100"), ("Аскoну", "Аскон"),
])
def test_case_forms(text, expected):
    assert nick(text) == (expected, "case_form")


def test_alias_is_folded_and_declined():
    assert nick("гоша") == ("gosha100", "alias")
    assert nick("Гошa") == ("gosha100", "alias")     # Latin a
    assert nick("Гошу") == ("gosha100", "case_form")


def test_alias_to_someone_not_in_the_roster_is_ignored():
    roster = Roster(("Аскон",), {"Гоша": "gosha100"})
    assert isinstance(resolve_name("Гоша", roster), Unresolved)


@pytest.mark.parametrize("written", ["Тор", "Тора", "Кум", "Кума"])
def test_shared_prefix_resolves_exactly_when_written_exactly(written):
    assert nick(written) == (written, "exact")


@pytest.mark.parametrize("text, candidates", [
    ("Тору", ("Тор", "Тора")),      # dative of Тор, accusative of Тора
    ("Торе", ("Тор", "Тора")),
    ("Куму", ("Кум", "Кума")),
])
def test_declined_form_of_two_nicknames_is_ambiguous(text, candidates):
    found = resolve_name(text, ROSTER)
    assert found == Unresolved(text, candidates, "ambiguous")


def test_same_key_for_two_players_is_ambiguous_not_a_pick():
    roster = Roster(("Max", "Мах"))        # Latin and Cyrillic look-alikes, both real players
    assert nick("Max", roster) == ("Max", "exact")
    found = resolve_name("MAХ", roster)     # mixed script: could be either
    assert not found.ok and found.reason == "ambiguous" and set(found.candidates) == {"Max", "Мах"}


def test_fuzzy_typo_with_one_clear_candidate():
    assert nick("Гладиатр") == ("Гладиатор", "fuzzy")
    assert nick("Ильмариен") == ("Ильмаринен", "fuzzy")


def test_fuzzy_typo_between_two_close_candidates_is_unresolved():
    roster = Roster(("Ведьма", "Ведьмак", "Аскон"))
    found = resolve_name("Ведьмк", roster)
    assert not found.ok and found.reason == "ambiguous"
    assert set(found.candidates) == {"Ведьма", "Ведьмак"}


def test_short_text_is_never_fuzzy():
    found = resolve_name("Хн", ROSTER)
    assert not found.ok and found.reason == "unknown"


def test_unknown_name_offers_candidates():
    found = resolve_name("Глади", Roster(("Гладиатор", "Гладиолус", "Аскон")))
    assert found == Unresolved("Глади", ("Гладиатор", "Гладиолус"), "unknown")


def test_nonsense_and_empty():
    assert resolve_name("ник", ROSTER) == Unresolved("ник", (), "unknown")
    assert resolve_name("  ", ROSTER).reason == "empty"


def test_declensions_include_the_nickname_itself():
    assert {"аскон", "аскона", "аскону", "асконом", "асконе"} <= declensions("Аскон")
    assert declensions("Зорро") == {"зорро"}


@pytest.mark.parametrize("line, found, rest", [
    ("Хана, передаю себе", "Хан", "передаю себе"),
    ("Чёрного Рыцаря атакую", "Чёрный Рыцарь", "атакую"),
    ("Кума 5", "Кума", "5"),
    ("Тора: лечить", "Тора", "лечить"),
    ("Гладиатр 5 раз", "Гладиатор", "5 раз"),       # a typo only after no exact prefix
    ("Гладиатор 5", "Гладиатор", "5"),             # the digit is not eaten by fuzzy matching
    ("Robozik'а", "Robozik", ""),
    ("Чёрнй Рыцарь атакую", "Чёрный Рыцарь", "атакую"),   # a typo inside a two-word nickname
])
def test_split_name_takes_the_longest_nickname_at_the_start(line, found, rest):
    resolution, remainder = split_name(line, ROSTER)
    assert (resolution.nick, remainder) == (found, rest)


def test_split_name_reports_what_it_could_not_resolve():
    resolution, rest = split_name("Тору передаю", ROSTER)
    assert resolution == Unresolved("Тору", ("Тор", "Тора"), "ambiguous") and rest == "передаю"
    resolution, rest = split_name("Никто 5", ROSTER)
    assert not resolution.ok and resolution.reason == "unknown" and rest == "5"
    assert split_name("   ", ROSTER)[0].reason == "empty"


@pytest.mark.parametrize("account", [
    "аскон",                 # another account on a board that tells case apart
    "гоша",                  # a player's alias is how others write about him, never who writes
    "Аскoн",                 # look-alike letters
    "Аскона", "gosha100\u200b", "\u200bgosha100", "gosha\u200d100", "gosha100\u2060", "\ufeffgosha100",
    "gosha100\u00ad",        # zero-width and soft hyphen: invisible, but another account
    "\u202egosha100", "gosha100\u200e", "\u2066gosha100\u2069", "gosha100\u061c",   # bidi controls
])
def test_an_account_is_a_player_only_by_its_exact_name(account):
    assert account_player(account, ROSTER) is None


def test_account_player_is_the_exact_name_after_nfc():
    assert account_player("Аскон", ROSTER) == "Аскон"
    assert account_player("gosha100", ROSTER) == "gosha100"
    decomposed = Roster(("Zoe\u0301",))             # "Zoé" written with a combining accent
    assert account_player("Zo\u00e9", decomposed) == "Zoe\u0301"
    assert account_player("Гладиатор", Roster(("Аскон", "Кума"))) is None


def test_fallback_declension_of_a_word_pymorphy_reads_as_a_verb():
    roster = Roster(("Бегай", "Аскон"))
    assert resolve_name("Бегаю", roster) == Resolved("Бегай", "case_form")


def test_a_short_nickname_the_dictionary_calls_indeclinable_is_still_declined():
    # pymorphy reads "Эф" as the name of a letter, which does not decline; players still write "у Эфа".
    roster = Roster(("Эф", "Хан"))
    for text in ("Эфа", "Эфу", "Эфом"):
        assert resolve_name(text, roster) == Resolved("Эф", "case_form")


@pytest.mark.parametrize("text", ["Серого-Волка", "Серому-Волку", "у Серого-Волка", "Серый-Волка"])
def test_a_hyphenated_nickname_declines_part_by_part(text):
    assert nick(text, Roster(("Серый-Волк", "Волк"))) == ("Серый-Волк", "case_form")


def test_a_written_yo_decides_between_two_nicknames_a_missing_one_does_not():
    roster = Roster(("Лев", "Лёва"))
    assert nick("Лёву", roster) == ("Лёва", "case_form")
    assert nick("Льва", roster) == ("Лев", "case_form")
    found = resolve_name("Леву", roster)          # Лёва without its ё, or a form the dictionary gives Лев
    assert not found.ok and set(found.candidates) == {"Лев", "Лёва"}


@pytest.mark.parametrize("text", ["gosha101", "gosha10", "Игрок12"])
def test_fuzzy_matching_never_changes_a_number(text):
    roster = Roster(("gosha100", "Игрок1", "Аскон"))
    found = resolve_name(text, roster)
    assert found.reason == "unknown" and len(found.candidates) == 1


def test_fuzzy_matching_keeps_the_number_of_a_numbered_nickname():
    assert nick("gosha1000", Roster(("gosha1000", "Аскон"))) == ("gosha1000", "exact")
    assert nick("gosa100", Roster(("gosha100", "Аскон"))) == ("gosha100", "fuzzy")
    assert nick("Agent 007", Roster(("Agent007", "Аскон"))) == ("Agent007", "fuzzy")


@pytest.mark.parametrize("text, candidates", [
    ("Голосую за Аскона", ("Аскон",)),
    ("голосую против Чёрного Рыцаря!", ("Чёрный Рыцарь",)),
    ("Кума или Хан", ("Кума", "Хан")),
])
def test_a_phrase_is_not_resolved_but_names_the_players_inside_it(text, candidates):
    found = resolve_name(text, ROSTER)
    assert found.reason == "unknown" and found.candidates[:len(candidates)] == candidates


@pytest.mark.parametrize("text, expected", [
    ("Лису", "Лиса"), ("Волка", "Волк"), ("Тенью", "Тень"), ("у Эфа", "Эф"), ("Яну", "Ян"),
    ("Чёрного Рыцаря", "Чёрный Рыцарь"), ("Рыцаря", "Чёрный Рыцарь"), ("Мастера 3", "Мастер 3"),
    ("Ёжа", "Ёж"), ("Ежу", "Ёж"), ("Dark Knightа", "Dark Knight"),
])
def test_nicknames_that_are_russian_words_decline(text, expected):
    roster = Roster(("Лиса", "Волк", "Тень", "Эф", "Ян", "Чёрный Рыцарь", "Мастер 3", "Ёж", "Dark Knight"),
                    {"Рыцарь": "Чёрный Рыцарь"})
    assert nick(text, roster)[0] == expected
