"""The receipt PM: every line of the order PM answered, the player's text never opening a tag."""
import re

from forumgm.config import load_texts
from forumgm.engines.base import Accepted, Rejected
from forumgm.engines.receipts import receipt_text

TEXTS = load_texts()


def test_every_line_is_answered_accepted_first_then_refused_with_its_reason():
    text = receipt_text("legends", "Зорро", [Accepted("Атака 8 Хана", None, "Атака 8 → Хан"),
                                             Rejected("летать", "команда не распознана")], TEXTS)
    assert text == ("Зорро, ваш приказ получен.\n\nПринято:\n• Атака 8 → Хан\n\n"
                    "Не принято:\n• «летать» — команда не распознана")


def test_a_pm_without_commands_says_so():
    assert receipt_text("legends", "Зорро", [], TEXTS).endswith("В сообщении не найдено ни одной команды.")


def test_a_players_bbcode_is_escaped_in_the_receipt():
    text = receipt_text("legends", "Зорро", [Rejected("[url=http://x]жми[/url]", "команда не распознана")], TEXTS)
    assert "[url=" not in text and "\uff3burl=http://x]" in text


def test_invisible_characters_from_a_player_never_reach_a_text():
    text = receipt_text("legends", "Зорро", [Rejected("Атака\u200b 3\u202e\ufeff", "команда не распознана")], TEXTS)
    assert "Атака 3" in text and not re.search("[\u200b-\u200f\u202a-\u202e\ufeff]", text)


def test_mafia_greets_a_message_the_rest_is_common():
    text = receipt_text("mafia", "Эф", [Accepted("голос: Лиса", None, "голос: Лиса")], TEXTS)
    assert text == "Эф, ваше сообщение получено.\n\nПринято:\n• голос: Лиса"


INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c"


def test_invisible_characters_from_a_player_never_reach_the_draft():
    """Zero-width and bidi characters could hide or reorder text, or forge what publishing looks
    for in a sent message; the escape removes them from every value a template prints."""
    line = "Ата\u200bка 5 go\u202esha" + INVISIBLE + "[b]x[/b]"
    text = receipt_text("legends", "Зорро\u2066", [Rejected(line, "команда не распознана")], TEXTS)
    assert not any(ch in text for ch in INVISIBLE)
    assert "«Атака 5 gosha\uff3bb]x\uff3b/b]»" in text and text.startswith("Зорро, ")


def test_control_characters_from_a_player_never_reach_the_draft():
    """NUL, ESC and a terminal's OSC sequence: no board shows them, and the host reads drafts in
    his terminal, where they would act (retitle it, clear the screen)."""
    text = receipt_text("legends", "Зорро\x1b[2J", [Rejected("Атака\x00 5\x1b]0;pwned\x07\x7f\x9b", "?")], TEXTS)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", text)
    assert "«Атака 5]0;pwned»" in text and text.startswith("Зорро\uff3b2J, ")


def test_the_host_notice_shows_an_invisible_character_in_an_account_name():
    body = TEXTS.render("common/notice_stray_pm.j2", sender="gosha100\u200b", subject="", time="", text="x",
                        games=["g"], finished=[], replaced=[], look_alike=None)
    assert "gosha100<U+200B>" in body and "gosha100\u200b" not in body


SMF_PM_LIMIT = 20000   # "The message exceeds the maximum allowed length (20000 characters)." (SMF 2.1.4, stock)


def test_the_receipt_of_a_huge_pm_fits_a_pm_and_counts_every_line():
    """A PM as long as a board takes (SMF: 20,000 characters) of lines that are no orders: each line
    was echoed whole with its reason, the receipt grew past what any board sends, the board refused
    it and the player had no answer. It lists the first refusals, each cut short, and counts the rest."""
    from forumgm.parsers.names import Roster
    from forumgm.parsers.orders.mafia import parse_orders
    roster = Roster(("Аскон", "Хан", "Лиса"))
    lines = ["голос: Лиса"] + [f"строка {n} не приказ" for n in range(1, 900)]
    verdicts = parse_orders("\n".join(lines), "Хан", roster)
    text = receipt_text("mafia", "Хан", verdicts, TEXTS)
    assert len("\n".join(lines)) < SMF_PM_LIMIT < sum(len(v.line) + len(v.reason) for v in verdicts[1:])
    assert len(text) < SMF_PM_LIMIT / 2
    assert "Принято:\n• голос: Лиса\n" in text
    assert "• «строка 1 не приказ» — команда не распознана" in text
    shown = text.count("— команда не распознана")
    assert shown == 30 and text.endswith("• …и ещё 869 строк не принято")
    one_more = receipt_text("mafia", "Хан", verdicts[:32], TEXTS)
    assert one_more.endswith("• «строка 30 не приказ» — команда не распознана (голос: <ник>, не судить, "
                             "проверить, лечить, блокировать или убить <ник>)\n• …и ещё 1 строка не принята")


def test_a_huge_line_and_a_reason_quoting_it_are_cut_short_in_the_receipt():
    from forumgm.parsers.names import Roster
    from forumgm.parsers.orders.mafia import parse_line
    # the grammar's own verdict: a PM's line so long is refused unread (test_parser_limits.py)
    verdict = parse_line("голос: " + "Лиса" * 4000, "Хан", Roster(("Аскон", "Хан", "Лиса")))
    text = receipt_text("mafia", "Хан", [verdict], TEXTS)
    assert len(verdict.line) + len(verdict.reason) > 30000 and len(text) < 1000
    assert "• «голос: ЛисаЛиса" in text and "» — неизвестный игрок «ЛисаЛиса" in text and text.count("…") == 2
