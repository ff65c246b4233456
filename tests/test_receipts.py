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
