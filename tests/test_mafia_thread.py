"""Sign-up from thread posts and the thread-discipline digest for the host."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from forumgm.config import load_texts
from forumgm.engines.base import Phase
from forumgm.engines.mafia import RULES
from forumgm.engines.mafia.discipline import Flag, digest, digest_text
from forumgm.parsers.forums.base import Post
from forumgm.parsers.signup import JOIN, LEAVE, post_action, read_signup

START = datetime(2026, 3, 2, 20, 0, tzinfo=timezone.utc)    # 23:00 Moscow
END = START + timedelta(hours=23, minutes=45)


def post(author, text, minutes, number=[0]):
    number[0] += 1
    return Post(id=str(number[0]), author=author, author_id=None, posted_at=START + timedelta(minutes=minutes),
                text=text, text_unquoted=text)


def test_post_actions():
    assert [post_action(t) for t in ("+", "Я в игре!", "записываюсь", "я участвую", "выписываюсь",
                                     "увы, не участвую", "а кто в игре?", "5+5 = 10")] == [
        JOIN, JOIN, JOIN, JOIN, LEAVE, LEAVE, None, None]


def test_signup_list_in_join_order_with_withdrawals_and_the_host_skipped():
    posts = [post("Ведущий", "Запись на игру! + в теме", 0), post("Хан", "+", 1), post("Лиса", "я в игре", 2),
             post("Бук", "интересно, кто в игре?", 3), post("Хан", "выписываюсь, простите", 4),
             post("Зорро", "записываюсь", 5), post("Хан", "всё-таки участвую", 6), post("Тора", "+", 9000)]
    signup = read_signup(posts, host="Ведущий", until=START + timedelta(hours=2))
    assert signup.players == ("Лиса", "Зорро", "Хан")
    assert [(e.author, e.action) for e in signup.entries] == [
        ("Хан", JOIN), ("Лиса", JOIN), ("Хан", LEAVE), ("Зорро", JOIN), ("Хан", JOIN)]


def test_negated_and_short_sign_up_posts():
    assert [post_action(t) for t in ("Я не в игре", "уже не в игре, сорри", "-", "впишите меня", "я с вами",
                                     "выбываю", "-5 сегодня на улице")] == [
        LEAVE, LEAVE, LEAVE, JOIN, JOIN, LEAVE, None]


def test_quoted_sign_up_does_not_count():
    quoting = Post(id="1", author="Бук", author_id=None, posted_at=START, text="> я в игре\nа я подумаю",
                   text_unquoted="а я подумаю")
    assert read_signup([quoting]).players == ()


def test_discipline_digest_flags_each_rule():
    state = RULES.setup({"players": [{"nick": n, "role": r} for n, r in (
        ("Аскон", "Комиссар"), ("Хан", "Доктор"), ("Лиса", "Босс"), ("Бук", "Мафиози"), ("Зорро", "Маньяк"),
        ("Тора", "Мирный"), ("Марк", "Мирный"), ("Кума", "Мирный"))], "dead": ["Аскон", "Кума"]}, 1)
    posts = [post("Хан", "Лиса — мафия", 10), post("Лиса", "Хан врёт", 20), post("Бук", "согласен", 30),
             post("Зорро", "хм", 40), post("Аскон", "я был комиссаром", 50),
             *[post("Кума", "ещё мысль", 60 + i) for i in range(3)],
             *[post("Гость", "болею за мирных", 70 + i) for i in range(3)],
             post("Марк", "два сообщения гостя можно", 80), post("Ведущий", "итоги", 90),
             post("Тора", "после дедлайна", 24 * 60)]
    result = digest(state, posts, START, END, host="Ведущий")
    assert result.silent == ("Тора",)
    assert set(result.flags) == {Flag("Аскон", 1, "silenced", "Комиссар"), Flag("Кума", 3, "dead"),
                                 Flag("Гость", 3, "guest")}
    text = digest_text(result, load_texts())
    assert "Тора" in text and "Аскон (Комиссар, выбыл)" in text and "Гость (гость)" in text


def test_quiet_day_within_the_limits_is_clean():
    state = RULES.setup({"players": [{"nick": f"И{i}"} for i in range(8)], "dead": ["И0"]}, 3)
    posts = [post(f"И{i}", "мысль", i) for i in range(1, 8)] + [post("Гость", "привет", 9), post("Гость", "ещё", 10)]
    result = digest(state, posts, START, END)
    assert result.clean
    assert "Нарушений нет" in digest_text(result, load_texts())
    assert digest(state, posts[1:], START, END).silent == ("И1",)


def test_the_engine_drafts_the_digest_as_a_pm_to_the_host():
    state = RULES.setup({"players": [{"nick": f"И{i}"} for i in range(8)]}, 3)
    posts = [post(f"И{i}", "мысль", i) for i in range(1, 8)] + [post("Ведущий", "итоги", 11)]
    pm = RULES.host_digest(state, Phase("round", 2), posts, START, END, "Ведущий", load_texts())
    assert (pm.to, pm.kind, pm.subject) == ("Ведущий", "discipline", "Дисциплина в теме, игровой день 2")
    assert pm.text == digest_text(digest(state, posts, START, END, "Ведущий"), load_texts())
    assert "И0" in pm.text and "Ведущий" not in pm.text
