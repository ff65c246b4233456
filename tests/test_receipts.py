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


def test_the_host_notice_shows_an_invisible_character_in_an_account_name():
    body = TEXTS.render("common/notice_stray_pm.j2", sender="gosha100\u200b", subject="", time="", text="x",
                        games=["g"], finished=[], replaced=[])
    assert "gosha100<U+200B>" in body and "gosha100\u200b" not in body
